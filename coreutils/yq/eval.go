package yq

import (
	"bytes"
	"container/list"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/mikefarah/yq/v4/pkg/yqlib"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// evalEach runs the expression on every document of every file in turn
// (yq eval).
func (y *yq) evalEach(printer yqlib.Printer, node *yqlib.ExpressionNode, decoder yqlib.Decoder) error {
	ev := yqlib.NewStreamEvaluator()
	var total uint
	for i, name := range y.files {
		data, err := y.input(name, i, printer)
		if err != nil {
			return err
		}
		// The parse reads as it goes: through a reader that ends with the
		// call, a parse of megabytes stops with it.
		n, err := ev.Evaluate(name, textio.Cancellable(y.ctx, bytes.NewReader(data)), node, printer, decoder)
		total += n
		if err != nil {
			return err
		}
	}
	if total == 0 {
		return y.evaluate(printer, node, nullDoc())
	}
	return nil
}

// evalAll loads every document of every file and runs the expression once
// over them all (yq eval-all).
func (y *yq) evalAll(printer yqlib.Printer, node *yqlib.ExpressionNode, decoder yqlib.Decoder) error {
	all := list.New()
	for i, name := range y.files {
		data, err := y.input(name, i, printer)
		if err != nil {
			return err
		}
		docs, err := yqlib.ReadDocuments(textio.Cancellable(y.ctx, bytes.NewReader(data)), decoder)
		if err != nil {
			// ReadDocuments does not know the file's name.
			msg, _ := strings.CutPrefix(err.Error(), "bad file '': ")
			return fmt.Errorf("bad file '%v': %s", name, msg)
		}
		for e := docs.Front(); e != nil; e = e.Next() {
			n := e.Value.(*yqlib.CandidateNode)
			n.SetFilename(name)
			n.SetFileIndex(i)
		}
		all.PushBackList(docs)
	}
	if all.Len() == 0 {
		all = nullDoc()
	}
	return y.evaluate(printer, node, all)
}

func (y *yq) evaluate(printer yqlib.Printer, node *yqlib.ExpressionNode, docs *list.List) error {
	res, err := yqlib.NewDataTreeNavigator().GetMatchingNodes(yqlib.Context{MatchingNodes: docs}, node)
	if err != nil {
		return err
	}
	return printer.PrintResults(res.MatchingNodes)
}

// input reads one input whole through the sandbox, its size charged to
// the memory budget. With --front-matter the first file gives only its
// YAML header; with process, the rest follows the results unchanged.
func (y *yq) input(name string, index int, printer yqlib.Printer) ([]byte, error) {
	data, err := y.readFile(name)
	if err == nil {
		err = y.ctx.Err() // the input ended because the call did
	}
	if err != nil || index != 0 || y.o.frontMatter == "" {
		return data, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	head, rest := splitFrontMatter(data)
	if y.o.frontMatter == "process" {
		printer.SetAppendix(bytes.NewReader(rest))
	}
	return head, nil
}

// splitFrontMatter cuts data before the first line after the first that
// starts with "---", as yq does.
func splitFrontMatter(data []byte) (head, rest []byte) {
	off := 0
	for line := 0; off < len(data); line++ {
		if line > 0 && bytes.HasPrefix(data[off:], []byte("---")) {
			break
		}
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			off = len(data)
			break
		}
		off += nl + 1
	}
	return data[:off], data[off:]
}

// readFile reads a file, or standard input for "-", through the sandbox.
func (y *yq) readFile(name string) ([]byte, error) {
	data, err := textio.ReadAll(y.ctx, y.c, name)
	if err != nil && name != "-" {
		return nil, goPathError(err, name)
	}
	return data, err
}

// goPathError words a file error as Go's os package does, which is what
// yq prints: "open x.yaml: no such file or directory".
func goPathError(err error, name string) error {
	if errors.Is(err, builtins.ErrMemory) {
		return err
	}
	op := "open"
	var pe *fs.PathError
	if errors.As(err, &pe) {
		op = pe.Op
	}
	text := builtins.ErrText(err)
	return fmt.Errorf("%s %s: %s", op, name, strings.ToLower(text[:1])+text[1:])
}

// writeBack replaces the first file's content with the output (-i),
// keeping its mode.
func (y *yq) writeBack(out []byte) error {
	name := y.files[0]
	fi, err := y.c.Stat(name)
	if err != nil {
		return goPathError(err, name)
	}
	f, err := y.c.OpenFile(name, os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return goPathError(err, name)
	}
	if _, err := f.Write(out); err != nil {
		f.Close()
		return goPathError(err, name)
	}
	if err := f.Close(); err != nil {
		return goPathError(err, name)
	}
	return nil
}
