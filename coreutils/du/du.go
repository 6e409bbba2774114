// Package du implements GNU du over the sandbox filesystem.
//
// The guest filesystem keeps no block counts, so disk usage is computed
// as GNU du would see it on ext4 with 4 KiB blocks: ceil(size/4096) blocks
// per regular file, one block per directory, none for short symlinks
// (see package meta). Directories are walked in their native order, as
// GNU du's fts does.
package du

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/files/human"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: '0', Long: "null"},
	{Short: 'a', Long: "all"},
	{Long: "apparent-size"},
	{Short: 'B', Long: "block-size", Arg: builtins.RequiredArg},
	{Short: 'b', Long: "bytes"},
	{Short: 'c', Long: "total"},
	{Short: 'D', Long: "dereference-args"},
	{Short: 'd', Long: "max-depth", Arg: builtins.RequiredArg},
	{Long: "files0-from", Arg: builtins.RequiredArg},
	{Short: 'H'},
	{Short: 'h', Long: "human-readable"},
	{Long: "inodes"},
	{Short: 'k'},
	{Short: 'L', Long: "dereference"},
	{Short: 'l', Long: "count-links"},
	{Short: 'm'},
	{Short: 'P', Long: "no-dereference"},
	{Short: 'S', Long: "separate-dirs"},
	{Long: "si"},
	{Short: 's', Long: "summarize"},
	{Short: 't', Long: "threshold", Arg: builtins.RequiredArg},
	{Long: "time", Arg: builtins.OptionalArg},
	{Long: "time-style", Arg: builtins.RequiredArg},
	{Short: 'X', Long: "exclude-from", Arg: builtins.RequiredArg},
	{Long: "exclude", Arg: builtins.RequiredArg},
	{Short: 'x', Long: "one-file-system"},
	{Long: "help"},
	{Long: "version"},
}}

type derefMode int

const (
	derefNone derefMode = iota
	derefArgs
	derefAll
)

type duer struct {
	ctx        context.Context
	c          *builtins.Call
	out        *bufio.Writer
	q          quote.Quoter
	all        bool
	apparent   bool
	inodes     bool
	separate   bool
	countLinks bool
	oneFS      bool
	deref      derefMode
	maxDepth   int // -1: unlimited
	threshold  int64
	format     human.Format
	showTime   bool
	timeKind   string
	timeFmt    string
	loc        *time.Location
	excludes   []string
	eol        byte
	visited    map[string]bool
	failed     bool
	broken     bool
}

// node is what a walk returns for one file or tree.
type node struct {
	size uint64
	t    time.Time
}

// The --time words, and the time styles with their formats.
var (
	timeChoices = []argmatch.Choice{
		{Names: []string{"atime", "access", "use"}, Value: 0},
		{Names: []string{"ctime", "status"}, Value: 1},
	}
	timeKinds        = []string{"atime", "ctime"}
	timeStyleChoices = []argmatch.Choice{
		{Names: []string{"full-iso"}, Value: 0},
		{Names: []string{"long-iso"}, Value: 1},
		{Names: []string{"iso"}, Value: 2},
	}
	timeStyleFormats = []string{"%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M", "%Y-%m-%d"}
)

