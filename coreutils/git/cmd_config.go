package git

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

var configSpecs = []optSpec{
	{long: "global"},
	{long: "system"},
	{long: "local"},
	{long: "worktree"},
	{short: 'f', long: "file", arg: argRequired},
	{long: "blob", arg: argRequired},
	{long: "get"},
	{long: "get-all"},
	{long: "get-regexp"},
	{long: "get-urlmatch"},
	{long: "replace-all"},
	{long: "add"},
	{long: "unset"},
	{long: "unset-all"},
	{long: "rename-section"},
	{long: "remove-section"},
	{short: 'l', long: "list"},
	{long: "fixed-value"},
	{short: 'e', long: "edit"},
	{long: "get-color"},
	{long: "get-colorbool"},
	{short: 't', long: "type", arg: argRequired},
	{long: "bool"},
	{long: "int"},
	{long: "bool-or-int"},
	{long: "bool-or-str"},
	{long: "path"},
	{long: "expiry-date"},
	{long: "no-type"},
	{short: 'z', long: "null"},
	{long: "name-only"},
	{long: "includes"},
	{long: "show-origin"},
	{long: "show-scope"},
	{long: "default", arg: argRequired},
}

func cmdConfig(g *cmd, args []string) int {
	p := g.parse(args, configSpecs)
	for _, k := range []string{"system", "worktree"} {
		if p.flag(k) {
			g.fatal("--%s is not available in the sandbox: use the repository's configuration (.git/config) or --global", k)
		}
	}
	if _, ok := p.str("blob"); ok {
		g.fatal("--blob is not supported in the sandbox")
	}
	if p.flag("edit") {
		g.fatal("--edit is not available in the sandbox")
	}
	typ := ""
	if v, ok := p.str("type"); ok {
		typ = v
	}
	for _, k := range []string{"bool", "int", "bool-or-int", "bool-or-str", "path", "expiry-date"} {
		if p.flag(k) {
			typ = k
		}
	}
	if p.flag("no-type") {
		typ = ""
	}
	switch typ {
	case "", "bool", "int", "bool-or-int", "bool-or-str", "path", "expiry-date", "color":
	default:
		g.msg("error: unrecognized --type argument, %s", typ)
		return 129
	}
	actions := []string{"get", "get-all", "get-regexp", "get-urlmatch", "replace-all", "add", "unset", "unset-all", "rename-section", "remove-section", "list", "get-color", "get-colorbool"}
	action := ""
	for _, a := range actions {
		if p.flag(a) {
			if action != "" {
				g.msg("error: only one action at a time")
				g.subHelp(129, g.stderr)
				return 129
			}
			action = a
		}
	}
	file, hasFile := p.str("file")
	var r *repo
	var cs *configSet
	var target *configFile
	if p.flag("global") && !hasFile {
		// The user's file: $HOME is the sandbox's, so what a script
		// writes here lasts as long as its $HOME does.
		fp := g.globalWritePath()
		if fp == "" {
			g.fatal("$HOME not set")
		}
		hasFile, file = true, fp
	}
	if hasFile {
		fp := g.abs(file)
		data, err := readAll(g.c.FS, fp)
		if err != nil && action != "" && action != "add" && action != "replace-all" {
			if action == "list" {
				g.fatal("unable to read config file '%s': %s", file, errText(err))
			}
		}
		target = parseConfig(data, "command")
		target.path = fp
		cs = &configSet{files: []*configFile{target}, local: target}
	} else {
		rr, err := g.openRepo()
		if err == nil {
			r = rr
			cs = r.cfg
			target = cs.local
		} else {
			cs = g.loadConfig(nil)
			if p.flag("local") {
				g.fatal("--local can only be used inside a git repository")
			}
		}
		if p.flag("local") && cs.local != nil {
			cs = &configSet{files: []*configFile{cs.local}, local: cs.local}
		}
	}
	save := func() {
		if target == nil {
			g.fatal("not in a git directory")
		}
		if target.path == "" {
			g.fatal("not in a git directory")
		}
		if err := g.c.FS.MkdirAll(path.Dir(target.path), 0o755); err != nil {
			g.fatal("could not lock config file %s: %s", target.path, errText(err))
		}
		if err := writeFile(g.c.FS, target.path, target.bytes(), 0o644); err != nil {
			g.fatal("could not write config file %s: %s", target.path, errText(err))
		}
	}
	nameOnly := p.flag("name-only")
	nul := p.flag("null")
	showOrigin := p.flag("show-origin")
	showScope := p.flag("show-scope")
	origin := func(e cfgEntry) string {
		var s string
		if showScope {
			s += e.scope + "\t"
		}
		if showOrigin {
			if e.scope == "command" && !hasFile {
				s += "command line:\t"
			} else {
				fp := ""
				for _, f := range cs.files {
					if f.scope == e.scope {
						fp = f.path
					}
				}
				if r != nil && strings.HasPrefix(fp, r.work+"/") && path0(g.dir) == r.work {
					fp = fp[len(r.work)+1:]
				}
				s += "file:" + fp + "\t"
			}
		}
		return s
	}
	term := "\n"
	kvSep := "="
	if nul {
		term = "\x00"
		kvSep = "\n"
	}
	args = p.args
	if action == "" {
		switch len(args) {
		case 0:
			g.subHelp(129, g.stderr)
			return 129
		case 1:
			action = "get"
		case 2:
			action = "set"
		case 3:
			action = "set"
		default:
			g.msg("error: wrong number of arguments, should be from 1 to 3")
			g.subHelp(129, g.stderr)
			return 129
		}
	}
	need := func(min, max int) {
		if len(args) < min || len(args) > max {
			if min == max {
				g.msg("error: wrong number of arguments, should be %d", min)
			} else {
				g.msg("error: wrong number of arguments, should be from %d to %d", min, max)
			}
			g.subHelp(129, g.stderr)
			panic(exitCode(129))
		}
	}
	checkKey := func(name string) {
		if _, _, _, msg := canonName(name); msg != "" {
			g.msg("error: %s", msg)
			panic(exitCode(1))
		}
	}
	var w bytes.Buffer
	defer func() { g.out.Write(w.Bytes()) }()
	switch action {
	case "list":
		need(0, 0)
		for _, e := range cs.all() {
			w.WriteString(origin(e))
			if nameOnly || e.noValue {
				w.WriteString(e.name() + term)
			} else {
				w.WriteString(e.name() + kvSep + e.value + term)
			}
		}
		return 0
	case "get", "get-all":
		need(1, 2)
		checkKey(args[0])
		var vals []cfgEntry
		var re valueMatcher
		if len(args) == 2 {
			re = compileValuePattern(g, args[1], p.flag("fixed-value"))
		}
		for _, f := range cs.files {
			for _, i := range f.find(args[0]) {
				e := f.entries[i]
				if re != nil && !re.MatchString(e.value) {
					continue
				}
				vals = append(vals, e)
			}
		}
		if len(vals) == 0 {
			if d, ok := p.str("default"); ok {
				v, err := typed(typ, d, g)
				if err != "" {
					g.fatal("%s", err)
				}
				w.WriteString(v + term)
				return 0
			}
			return 1
		}
		if action == "get" {
			vals = vals[len(vals)-1:]
		}
		for _, e := range vals {
			v := e.value
			if e.noValue {
				if typ == "" {
					w.WriteString(origin(e) + term)
					continue
				}
				v = "true"
			}
			tv, err := typed(typ, v, g)
			if err != "" {
				g.out.Write(w.Bytes())
				w.Reset()
				g.fatal("%s", strings.ReplaceAll(err, "%KEY%", args[0]))
			}
			w.WriteString(origin(e) + tv + term)
		}
		return 0
	case "get-regexp":
		need(1, 2)
		re, err := regexp.Compile(args[0])
		if err != nil {
			g.msg("error: invalid key pattern: %s", args[0])
			return 6
		}
		var vre valueMatcher
		if len(args) == 2 {
			vre = compileValuePattern(g, args[1], p.flag("fixed-value"))
		}
		found := false
		for _, e := range cs.all() {
			if !re.MatchString(e.name()) {
				continue
			}
			if vre != nil && !vre.MatchString(e.value) {
				continue
			}
			found = true
			w.WriteString(origin(e))
			if nameOnly || e.noValue {
				w.WriteString(e.name() + term)
			} else {
				sep := " "
				if nul {
					sep = "\n"
				}
				v, _ := typed(typ, e.value, g)
				w.WriteString(e.name() + sep + v + term)
			}
		}
		if !found {
			return 1
		}
		return 0
	case "set", "add", "replace-all":
		if action == "set" {
			need(2, 3)
		} else if action == "add" {
			need(2, 2)
		} else {
			need(2, 3)
		}
		checkKey(args[0])
		if target == nil {
			g.fatal("not in a git directory")
		}
		val := args[1]
		if typ != "" {
			v, err := typed(typ, val, g)
			if err != "" {
				g.fatal("%s", strings.ReplaceAll(err, "%KEY%", args[0]))
			}
			val = v
		}
		switch {
		case action == "add":
			target.add(args[0], val)
		case action == "replace-all" || len(args) == 3:
			idx := target.findValues(g, args[0], args[2:], p.flag("fixed-value"))
			if len(idx) == 0 {
				target.add(args[0], val)
			} else {
				if action == "set" && len(idx) > 1 {
					return multipleValues(g, args[0])
				}
				last := idx[len(idx)-1]
				target.replaceEntry(last, args[0], val)
				if len(idx) > 1 {
					target.removeEntries(idx[:len(idx)-1])
				}
			}
		default:
			if !target.set(args[0], val) {
				return multipleValues(g, args[0])
			}
		}
		save()
		return 0
	case "unset", "unset-all":
		need(1, 2)
		checkKey(args[0])
		if target == nil {
			g.fatal("not in a git directory")
		}
		idx := target.findValues(g, args[0], args[1:], p.flag("fixed-value"))
		if len(idx) == 0 {
			return 5
		}
		if action == "unset" && len(idx) > 1 {
			g.msg("warning: %s has multiple values", args[0])
			return 5
		}
		target.removeEntries(idx)
		save()
		return 0
	case "remove-section":
		need(1, 1)
		if target == nil || !target.removeSection(args[0]) {
			g.fatal("no such section: %s", args[0])
		}
		save()
		return 0
	case "rename-section":
		need(2, 2)
		if target == nil || !target.renameSection(args[0], args[1]) {
			g.fatal("no such section: %s", args[0])
		}
		save()
		return 0
	case "get-color", "get-colorbool":
		if action == "get-colorbool" {
			w.WriteString("false\n")
		}
		return 0
	case "get-urlmatch":
		g.fatal("--get-urlmatch is not supported in the sandbox")
	}
	return 0
}

