// Package df implements GNU df for the sandbox's volumes.
//
// The host sizes of the disks behind the volumes are not visible to the
// sandbox, so every volume reports a nominal capacity of 8 GiB (1 Mi
// inodes); "Used" is what the volume's files occupy, measured by walking
// it as du would (ext4-style 4 KiB blocks), and "Avail" is the rest. The
// Filesystem column is "bashbox" for every volume; the type is tmpfs for
// memory (the root, /tmp, $HOME and ephemeral volumes), overlay for
// read-only volumes and bashbox for read-write ones.
package df

import (
	"bufio"
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/human"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "all"},
	{Short: 'B', Long: "block-size", Arg: builtins.RequiredArg},
	{Short: 'h', Long: "human-readable"},
	{Short: 'H', Long: "si"},
	{Short: 'i', Long: "inodes"},
	{Short: 'k'},
	{Short: 'l', Long: "local"},
	{Long: "no-sync"},
	{Long: "output", Arg: builtins.OptionalArg},
	{Short: 'P', Long: "portability"},
	{Long: "sync"},
	{Long: "total"},
	{Short: 't', Long: "type", Arg: builtins.RequiredArg},
	{Short: 'T', Long: "print-type"},
	{Short: 'x', Long: "exclude-type", Arg: builtins.RequiredArg},
	{Short: 'v'},
	{Long: "help"},
	{Long: "version"},
}}

type field int

const (
	fSource field = iota
	fType
	fITotal
	fIUsed
	fIAvail
	fIPcent
	fSize
	fUsed
	fAvail
	fPcent
	fFile
	fTarget
)

var fieldNames = []string{"source", "fstype", "itotal", "iused", "iavail", "ipcent", "size", "used", "avail", "pcent", "file", "target"}

type row struct {
	cells []string
}