// Run is the du command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	q := quote.New(c)
	d := &duer{ctx: ctx, c: c, q: q, out: bufio.NewWriterSize(c.Stdout, 64<<10), maxDepth: -1, eol: '\n', visited: map[string]bool{}}
	d.format = human.FromEnv(c.LookupEnv, human.Bytes1K, "DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE")
	summarize, total := false, false
	files0 := ""
	hasFiles0 := false
	timeStyle, timeStyleSet := "", false
	for _, o := range opts {
		if st, done := utilcmd.HelpVersion(c, o, help); done {
			return st
		}
		switch o.Key {
		case "null":
			d.eol = 0
		case "all":
			d.all = true
		case "apparent-size":
			d.apparent = true
		case "block-size":
			f, err := human.ParseBlockSize(o.Value)
			if err != nil {
				name := human.OptionName(c.Args[1:], o.Value, "--block-size", "-B")
				c.Errorf("%s", human.ArgError(err, name, o.Value, q.AF))
				return 1
			}
			d.format = f
		case "bytes":
			d.apparent = true
			d.format = human.Format{Base: 1024, BlockSize: 1}
		case "total":
			total = true
		case "dereference-args", "H":
			d.deref = derefArgs
		case "max-depth":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				c.Errorf("invalid maximum depth %s", q.Q(o.Value))
				c.TryHelp(0)
				return 1
			}
			d.maxDepth = n
		case "files0-from":
			files0, hasFiles0 = o.Value, true
		case "human-readable":
			d.format = human.HumanReadable
		case "inodes":
			d.inodes = true
		case "k":
			d.format = human.Bytes1K
		case "dereference":
			d.deref = derefAll
		case "count-links":
			d.countLinks = true
		case "m":
			d.format = human.Format{Base: 1024, BlockSize: 1 << 20}
		case "no-dereference":
			d.deref = derefNone
		case "separate-dirs":
			d.separate = true
		case "si":
			d.format = human.SI
		case "summarize":
			summarize = true
		case "threshold":
			v := o.Value
			neg := strings.HasPrefix(v, "-")
			n, _, _, err := human.ParseSize(strings.TrimPrefix(v, "-"), "")
			if err == nil && neg && n == 0 {
				err = human.ErrInvalid
			}
			if err != nil {
				name := human.OptionName(c.Args[1:], o.Value, "--threshold", "-t")
				c.Errorf("%s", human.ArgError(err, name, v, q.AF))
				return 1
			}
			d.threshold = int64(n)
			if neg {
				d.threshold = -d.threshold
			}
		case "time":
			d.showTime = true
			d.timeKind = "mtime"
			if o.Has {
				v, ok := argmatch.Get(c, o.Value, "--time", timeChoices, 1)
				if !ok {
					return 1
				}
				d.timeKind = timeKinds[v]
			}
		case "time-style":
			timeStyle, timeStyleSet = o.Value, true
		case "exclude-from":
			data, err := textio.ReadAll(ctx, c, o.Value)
			if err != nil {
				c.Errorf("%s: %s", q.AF(o.Value), builtins.ErrText(err))
				return 1
			}
			for _, line := range strings.Split(string(data), "\n") {
				if line != "" {
					d.excludes = append(d.excludes, line)
				}
			}
		case "exclude":
			d.excludes = append(d.excludes, o.Value)
		case "one-file-system":
			d.oneFS = true
		}
	}
	if summarize {
		if d.maxDepth > 0 {
			c.Errorf("warning: summarizing conflicts with --max-depth=%d", d.maxDepth)
			c.TryHelp(0)
			return 1
		}
		d.maxDepth = 0
	}
	if d.inodes {
		d.apparent = false
		if d.format.BlockSize != 1 || d.format.Suffix != "" {
			if !d.format.Auto {
				d.format = human.Format{Base: 1024, BlockSize: 1}
			}
		}
	}
	if d.showTime {
		if !timeStyleSet {
			if v, ok := c.LookupEnv("TIME_STYLE"); ok {
				timeStyle = v
			} else {
				timeStyle = "long-iso"
			}
		}
		for strings.HasPrefix(timeStyle, "posix-") {
			timeStyle = timeStyle[len("posix-"):]
		}
		if strings.HasPrefix(timeStyle, "+") {
			d.timeFmt, _, _ = strings.Cut(timeStyle[1:], "\n")
		} else {
			v, ok := argmatch.Get(c, timeStyle, "time style", timeStyleChoices, 1)
			if !ok {
				return 1
			}
			d.timeFmt = timeStyleFormats[v]
		}
		d.loc = timefmt.Location(c.LookupEnv)
	}
	if hasFiles0 {
		if len(operands) > 0 {
			c.Errorf("extra operand %s", q.Q(operands[0]))
			fmt.Fprintf(c.Stderr, "file operands cannot be combined with --files0-from\n")
			c.TryHelp(0)
			return 1
		}
		data, err := textio.ReadAll(ctx, c, files0)
		if err != nil {
			c.Errorf("cannot open %s for reading: %s", q.AF(files0), builtins.ErrText(err))
			return 1
		}
		// Names stay in place, empty ones too: GNU du reports each bad
		// name where it stands, between the sizes of the others.
		operands = textio.Files0(data)
		if len(operands) == 0 {
			return d.finish()
		}
	} else if len(operands) == 0 {
		operands = []string{"."}
	}
	var grand uint64
	var grandTime time.Time
	for i, op := range operands {
		if ctx.Err() != nil || d.broken {
			break
		}
		if hasFiles0 && (op == "" || op == "-" && files0 == "-") {
			d.out.Flush()
			if op == "" {
				c.Errorf("%s:%d: invalid zero-length file name", q.F(files0), i+1)
			} else {
				c.Errorf("when reading file names from stdin, no file name of %s allowed", q.AF("-"))
			}
			d.failed = true
			continue
		}
		n, ok := d.operand(op)
		if ok {
			grand += n.size
			if n.t.After(grandTime) {
				grandTime = n.t
			}
		}
	}
	if total && !d.broken {
		d.print(node{grand, grandTime}, "total")
	}
	return d.finish()
}