// findValues is the indexes of key's entries, only those whose value matches
// the value-pattern when pattern holds one.
func (cf *configFile) findValues(g *cmd, key string, pattern []string, fixed bool) []int {
	idx := cf.find(key)
	if len(pattern) == 0 {
		return idx
	}
	re := compileValuePattern(g, pattern[0], fixed)
	var keep []int
	for _, i := range idx {
		if re.MatchString(cf.entries[i].value) {
			keep = append(keep, i)
		}
	}
	return keep
}

// multipleValues refuses to set a key that has several values, as git
// config does (exit 5).
func multipleValues(g *cmd, key string) int {
	g.msg("warning: %s has multiple values", key)
	g.msg("error: cannot overwrite multiple values with a single value\n       Use a regexp, --add or --replace-all to change %s.", key)
	return 5
}

// valueMatcher is a value-pattern: a regexp, "!regexp" or, with
// --fixed-value, an exact string.
type valueMatcher func(string) bool

func (m valueMatcher) MatchString(s string) bool { return m(s) }

func compileValuePattern(g *cmd, s string, fixed bool) valueMatcher {
	if fixed {
		return func(v string) bool { return v == s }
	}
	neg := false
	if strings.HasPrefix(s, "!") {
		neg = true
		s = s[1:]
	}
	re, err := regexp.Compile(s)
	if err != nil {
		g.msg("error: invalid pattern: %s", s)
		panic(exitCode(6))
	}
	return func(v string) bool { return re.MatchString(v) != neg }
}

