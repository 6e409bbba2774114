package textfmt

import (
	"context"
	"errors"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// ErrReported, returned by an EachFile callback, means the callback has
// reported the failure itself: the file fails without another message.
var ErrReported = errors.New("reported")

// ErrStop, returned by an EachFile callback, is ErrReported that also ends
// the loop: no later file is read.
var ErrStop = errors.New("stop")

// EachFile is the input loop of the filters that read their operands one
// after another (standard input for none or "-"): it opens each file, runs
// do on it and closes it, until the output fails or ctx ends. A file that
// cannot be opened goes to openFailed (nil: "NAME: TEXT"), an error from do
// is reported as "NAME: TEXT" unless it is ErrReported or ErrStop; either makes the
// status 1. It returns the status for Output.End.
func EachFile(ctx context.Context, c *builtins.Call, out *Output, files []string,
	openFailed func(name string, err error), do func(name string, r io.Reader) error) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	if openFailed == nil {
		openFailed = func(name string, err error) { c.FileError(name, err, 1) }
	}
	status := 0
	for _, name := range files {
		if out.Failed() || ctx.Err() != nil {
			break
		}
		r, err := textio.Open(c, name)
		if err != nil {
			openFailed(name, err)
			status = 1
			continue
		}
		err = do(name, r)
		r.Close()
		if errors.Is(err, ErrStop) {
			return 1
		}
		if err != nil {
			if !errors.Is(err, ErrReported) {
				c.FileError(name, err, 1)
			}
			status = 1
		}
	}
	return status
}
