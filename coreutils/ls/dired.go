package ls

import (
	"bufio"
	"fmt"
	"strconv"
)

// countingWriter is the buffered output, counting bytes for --dired and
// remembering the first write error.
type countingWriter struct {
	w   *bufio.Writer
	pos int64
	err error
}

func (cw *countingWriter) WriteString(s string) (int, error) {
	n, err := cw.w.WriteString(s)
	cw.pos += int64(n)
	if err != nil && cw.err == nil {
		cw.err = err
	}
	return n, err
}

func (cw *countingWriter) WriteByte(b byte) error {
	err := cw.w.WriteByte(b)
	if err == nil {
		cw.pos++
	} else if cw.err == nil {
		cw.err = err
	}
	return err
}

func (cw *countingWriter) Flush() error {
	if err := cw.w.Flush(); err != nil {
		return err
	}
	return cw.err
}

// writeDired ends a --dired listing with the offsets Emacs reads.
func (l *lister) writeDired() {
	line := func(tag string, offs []int64) {
		l.out.WriteString(tag)
		for _, o := range offs {
			l.out.WriteString(" " + strconv.FormatInt(o, 10))
		}
		l.out.WriteByte('\n')
	}
	if len(l.diredNames) > 0 {
		line("//DIRED//", l.diredNames)
	}
	if len(l.diredDirs) > 0 {
		line("//SUBDIRED//", l.diredDirs)
	}
	fmt.Fprintf(l.out.w, "//DIRED-OPTIONS// --quoting-style=%s\n", quotingName(int(l.quoting)))
}