// Run is the df command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	q := quote.New(c)
	format := human.FromEnv(c.LookupEnv, human.Bytes1K, "DF_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE")
	inodes, printType, posix, total := false, false, false, false
	var fields []field
	outputMode := false
	var onlyTypes, exclTypes []string
	for _, o := range opts {
		if st, done := utilcmd.HelpVersion(c, o, help); done {
			return st
		}
		switch o.Key {
		case "block-size":
			f, err := human.ParseBlockSize(o.Value)
			if err != nil {
				name := human.OptionName(c.Args[1:], o.Value, "--block-size", "-B")
				c.Errorf("%s", human.ArgError(err, name, o.Value, q.AF))
				return 1
			}
			format = f
		case "human-readable":
			format = human.HumanReadable
		case "si":
			format = human.SI
		case "inodes":
			inodes = true
		case "k":
			format = human.Bytes1K
		case "output":
			if outputMode {
				c.Errorf("option --output: multiple output formats specified")
				c.TryHelp(0)
				return 1
			}
			outputMode = true
			list := o.Value
			if !o.Has {
				list = strings.Join(fieldNames, ",")
			}
			for _, name := range strings.Split(list, ",") {
				found := false
				for i, n := range fieldNames {
					if n == name {
						for _, f := range fields {
							if f == field(i) {
								c.Errorf("option --output: field %s used more than once", q.Q(name))
								c.TryHelp(0)
								return 1
							}
						}
						fields = append(fields, field(i))
						found = true
					}
				}
				if !found {
					c.Errorf("option --output: field %s unknown", q.Q(name))
					c.TryHelp(0)
					return 1
				}
			}
		case "portability":
			posix = true
		case "total":
			total = true
		case "type":
			onlyTypes = append(onlyTypes, o.Value)
		case "print-type":
			printType = true
		case "exclude-type":
			exclTypes = append(exclTypes, o.Value)
		}
	}
	if outputMode && (inodes || printType || posix) {
		c.Errorf("options %s and --output are mutually exclusive", map[bool]string{true: "-i", false: map[bool]string{true: "-T", false: "-P"}[printType]}[inodes])
		c.TryHelp(0)
		return 1
	}
	for _, t := range onlyTypes {
		for _, x := range exclTypes {
			if t == x {
				c.Errorf("file system type %s both selected and excluded", q.Q(t))
				return 1
			}
		}
	}
	if !outputMode {
		fields = []field{fSource}
		if printType {
			fields = append(fields, fType)
		}
		if inodes {
			fields = append(fields, fITotal, fIUsed, fIAvail, fIPcent)
		} else {
			fields = append(fields, fSize, fUsed, fAvail, fPcent)
		}
		fields = append(fields, fTarget)
	}
	if posix && format.Auto {
		// -P keeps -h.
	}

	type item struct {
		st   meta.FSStat
		file string
	}
	var items []item
	status := 0
	if len(operands) == 0 {
		for _, mp := range meta.Mounts(ctx, c) {
			items = append(items, item{meta.FileSystem(ctx, c, mp), "-"})
		}
	} else {
		for _, op := range operands {
			if _, err := c.Stat(op); err != nil {
				c.Errorf("%s: %s", op, builtins.ErrText(err))
				status = 1
				continue
			}
			items = append(items, item{meta.FileSystem(ctx, c, path.Clean(c.Abs(op))), op})
		}
	}
	var rows []row
	var sum meta.FSStat
	for _, it := range items {
		if !typeSelected(it.st.Type, onlyTypes, exclTypes) {
			continue
		}
		rows = append(rows, makeRow(fields, it.st, "bashbox", it.file, it.st.MountPoint, format, inodes))
		sum.Blocks += it.st.Blocks
		sum.Free += it.st.Free
		sum.Avail += it.st.Avail
		sum.Files += it.st.Files
		sum.FilesFree += it.st.FilesFree
	}
	if len(rows) == 0 {
		if len(items) > 0 || len(operands) == 0 {
			c.Errorf("no file systems processed")
		}
		return 1
	}
	if total {
		sum.Type, sum.BlockSize = "-", meta.BlockSize
		rows = append(rows, makeRow(fields, sum, "total", "-", "-", format, inodes))
	}
	header := row{}
	for _, f := range fields {
		header.cells = append(header.cells, headerText(f, format, posix))
	}
	all := append([]row{header}, rows...)
	widths := make([]int, len(fields))
	minWidth := map[field]int{fSource: 14, fType: 4, fITotal: 5, fIUsed: 5, fIAvail: 5, fIPcent: 4, fSize: 5, fUsed: 5, fAvail: 5, fPcent: 4}
	for i, f := range fields {
		widths[i] = minWidth[f]
		for _, r := range all {
			widths[i] = max(widths[i], quote.Width(r.cells[i]))
		}
	}
	out := bufio.NewWriter(c.Stdout)
	for _, r := range all {
		var b strings.Builder
		for i, f := range fields {
			cell := r.cells[i]
			last := i == len(fields)-1
			left := f == fSource || f == fType || f == fFile || f == fTarget
			pad := widths[i] - quote.Width(cell)
			if !left {
				b.WriteString(strings.Repeat(" ", max(pad, 0)))
			}
			b.WriteString(cell)
			if left && !last {
				b.WriteString(strings.Repeat(" ", max(pad, 0)))
			}
			if !last {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
		out.WriteString(b.String())
	}
	if err := out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		return 141
	}
	return status
}

func typeSelected(t string, only, excl []string) bool {
	for _, x := range excl {
		if x == t {
			return false
		}
	}
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == t {
			return true
		}
	}
	return false
}

func pct(used, avail uint64) string {
	if used+avail == 0 {
		return "-"
	}
	p := (used*100 + used + avail - 1) / (used + avail)
	return strconv.FormatUint(p, 10) + "%"
}

func makeRow(fields []field, st meta.FSStat, source, file, target string, format human.Format, inodes bool) row {
	var r row
	used := st.Blocks - st.Free
	iused := st.Files - st.FilesFree
	num := func(n uint64) string { return format.Show(n, st.BlockSize) }
	inum := func(n uint64) string {
		if format.Auto {
			return format.Show(n, 1)
		}
		return strconv.FormatUint(n, 10)
	}
	for _, f := range fields {
		var s string
		switch f {
		case fSource:
			s = source
		case fType:
			s = st.Type
		case fITotal:
			s = inum(st.Files)
		case fIUsed:
			s = inum(iused)
		case fIAvail:
			s = inum(st.FilesFree)
		case fIPcent:
			s = pct(iused, st.FilesFree)
		case fSize:
			s = num(st.Blocks)
		case fUsed:
			s = num(used)
		case fAvail:
			s = num(st.Avail)
		case fPcent:
			s = pct(used, st.Avail)
		case fFile:
			s = file
		case fTarget:
			s = target
		}
		r.cells = append(r.cells, s)
	}
	return r
}

