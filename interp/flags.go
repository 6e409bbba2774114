package interp

import "strings"

// flagSet holds the single-letter options a builtin was given.
type flagSet [128]bool

// parseFlags parses a builtin's leading options that take no argument,
// as bash's builtins do: words starting with '-' up to "--" or the first
// operand (a lone "-" is an operand), several letters to a word. A letter
// outside letters is reported as bash does ("NAME: -c: invalid option"
// and the builtin's usage line); ok is then false and the status is 2.
func (f *frame) parseFlags(args []string, name, letters, usage string) (set flagSet, rest []string, ok bool) {
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
			set[c] = true
		}
		args = args[1:]
	}
	return set, args, true
}
