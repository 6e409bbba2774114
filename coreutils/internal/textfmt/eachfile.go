package textfmt

import (
	"context"
	"io"

	"github.com/bashbox/bashbox/builtins"
)

// EachFile hands each of files in turn to process ("-" is standard input,
// and no files means "-"), until out fails or ctx ends, and ends out. A
// file that does not open gets status 1 and is reported by openFailed, or
// as "NAME: error" when it is nil. process returns the file's status; the
// highest is the result.
func EachFile(ctx context.Context, c *builtins.Call, out *Output, files []string,
	openFailed func(name string, err error), process func(name string, r io.Reader) int) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		if out.Failed() || ctx.Err() != nil {
			break
		}
		r, closeFn, err := Open(c, name)
		if err != nil {
			if openFailed != nil {
				openFailed(name, err)
			} else {
				c.FileError(name, err, 1)
			}
			status = 1
			continue
		}
		status = max(status, process(name, r))
		closeFn()
	}
	return out.End(ctx, c, status)
}