func (d *duer) finish() int {
	if err := d.out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		return 141
	}
	if d.broken {
		return 141
	}
	if d.failed {
		return 1
	}
	return 0
}

// rootName collapses trailing slashes as fts does.
func rootName(op string) string {
	for len(op) > 1 && strings.HasSuffix(op, "//") {
		op = op[:len(op)-1]
	}
	return op
}

func childName(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

func (d *duer) operand(op string) (node, bool) {
	var fi fs.FileInfo
	var err error
	if d.deref != derefNone {
		fi, err = d.c.Stat(op)
	} else {
		fi, err = d.c.Lstat(op)
	}
	if err != nil {
		d.c.Errorf("cannot access %s: %s", d.q.AF(op), builtins.ErrText(err))
		d.failed = true
		return node{}, false
	}
	name := rootName(op)
	abs := d.c.Abs(op)
	phys := meta.Physical(d.c, abs)
	if d.deref != derefNone {
		if r, ok := d.c.FS.(meta.Resolver); ok {
			if p, err := r.Resolve(abs, true); err == nil {
				phys = p
			}
		}
	}
	mount := ""
	if d.oneFS {
		mount = meta.MountPoint(d.c, phys)
	}
	return d.walk(name, phys, fi, 0, mount)
}

// walk measures one file or tree: name is shown, phys identifies it.
func (d *duer) walk(name, phys string, fi fs.FileInfo, depth int, mount string) (node, bool) {
	if d.excluded(name) {
		return node{}, false
	}
	if (fi.IsDir() || !d.countLinks) && d.visited[phys] {
		return node{}, false
	}
	d.visited[phys] = true
	own := d.sizeOf(fi)
	n := node{size: own, t: d.timeOf(fi)}
	if fi.IsDir() {
		entries, err := d.c.ReadDir(name)
		if err != nil {
			d.c.Errorf("cannot read directory %s: %s", d.q.AF(name), builtins.ErrText(err))
			d.failed = true
		}
		for i, e := range entries {
			if i&255 == 255 && d.ctx.Err() != nil {
				return n, true
			}
			if d.broken {
				return n, true
			}
			child := childName(name, e.Name())
			cphys := childName(phys, e.Name())
			cfi := e
			if d.deref == derefAll && e.Mode()&fs.ModeSymlink != 0 {
				st, err := d.c.Stat(child)
				if err != nil {
					d.c.Errorf("cannot access %s: %s", d.q.AF(child), builtins.ErrText(err))
					d.failed = true
					continue
				}
				cfi = st
				if r, ok := d.c.FS.(meta.Resolver); ok {
					if p, err := r.Resolve(d.c.Abs(child), true); err == nil {
						cphys = p
					}
				}
			}
			if d.oneFS && cfi.IsDir() && meta.MountPoint(d.c, cphys) != mount {
				continue
			}
			cn, ok := d.walk(child, cphys, cfi, depth+1, mount)
			if !ok {
				continue
			}
			if cn.t.After(n.t) {
				n.t = cn.t
			}
			if d.separate && cfi.IsDir() {
				continue
			}
			n.size += cn.size
		}
		if d.maxDepth < 0 || depth <= d.maxDepth {
			d.print(n, name)
		}
		return n, true
	}
	if depth == 0 || d.all && (d.maxDepth < 0 || depth <= d.maxDepth) {
		d.print(n, name)
	}
	return n, true
}

func (d *duer) sizeOf(fi fs.FileInfo) uint64 {
	switch {
	case d.inodes:
		return 1
	case d.apparent:
		if fi.Mode().IsRegular() || fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
			return uint64(meta.Size(fi))
		}
		return 0
	}
	return uint64(meta.Blocks(fi)) * 512
}

