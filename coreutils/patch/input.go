package patch

import (
	"bytes"
	"io"
	"io/fs"
)

func unixType(m fs.FileMode) uint32 {
	switch {
	case m&typeReg != 0:
		return 0o100000
	case m&typeLink != 0:
		return 0o120000
	}
	return 0
}

// getInputFile checks the file to patch.
func (p *patcher) getInputFile(name, outname string) bool {
	if p.inerrUnknown {
		p.instat, p.inerr = p.statFile(name)
		p.inerrUnknown = false
	}
	if p.inerr != nil {
		p.instat = fileStat{mode: 0o666 | typeReg}
		return true
	}
	if p.instat.mode&typeMask != p.fileType&typeMask || p.instat.other {
		what := "regular file"
		if p.fileType&typeLink != 0 {
			what = "symbolic link"
		}
		p.say("File %s is not a %s -- refusing to patch\n", p.quote(name), what)
		return false
	}
	return true
}

// scanInput reads the file to patch into lines.
func (p *patcher) scanInput(name string) {
	var data []byte
	if p.inerr == nil && p.instat.size > 0 || p.inerr == nil && p.instat.mode&typeLink != 0 {
		if p.instat.mode&typeLink != 0 {
			t, err := p.c.FS.ReadlinkIfPossible(p.c.Abs(name))
			if err != nil {
				p.pfatal(err, "can't read link %s", p.quote(name))
			}
			data = []byte(t)
		} else {
			f, err := p.c.Open(name)
			if err != nil {
				p.pfatal(err, "can't open file %s", p.quote(name))
			}
			data, err = io.ReadAll(f)
			f.Close()
			if err != nil {
				p.pfatal(err, "read error")
			}
		}
	}
	p.input = [][]byte{nil}
	for line := range bytes.Lines(data) {
		p.input = append(p.input, line)
	}
	if p.revision != "" {
		p.reportRevision(p.findRevision())
	}
}

func (p *patcher) findRevision() bool {
	all := bytes.Join(p.input[1:], nil)
	rev := []byte(p.revision)
	for i := 0; i+len(rev) <= len(all); i++ {
		if bytes.HasPrefix(all[i:], rev) && (i == 0 || isSpace(all[i-1])) &&
			(i+len(rev) == len(all) || isSpace(all[i+len(rev)])) {
			return true
		}
	}
	return false
}

func (p *patcher) reportRevision(found bool) {
	rev := p.quote(p.revision)
	switch {
	case found:
		if p.verbosity == verbose {
			p.say("Good.  This file appears to be the %s version.\n", rev)
		}
	case p.force:
		if p.verbosity != silent {
			p.say("Warning: this file doesn't appear to be the %s version -- patching anyway.\n", rev)
		}
	case p.batch:
		p.fatal("This file doesn't appear to be the %s version -- aborting.", rev)
	default:
		p.ask("This file doesn't appear to be the %s version -- patch anyway? [n] ", rev)
		p.fatal("aborted")
	}
}

func (p *patcher) inputLines() int { return len(p.input) - 1 }

// ifetch returns input line n (1-based), empty outside the file.
func (p *patcher) ifetch(n int) []byte {
	if n < 1 || n >= len(p.input) {
		return nil
	}
	return p.input[n]
}
