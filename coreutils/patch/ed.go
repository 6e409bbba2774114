package patch

import (
	"bytes"
	"strconv"
)

// Ed scripts (diff -e output) are applied by a small interpreter of the
// commands patch accepts: a, i, c, d and s/.//, as ed would run them.

type edCommand struct {
	from, to int // line range; to == from for a single address
	hasAddr  bool
	letter   byte
	open     bool // the text was not ended by a "." line
	text     [][]byte
}

// doEdScript reads the ed script at the current position and applies it
// to the input file. It reports whether the patch failed.
func (p *patcher) doEdScript(outname string, _ bool) bool {
	var cmds []edCommand
	for {
		begin := p.ppos
		line := p.getLine()
		if line == nil {
			p.nextIntuitAt(begin, p.inputLine)
			break
		}
		letter := edCommandLetter(line)
		if letter == 0 {
			p.nextIntuitAt(begin, p.inputLine)
			break
		}
		cmd := parseEdAddress(line, letter)
		if letter != 'd' && letter != 's' {
			p.passComments = true
			cmd.open = true
			for {
				t := p.getLine()
				if t == nil {
					break
				}
				if string(t) == ".\n" {
					cmd.open = false
					break
				}
				cmd.text = append(cmd.text, dup(t))
			}
			p.passComments = false
		}
		cmds = append(cmds, cmd)
	}
	p.edResult = nil
	if p.dryRun || p.skipRest {
		return false
	}
	var lines [][]byte
	if p.inerr == nil {
		data, err := p.readAll(p.inname)
		if err != nil {
			p.pfatal(err, "can't open file %s", p.quote(p.inname))
		}
		for len(data) > 0 {
			k := bytes.IndexByte(data, '\n')
			if k < 0 {
				lines = append(lines, append(append([]byte(nil), data...), '\n'))
				break
			}
			lines = append(lines, data[:k+1])
			data = data[k+1:]
		}
	}
	cur := len(lines)
	failed := func() {
		// ed says "?" and stops at the first error in a script.
		p.say("?\n")
		p.fatal("ed FAILED")
	}
	for _, c := range cmds {
		if !c.hasAddr {
			c.from, c.to = cur, cur
		}
		if c.open || c.from < 0 || c.to > len(lines) || c.from > c.to {
			failed()
		}
		switch c.letter {
		case 'a', 'i':
			at := c.to
			if c.letter == 'i' && at > 0 {
				at--
			}
			lines = append(lines[:at], append(append([][]byte{}, c.text...), lines[at:]...)...)
			cur = at + len(c.text)
			if len(c.text) == 0 {
				cur = at
			}
		case 'c', 'd':
			if c.from == 0 {
				failed()
			}
			repl := c.text
			if c.letter == 'd' {
				repl = nil
			}
			lines = append(lines[:c.from-1], append(append([][]byte{}, repl...), lines[c.to:]...)...)
			cur = c.from - 1 + len(repl)
			if c.letter == 'd' && cur < len(lines) {
				cur = c.from
			}
		case 's':
			cur = c.to
			if cur < 1 || cur > len(lines) || len(lines[cur-1]) < 2 {
				failed()
			}
			lines[cur-1] = lines[cur-1][1:]
		}
	}
	p.edResult = bytes.Join(lines, nil)
	p.zeroOutput = len(p.edResult) == 0
	if p.ofile != nil {
		p.ofile.Write(p.edResult)
	}
	return false
}

func parseEdAddress(line []byte, letter byte) edCommand {
	c := edCommand{letter: letter}
	i := 0
	num := func() (int, bool) {
		j := i
		for j < len(line) && isDigit(line[j]) {
			j++
		}
		if j == i {
			return 0, false
		}
		v, _ := strconv.Atoi(string(line[i:j]))
		i = j
		return v, true
	}
	if v, ok := num(); ok {
		c.from, c.to, c.hasAddr = v, v, true
		if at(line, i) == ',' {
			i++
			if w, ok := num(); ok {
				c.to = w
			}
		}
	}
	return c
}