// typed canonicalizes a value for --type; the error text may contain
// %KEY%.
func typed(typ, v string, g *cmd) (string, string) {
	switch typ {
	case "bool":
		if b, ok := canonBool(v); ok {
			return b, ""
		}
		return "", fmt.Sprintf("bad boolean config value '%s' for '%%KEY%%'", v)
	case "int":
		n, ok := parseConfigInt(v)
		if !ok {
			return "", fmt.Sprintf("bad numeric config value '%s' for '%%KEY%%': invalid unit", v)
		}
		return strconv.FormatInt(n, 10), ""
	case "bool-or-int":
		if n, ok := parseConfigInt(v); ok {
			return strconv.FormatInt(n, 10), ""
		}
		if b, ok := canonBool(v); ok {
			return b, ""
		}
		return "", fmt.Sprintf("bad boolean config value '%s' for '%%KEY%%'", v)
	case "bool-or-str":
		if b, ok := canonBool(v); ok {
			return b, ""
		}
		return v, ""
	case "path":
		if strings.HasPrefix(v, "~/") {
			return path.Join(g.getenv("HOME"), v[2:]), ""
		}
		return v, ""
	}
	return v, ""
}

// canonBool is git's spelling of a boolean config value, if v is one.
func canonBool(v string) (string, bool) {
	switch parseBool(v) {
	case 1:
		return "true", true
	case 0:
		return "false", true
	}
	return "", false
}

func parseConfigInt(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	mult := int64(1)
	switch v[len(v)-1] {
	case 'k', 'K':
		mult = 1024
		v = v[:len(v)-1]
	case 'm', 'M':
		mult = 1024 * 1024
		v = v[:len(v)-1]
	case 'g', 'G':
		mult = 1024 * 1024 * 1024
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 0, 64)
	if err != nil {
		return 0, false
	}
	return n * mult, true
}