func (d *duer) timeOf(fi fs.FileInfo) time.Time {
	switch d.timeKind {
	case "atime":
		return meta.Atime(fi)
	case "ctime":
		return meta.Ctime(fi)
	}
	return fi.ModTime()
}

// excluded matches name against the --exclude patterns: the whole path or
// any part of it after a '/'.
func (d *duer) excluded(name string) bool {
	for _, p := range d.excludes {
		if glob.Match(p, name, 0) {
			return true
		}
		for i := 0; i < len(name); i++ {
			if name[i] == '/' && i+1 < len(name) && name[i+1] != '/' && glob.Match(p, name[i+1:], 0) {
				return true
			}
		}
	}
	return false
}

func (d *duer) print(n node, name string) {
	if d.threshold > 0 && int64(n.size) < d.threshold || d.threshold < 0 && int64(n.size) > -d.threshold {
		if name != "total" {
			return
		}
	}
	var s string
	if d.inodes && !d.format.Auto {
		s = human.Format{Base: 1024, BlockSize: 1}.Show(n.size, 1)
	} else {
		s = d.format.Show(n.size, 1)
	}
	d.out.WriteString(s)
	d.out.WriteByte('\t')
	if d.showTime {
		d.out.WriteString(timefmt.Strftime(n.t.In(d.loc), d.timeFmt))
		d.out.WriteByte('\t')
	}
	d.out.WriteString(name)
	if err := d.out.WriteByte(d.eol); err != nil && builtins.IsBrokenPipe(err) {
		d.broken = true
	}
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, `Usage: %s [OPTION]... [FILE]...
  or:  %s [OPTION]... --files0-from=F
Summarize device usage of the set of FILEs, recursively for directories.

Mandatory arguments to long options are mandatory for short options too.
  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -D, --dereference-args  dereference only symlinks listed on the command line
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the argument
      --files0-from=F   summarize the NUL-terminated file names in file F
  -H                    equivalent to --dereference-args (-D)
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --inodes          list inode usage information instead of block usage
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
      --si              like -h, but use powers of 1000 not 1024
  -s, --summarize       display only a total for each argument
  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,
                          or entries greater than SIZE if negative
      --time            show time of the last modification of any file in the
                          directory, or any of its subdirectories
      --time=WORD       show time as WORD instead of modification time:
                          atime, access, use, ctime or status
      --time-style=STYLE  show times using STYLE: full-iso, long-iso, iso,
                          or +FORMAT
  -X, --exclude-from=FILE  exclude files that match any pattern in FILE
      --exclude=PATTERN    exclude files that match PATTERN
  -x, --one-file-system    skip directories on different file systems
      --help        display this help and exit
      --version     output version information and exit

Disk usage is what ext4 with 4 KiB blocks would allocate: whole blocks per
file and one block per directory. Display values are in units of 1024
bytes unless --block-size, DU_BLOCK_SIZE, BLOCK_SIZE or BLOCKSIZE say
otherwise.
`, c.Name(), c.Name())
}