// headerText is a column's title; the size column names the unit.
func headerText(f field, format human.Format, posix bool) string {
	switch f {
	case fSource:
		return "Filesystem"
	case fType:
		return "Type"
	case fITotal:
		return "Inodes"
	case fIUsed:
		return "IUsed"
	case fIAvail:
		return "IFree"
	case fIPcent:
		return "IUse%"
	case fSize:
		switch {
		case format.Auto:
			return "Size"
		case posix:
			return strconv.FormatUint(format.BlockSize, 10) + "-blocks"
		}
		return blockHeader(format) + "-blocks"
	case fUsed:
		return "Used"
	case fAvail:
		if format.Auto {
			return "Avail"
		}
		return "Available"
	case fPcent:
		if posix {
			return "Capacity"
		}
		return "Use%"
	case fFile:
		return "File"
	case fTarget:
		return "Mounted on"
	}
	return ""
}

// blockHeader names the block size as GNU df does: "1K", "1M", "1kB",
// "512B", "1KiB".
func blockHeader(format human.Format) string {
	bs := format.BlockSize
	base1024 := format.Suffix != "" && (!strings.HasSuffix(format.Suffix, "B") || strings.HasSuffix(format.Suffix, "iB"))
	withB := strings.HasSuffix(format.Suffix, "B")
	q1000, q1024 := bs, bs
	var d1000, d1024 bool
	for {
		d1000, d1024 = q1000%1000 == 0, q1024%1024 == 0
		q1000 /= 1000
		q1024 /= 1024
		if !(d1000 && d1024) {
			break
		}
	}
	if !d1000 && d1024 {
		base1024 = true
	}
	if d1000 && !d1024 {
		base1024 = false
	}
	if !base1024 {
		withB = true
	}
	base := uint64(1000)
	if base1024 {
		base = 1024
	}
	letters := "KMGTPEZY"
	n, exp := bs, 0
	for n >= base && n%base == 0 && exp < len(letters) {
		n /= base
		exp++
	}
	var s string
	if n >= base {
		s = human.Format{Auto: true, Base: base}.Show(bs, 1)
		s = strings.Replace(s, ".0", "", 1)
	} else {
		s = strconv.FormatUint(n, 10)
		if exp > 0 {
			l := string(letters[exp-1])
			if !base1024 && l == "K" {
				l = "k"
			}
			s += l
		}
	}
	if withB {
		if base1024 && exp > 0 {
			s += "iB"
		} else {
			s += "B"
		}
	}
	return s
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, `Usage: %s [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all             include pseudo, duplicate, inaccessible file systems
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -l, --local           limit listing to local file systems
      --no-sync         do not invoke sync before getting usage info (default)
      --output[=FIELD_LIST]  use the output format defined by FIELD_LIST,
                               or print all fields if FIELD_LIST is omitted.
  -P, --portability     use the POSIX output format
      --sync            invoke sync before getting usage info
      --total           produce a grand total
  -t, --type=TYPE       limit listing to file systems of type TYPE
  -T, --print-type      print file system type
  -x, --exclude-type=TYPE   limit listing to file systems not of type TYPE
  -v                    (ignored)
      --help        display this help and exit
      --version     output version information and exit

Each volume of the sandbox is one file system with a nominal capacity of
8 GiB; Used is what its files occupy (in 4 KiB blocks), Avail the rest.
FIELD_LIST is a comma-separated list of columns to be included.  Valid
field names are: 'source', 'fstype', 'itotal', 'iused', 'iavail', 'ipcent',
'size', 'used', 'avail', 'pcent', 'file' and 'target'.
`, c.Name())
}
