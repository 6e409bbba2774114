package interp

import "strings"

// flagSet holds the single-letter options a builtin was given, each
// with the place it last appeared (0: absent), for options where the last
// one given wins (cd -L/-P, unset -f/-v/-n).
type flagSet [128]uint16

func (fl *flagSet) has(c byte) bool { return fl[c] != 0 }

// last returns whichever of letters was given last, or 0.
func (fl *flagSet) last(letters string) byte {
	var best byte
	for i := 0; i < len(letters); i++ {
		if c := letters[i]; fl[c] > fl[best] {
			best = c
		}
	}
	return best
}

// parseFlags parses a builtin's leading options that take no argument,
// as bash's builtins do: words starting with '-' up to "--" or the first
// operand (a lone "-" is an operand), several letters to a word. A letter
// outside letters is reported as bash does ("NAME: -c: invalid option"
// and the builtin's usage line); ok is then false and the status is 2.
func (f *frame) parseFlags(args []string, name, letters, usage string) (set flagSet, rest []string, ok bool) {
	var n uint16
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			if c >= 128 || !strings.ContainsRune(letters, c) {
				f.errorf("%s: -%c: invalid option", name, c)
				f.fds.writeString(2, usage)
				return set, nil, false
			}
			n++
			set[c] = n
		}
		args = args[1:]
	}
	return set, args, true
}
