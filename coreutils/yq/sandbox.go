package yq

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"github.com/mikefarah/yq/v4/pkg/yqlib"
)

// valueOp is the library's constant-value operation type, taken from a
// parsed literal: env and load nodes are replaced by constants of it.
var valueOp *yqlib.Operation

// setup configures the library once for the process. Its env, load and
// system operators would reach the host's environment, files and
// commands; they are switched off, and the command resolves env and load
// itself (resolve). Its logger would write to the host's standard error.
var setup = sync.OnceFunc(func() {
	yqlib.ConfiguredSecurityPreferences = yqlib.SecurityPreferences{DisableEnvOps: true, DisableFileOps: true}
	yqlib.GetLogger().SetLevel(slog.LevelError + 100)
	yqlib.GetLogger().SetSlogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	yqlib.InitExpressionParser()
	n, err := yqlib.ExpressionParser.ParseExpression(`1`)
	if err != nil {
		panic("yq: cannot parse a literal: " + err.Error())
	}
	valueOp = n.Operation
})

// The expression scanners, compiled on first use rather than at every
// start of the binary.
var (
	strenvRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`strenv\(([^)]+)\)`) })
	envRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^r])env\(([^)]+)\)`) })
	loadRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(load_?xml|xml_?load|load_?base64|load_?props|load_?str|str_?load|load)\s*\(\s*"([^"]*)"`)
	})
)

// resolve replaces the env and load operations of the parsed expression
// by constants: env and strenv from the call's environment, load* from
// the sandbox filesystem. The library keeps whether env or strenv was
// written, and which load, in fields it does not export, so the source
// text tells them apart.
func (y *yq) resolve(node *yqlib.ExpressionNode, src string) error {
	if node == nil {
		return nil
	}
	if err := y.resolve(node.LHS, src); err != nil {
		return err
	}
	if err := y.resolve(node.RHS, src); err != nil {
		return err
	}
	op := node.Operation
	if op == nil || op.OperationType == nil {
		return nil
	}
	switch op.OperationType.Type {
	case "ENV":
		if y.o.noEnv {
			return nil
		}
		return y.resolveEnv(node, src)
	case "LOAD", "LOAD_STRING":
		if y.o.noFile {
			return nil
		}
		return y.resolveLoad(node, src)
	}
	return nil
}

func (y *yq) resolveEnv(node *yqlib.ExpressionNode, src string) error {
	name := node.Operation.StringValue
	str := false
	for _, m := range strenvRe().FindAllStringSubmatch(src, -1) {
		str = str || m[1] == name
	}
	for _, m := range envRe().FindAllStringSubmatch(src, -1) {
		if m[2] == name {
			str = false
		}
	}
	value := y.c.Getenv(name)
	if str {
		setConst(node, &yqlib.CandidateNode{Kind: yqlib.ScalarNode, Tag: "!!str", Value: value})
		return nil
	}
	if value == "" {
		return fmt.Errorf("value for env variable '%v' not provided in env()", name)
	}
	d := yqlib.NewYamlDecoder(yqlib.ConfiguredYamlPreferences)
	if err := d.Init(strings.NewReader(value)); err != nil {
		return err
	}
	cn, err := d.Decode()
	if err != nil {
		return err
	}
	setConst(node, cn)
	return nil
}

func (y *yq) resolveLoad(node *yqlib.ExpressionNode, src string) error {
	name, ok := literal(node.RHS)
	if !ok {
		return errors.New("load: the sandbox loads files named by a literal string or an env variable only")
	}
	kind := "load"
	if node.Operation.OperationType.Type == "LOAD_STRING" {
		kind = "str"
	} else {
		for _, m := range loadRe().FindAllStringSubmatch(src, -1) {
			if m[2] == name && !strings.Contains(m[1], "str") {
				kind = m[1]
			}
		}
	}
	data, err := y.readFile(name)
	if err != nil {
		return fmt.Errorf("failed to load %v: %w", name, err)
	}
	var cn *yqlib.CandidateNode
	switch {
	case kind == "str":
		cn = &yqlib.CandidateNode{Kind: yqlib.ScalarNode, Tag: "!!str", Value: string(data)}
	default:
		cn, err = decodeAll(data, name, loadDecoder(kind, y.o))
		if err != nil {
			return fmt.Errorf("failed to load %v: %w", name, err)
		}
	}
	setConst(node, cn)
	return nil
}

// loadDecoder is the decoder the library's load operators use.
func loadDecoder(kind string, o *opts) yqlib.Decoder {
	switch {
	case strings.Contains(kind, "xml"):
		return yqlib.NewXMLDecoder(o.xml)
	case strings.Contains(kind, "base64"):
		return yqlib.NewBase64Decoder()
	case strings.Contains(kind, "props"):
		return yqlib.NewPropertiesDecoder()
	}
	return yqlib.NewYamlDecoder(yqlib.LoadYamlPreferences)
}

// decodeAll is load's result: null for no document, the document for
// one, a sequence of them for several.
func decodeAll(data []byte, name string, d yqlib.Decoder) (*yqlib.CandidateNode, error) {
	docs, err := yqlib.ReadDocuments(bytes.NewReader(data), d)
	if err != nil {
		msg, _ := strings.CutPrefix(err.Error(), "bad file '': ")
		return nil, fmt.Errorf("bad file '%v': %s", name, msg)
	}
	switch docs.Len() {
	case 0:
		return &yqlib.CandidateNode{Kind: yqlib.ScalarNode, Tag: "!!null"}, nil
	case 1:
		return docs.Front().Value.(*yqlib.CandidateNode), nil
	}
	seq := &yqlib.CandidateNode{Kind: yqlib.SequenceNode, Tag: "!!seq"}
	for e := docs.Front(); e != nil; e = e.Next() {
		seq.AddChild(e.Value.(*yqlib.CandidateNode))
	}
	return seq, nil
}

// literal is the value of a constant expression: a string without
// interpolation, or a constant put there by resolve.
func literal(n *yqlib.ExpressionNode) (string, bool) {
	if n == nil || n.Operation == nil || n.Operation.OperationType == nil {
		return "", false
	}
	op := n.Operation
	switch {
	case op.OperationType == valueOp.OperationType && op.CandidateNode != nil:
		return op.CandidateNode.Value, true
	case op.OperationType.Type == "STRING_INT" && !strings.Contains(op.StringValue, `\(`):
		return op.StringValue, true
	}
	return "", false
}

// setConst turns node into the constant cn.
func setConst(node *yqlib.ExpressionNode, cn *yqlib.CandidateNode) {
	node.Operation = &yqlib.Operation{OperationType: valueOp.OperationType, Value: cn.Value, StringValue: cn.Value, CandidateNode: cn}
	node.LHS, node.RHS = nil, nil
}
