package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/internal/lazyre"
	"gopkg.in/yaml.v3"
)

// checkTree walks the parsed file against the shape of File before it is
// decoded, so every problem of shape (an unknown key, a list where a
// mapping belongs, a word where a number belongs) is reported with the
// file, line and key, in the file's terms: never the Go type it would have
// been decoded into.
func checkTree(name string, doc *yaml.Node) error {
	if doc.Kind == 0 || doc.Kind == yaml.DocumentNode && (len(doc.Content) == 0 || doc.Content[0].Tag == "!!null") {
		return &Error{File: name, Msg: "the file is empty: it needs at least a profiles: section (see bashbox.example.yaml)"}
	}
	return checkNode(name, doc.Content[0], reflect.TypeFor[File](), "")
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	sizeType     = reflect.TypeFor[Size]()
	// A fallback command is a name or {name, network}: Fallback decodes
	// itself, and its commands are checked here in the file's terms.
	fallbackCommandKey = "commands"
)

func checkNode(file string, n *yaml.Node, t reflect.Type, key string) error {
	fail := func(format string, args ...any) error {
		return &Error{File: file, Line: n.Line, Col: n.Column, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Tag == "!!null" {
		return nil // an empty value keeps the default
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		d, err := time.ParseDuration(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			return fail("want a duration with a unit, e.g. 30s, 2m or 1h30m; got %s", shown(n))
		}
		if d < 0 {
			return fail("must not be negative; got %s", n.Value)
		}
		return nil
	case t == sizeType:
		if _, err := ParseSize(n.Value); n.Kind != yaml.ScalarNode || err != nil {
			return fail("want a size in bytes, e.g. 1048576, 512KiB, 10MiB or 1GB; got %s", shown(n))
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return fail("want a mapping of keys (%s); got %s", strings.Join(yamlKeys(t), ", "), shown(n))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fieldByKey(t, k.Value)
			sub := join(key, k.Value)
			if !ok {
				return &Error{File: file, Line: k.Line, Col: k.Column, Key: sub,
					Msg: fmt.Sprintf("unknown key; the keys here are %s", strings.Join(yamlKeys(t), ", "))}
			}
			if err := checkNode(file, v, f.Type, sub); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return fail("want a mapping of names to values; got %s", shown(n))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkNode(file, n.Content[i+1], t.Elem(), join(key, n.Content[i].Value)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return fail("want a list, e.g. [a, b]; got %s", shown(n))
		}
		for i, item := range n.Content {
			if err := checkNode(file, item, t.Elem(), key+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.String:
		if i := strings.LastIndex(key, "["); n.Kind == yaml.MappingNode && i > 0 && strings.HasSuffix(key[:i], "fallback."+fallbackCommandKey) {
			return checkFallbackCommand(file, n, key)
		}
		if n.Kind != yaml.ScalarNode {
			return fail("want a single value; got %s", shown(n))
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			return fail("want true or false; got %s", shown(n))
		}
	case reflect.Int, reflect.Int64:
		v, err := strconv.ParseInt(n.Value, 0, 64)
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
			return fail("want a whole number; got %s", shown(n))
		}
		if v < 0 {
			return fail("must not be negative; got %d", v)
		}
	}
	return nil
}

// shown describes a node in an error: its text, or what kind of thing it is.
func shown(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return strconv.Quote(n.Value)
}

func join(key, sub string) string {
	if key == "" {
		return sub
	}
	return key + "." + sub
}

// fieldByKey finds the field of struct t whose yaml key is key.
func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if yamlKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// yamlKeys lists the keys a struct accepts.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if k := yamlKey(t.Field(i)); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

func yamlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if k == "-" || !f.IsExported() {
		return ""
	}
	return k
}

var yamlLineRE = lazyre.New(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a YAML parser error into a positioned Error.
func syntaxError(file string, err error) error {
	msg := err.Error()
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: file, Line: line, Msg: "not valid YAML: " + m[2]}
	}
	return &Error{File: file, Msg: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// keysOf lists every key path the configuration accepts, with "*" for a
// name the operator chooses (a volume or profile name, an env variable).
func keysOf(t reflect.Type, prefix string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	switch {
	case t == durationType || t == sizeType:
		return nil
	case t.Kind() == reflect.Struct:
		for _, k := range yamlKeys(t) {
			f, _ := fieldByKey(t, k)
			out = append(out, join(prefix, k))
			out = append(out, keysOf(f.Type, join(prefix, k))...)
		}
	case t.Kind() == reflect.Map:
		out = append(out, keysOf(t.Elem(), join(prefix, "*"))...)
	}
	slices.Sort(out)
	return out
}

// checkFallbackCommand checks a fallback command written as a mapping:
// {name: git, network: true}.
func checkFallbackCommand(file string, n *yaml.Node, key string) error {
	named := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub := join(key, k.Value)
		switch k.Value {
		case "name":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return &Error{File: file, Line: v.Line, Col: v.Column, Key: sub, Msg: "want a command name; got " + shown(v)}
			}
			named = true
		case "network":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				return &Error{File: file, Line: v.Line, Col: v.Column, Key: sub, Msg: "want true or false; got " + shown(v)}
			}
		default:
			return &Error{File: file, Line: k.Line, Col: k.Column, Key: sub, Msg: "unknown key; the keys here are name, network"}
		}
	}
	if !named {
		return &Error{File: file, Line: n.Line, Col: n.Column, Key: key, Msg: "an entry needs a name"}
	}
	return nil
}
