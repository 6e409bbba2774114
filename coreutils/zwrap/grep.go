package zwrap

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// Grep returns the command of family f's grep wrapper; dialect is "",
// "-E" or "-F" (zegrep, zfgrep).
func (f *Family) Grep(dialect string) builtins.Command {
	return func(ctx context.Context, c *builtins.Call) int {
		args := c.Args[1:]
		if dialect != "" {
			args = append([]string{dialect}, args...)
		}
		name := c.Name()
		if f == Gzip && dialect != "" {
			// zegrep and zfgrep exec zgrep, which names itself.
			name = "zgrep"
		}
		if f == Bzip2 {
			return f.bzgrep(ctx, c, f.self(name), dialect)
		}
		return f.grep(ctx, c, f.self(name), args)
	}
}

// grepCmd is one grep wrapper run: its parsed command line.
type grepCmd struct {
	f                              *Family
	self                           string
	args                           []string // options passed to grep
	withName, noName, list, unlist bool
}

// argShort are grep's short options that take an argument.
const argShort = "ABCDXdefm"

func (f *Family) grep(ctx context.Context, c *builtins.Call, self string, in []string) int {
	g := grepCmd{f: f, self: self}
	var operands []string
	havePat := false
	_, posix := c.LookupEnv("POSIXLY_CORRECT")
	for len(in) > 0 {
		opt := in[0]
		in = in[1:]
		optarg, hasArg := "", false
		switch {
		case len(opt) > 2 && opt[0] == '-' && strings.IndexByte("0123456789EFGHIKLPRTUVZabchilnoqrsuvwxyz", opt[1]) >= 0 && strings.Trim(opt[2:], "0123456789") != "":
			// A group like -in: split off the first option (with
			// its digits, as in -5) and put the rest back.
			i := 2
			for i < len(opt) && opt[i] >= '0' && opt[i] <= '9' {
				i++
			}
			in = append([]string{"-" + opt[i:]}, in...)
			opt = opt[:i]
		case strings.HasPrefix(opt, "--binary-") && strings.Contains(opt, "=") || hasLongPrefix(opt, "--la", "--ma", "--reg") && strings.Contains(opt, "="):
		case len(opt) == 2 && opt[0] == '-' && strings.IndexByte(argShort, opt[1]) >= 0 || strings.HasPrefix(opt, "--binary-") || opt == "--file" || hasLongPrefix(opt, "--la", "--ma", "--reg"):
			if len(in) == 0 {
				fmt.Fprintf(c.Stderr, "%s: %s option requires an argument\n", g.self, opt)
				return 2
			}
			optarg, hasArg = in[0], true
			in = in[1:]
		case strings.HasPrefix(opt, "-f") && len(opt) > 2:
			optarg, hasArg, opt = opt[2:], true, "-f"
		case strings.HasPrefix(opt, "--file="):
			optarg, hasArg, opt = opt[7:], true, "--file"
		case opt == "--":
			operands = append(operands, in...)
			in = nil
			continue
		case len(opt) > 1 && opt[0] == '-':
		default:
			operands = append(operands, opt)
			if posix {
				operands = append(operands, in...)
				in = nil
			}
			continue
		}
		switch {
		case len(opt) == 2 && strings.IndexByte("drRzZ", opt[1]) >= 0 && opt[0] == '-' || hasLongPrefix(opt, "--di", "--exc", "--inc", "--rec", "--nu"):
			fmt.Fprintf(c.Stderr, "%s: %s: option not supported\n", g.self, opt)
			return 2
		case strings.HasPrefix(opt, "-e") || hasLongPrefix(opt, "--reg"):
			havePat = true
		case opt == "-f" || opt == "--file":
			havePat = true
			if optarg == "-" || optarg == "/dev/stdin" || optarg == "/dev/fd/0" {
				// Standard input carries the data: read the patterns
				// now, as the script copies them to a file.
				b, err := io.ReadAll(c.Stdin)
				if err != nil {
					return 2
				}
				c = c.Sub(c.Args)
				c.Stdin = strings.NewReader("")
				if len(b) > 0 {
					opt, optarg = "-e", strings.TrimSuffix(string(b), "\n")
				} else {
					optarg = "/dev/null"
				}
			}
		case opt == "--help" || opt == "--h" || opt == "--he" || opt == "--hel":
			fmt.Fprintf(c.Stdout, "%s\n", g.usage())
			return 0
		case opt == "-H" || hasLongPrefix(opt, "--wi") && strings.HasPrefix("--with-filename", opt):
			g.withName = true
			continue
		case opt == "-l" || strings.HasPrefix(opt, "--files-with-") && !strings.HasPrefix(opt, "--files-witho"):
			g.list = true
		case opt == "-L" || strings.HasPrefix(opt, "--files-witho"):
			g.unlist = true
		case opt == "-h" || strings.HasPrefix(opt, "--no-f"):
			g.noName = true
		case opt == "-V" || len(opt) >= 3 && strings.HasPrefix("--version", opt):
			fmt.Fprintf(c.Stdout, "%s %s\n", c.Name(), g.f.version)
			return 0
		}
		g.args = append(g.args, opt)
		if hasArg {
			g.args = append(g.args, optarg)
		}
	}
	if !havePat {
		if len(operands) == 0 {
			fmt.Fprintf(c.Stderr, "%s: missing pattern; try `%s --help' for help\n", g.self, g.self)
			return 2
		}
		g.args = append(g.args, "--", operands[0])
		operands = operands[1:]
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	} else if len(operands) > 1 && !g.noName {
		g.withName = true
	}
	res := 1
	for _, name := range operands {
		r := g.file(ctx, c, name)
		// The greatest status wins, except that 0 beats 1.
		if r <= 1 && res <= 1 {
			res = min(res, r)
		} else {
			res = max(res, r)
		}
		if res >= 126 || ctx.Err() != nil {
			break
		}
	}
	return res
}

func hasLongPrefix(opt string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(opt, p) {
			return true
		}
	}
	return false
}

// file greps one operand's uncompressed contents.
func (g *grepCmd) file(ctx context.Context, c *builtins.Call, name string) int {
	argv := []string{"grep"}
	if g.withName {
		argv = append(argv, "-H")
	}
	if name != "-" && !g.list && !g.unlist {
		argv = append(argv, "--label", name)
	}
	argv = append(argv, g.args...)
	r, d := g.f.piped(ctx, c, name, func(r io.Reader) int {
		sub := c.Sub(argv)
		sub.Stdin = r
		if g.list || g.unlist {
			sub.Stdout = io.Discard
		}
		return c.Exec(ctx, sub)
	})
	switch {
	case g.list && r == 0, g.unlist && r == 1:
		fmt.Fprintf(c.Stdout, "%s\n", name)
	}
	switch d {
	case 2:
		d = 0
	case 1:
		d = 2
	}
	return max(r, d)
}

func (g *grepCmd) usage() string {
	return "Usage: " + g.self + ` [OPTION]... [-e] PATTERN [FILE]...
Look for instances of PATTERN in the input FILEs, using their
uncompressed contents if they are compressed.

OPTIONs are the same as for 'grep', except that the following 'grep'
options are not supported: --dereference-recursive (-R), --directories (-d),
--exclude, --exclude-from, --exclude-dir, --include, --null (-Z),
--null-data (-z), and --recursive (-r).

Report bugs to <` + g.f.bugs + ">."
}
