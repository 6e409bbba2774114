// Package digest implements the checksum commands: md5sum, sha1sum,
// sha224sum, sha256sum, sha384sum, sha512sum, b2sum, cksum and sum, with
// GNU coreutils 9.1's output formats, --check logic and diagnostics.
package digest

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

const bufSize = 64 << 10

// errIsDir is reading a directory.
var errIsDir = errors.New("is a directory")

// run is one invocation's settings and state.
type run struct {
	ctx   context.Context
	c     *builtins.Call
	out   *textfmt.Output
	cksum bool // running as cksum

	algo      Algo
	algoGiven bool   // cksum -a
	bits      int    // digest length in bits (BLAKE2b)
	length    uint64 // -l BITS, 0 when not given

	binary                                    int // -1 unset, 0 text, 1 binary
	tag                                       bool
	delim                                     byte
	check, warn, status, quiet, strict, igMis bool

	b64, raw bool // cksum --base64, --raw (GNU 9.2)

	stdinRead   bool
	bsdReversed int // -1 unknown; 0 GNU format seen; 1 BSD reversed seen
	buf         []byte

	blake2b BLAKE2b // nil for md5sum and the sha*sum commands
}

func (r *run) qf(name string) string { return utilcmd.F(r.c, name) }

func (r *run) usageFail(msg string) int {
	r.c.Errorf("%s", msg)
	return r.c.TryHelp(1)
}

// Main runs a standalone checksum command for algo a: md5sum, sha*sum
// (B2sum runs b2sum).
func Main(ctx context.Context, c *builtins.Call, a Algo) int { return standalone(ctx, c, a, nil) }

// B2sum runs b2sum, whose hashes newBLAKE2b makes.
func B2sum(ctx context.Context, c *builtins.Call, newBLAKE2b BLAKE2b) int {
	return standalone(ctx, c, BLAKE2B, newBLAKE2b)
}

func standalone(ctx context.Context, c *builtins.Call, a Algo, newBLAKE2b BLAKE2b) int {
	r := &run{ctx: ctx, c: c, algo: a, bits: info[a].bits, binary: -1, delim: '\n', bsdReversed: -1, blake2b: newBLAKE2b}
	list := []builtins.Option{
		{Short: 'b', Long: "binary"}, {Short: 'c', Long: "check"}, {Long: "tag"},
		{Short: 't', Long: "text"}, {Short: 'z', Long: "zero"}, {Long: "ignore-missing"},
		{Long: "quiet"}, {Long: "status"}, {Long: "strict"}, {Short: 'w', Long: "warn"},
		{Long: "help"}, {Long: "version"},
	}
	if a == BLAKE2B {
		list = append(list, builtins.Option{Short: 'l', Long: "length", Arg: builtins.RequiredArg})
	}
	opts, files, err := (&builtins.Options{List: list}).Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	lengthArg := ""
	for _, o := range opts {
		if r.checkOption(o.Key) {
			continue
		}
		switch o.Key {
		case "binary":
			r.binary = 1
		case "text":
			r.binary = 0
		case "tag":
			r.tag = true
		case "length":
			if st, ok := r.parseLength(o.Value); !ok {
				return st
			}
			lengthArg = o.Value
		case "help":
			return r.help()
		case "version":
			return c.Version()
		}
	}
	if a == BLAKE2B {
		if st, ok := r.checkLength(lengthArg); !ok {
			return st
		}
	}
	if r.tag && r.binary == 0 {
		return r.usageFail("--tag does not support --text mode")
	}
	if r.delim != '\n' && r.check {
		return r.usageFail("the --zero option is not supported when verifying checksums")
	}
	if r.tag && r.check {
		return r.usageFail("the --tag option is meaningless when verifying checksums")
	}
	if r.binary >= 0 && r.check {
		return r.usageFail("the --binary and --text options are meaningless when verifying checksums")
	}
	if st, bad := r.checkOnly(); bad {
		return st
	}
	if r.binary < 0 {
		r.binary = 0
	}
	return r.operands(files)
}

// Cksum returns cksum, whose BLAKE2b hashes newBLAKE2b makes.
func Cksum(newBLAKE2b BLAKE2b) builtins.Command {
	return func(ctx context.Context, c *builtins.Call) int { return cksum(ctx, c, newBLAKE2b) }
}

func cksum(ctx context.Context, c *builtins.Call, newBLAKE2b BLAKE2b) int {
	r := &run{ctx: ctx, c: c, cksum: true, algo: CRC, bits: 32, binary: 0, delim: '\n', bsdReversed: -1, tag: true, blake2b: newBLAKE2b}
	list := []builtins.Option{
		{Short: 'a', Long: "algorithm", Arg: builtins.RequiredArg}, {Short: 'c', Long: "check"},
		{Short: 'l', Long: "length", Arg: builtins.RequiredArg}, {Long: "tag"}, {Long: "untagged"},
		{Short: 'z', Long: "zero"}, {Long: "ignore-missing"}, {Long: "quiet"}, {Long: "status"},
		{Long: "strict"}, {Short: 'w', Long: "warn"}, {Long: "debug"}, {Long: "base64"}, {Long: "raw"},
		{Short: 'b'}, {Short: 't'},
		{Long: "help"}, {Long: "version"},
	}
	opts, files, err := (&builtins.Options{List: list}).Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	// GNU lists bsd before sysv and accepts exact names only. crc32b
	// (GNU 9.6) is accepted but left out of the list, which stays the one
	// the reference coreutils 9.1 prints.
	var choices []argmatch.Choice
	for _, a := range []Algo{BSD, SYSV, CRC, MD5, SHA1, SHA224, SHA256, SHA384, SHA512, BLAKE2B, SM3} {
		choices = append(choices, argmatch.Choice{Names: []string{info[a].arg}, Value: int(a)})
	}
	accepted := append(choices, argmatch.Choice{Names: []string{info[CRC32B].arg}, Value: int(CRC32B)})
	lengthArg, debug := "", false
	for _, o := range opts {
		if r.checkOption(o.Key) {
			continue
		}
		switch o.Key {
		case "algorithm":
			found := false
			for _, ch := range accepted {
				if ch.Names[0] == o.Value {
					r.algo, r.algoGiven, found = Algo(ch.Value), true, true
				}
			}
			if !found {
				return argmatch.Fail(c, o.Value, "--algorithm", false, choices, 1)
			}
		case "length":
			if st, ok := r.parseLength(o.Value); !ok {
				return st
			}
			lengthArg = o.Value
		case "tag":
			r.tag = true
		case "untagged":
			r.tag = false
		case "debug":
			debug = true
		case "base64":
			r.b64 = true
		case "raw":
			r.raw = true
		case "b", "t":
			return c.TryHelp(1)
		case "help":
			return r.help()
		case "version":
			return c.Version()
		}
	}
	if r.length != 0 && r.algo != BLAKE2B {
		c.Errorf("--length is only supported with --algorithm=blake2b")
		return 1
	}
	r.bits = info[r.algo].bits
	if r.algo == BLAKE2B {
		if st, ok := r.checkLength(lengthArg); !ok {
			return st
		}
	}
	if r.delim != '\n' && r.check {
		return r.usageFail("the --zero option is not supported when verifying checksums")
	}
	if st, bad := r.checkOnly(); bad {
		return st
	}
	if r.check && r.algoGiven && r.algo <= CRC32B {
		if r.algo == CRC32B {
			c.Errorf("--check is not supported with --algorithm={bsd,sysv,crc,crc32b}")
		} else {
			c.Errorf("--check is not supported with --algorithm={bsd,sysv,crc}")
		}
		return 1
	}
	if r.b64 && r.raw {
		return r.usageFail("--base64 and --raw are mutually exclusive")
	}
	if debug && (r.algo == CRC || r.algo == CRC32B) && !r.check {
		c.Errorf("using generic hardware support")
	}
	if r.raw && len(files) > 1 && !r.check {
		c.Errorf("the --raw option is not supported with multiple files")
		return 1
	}
	return r.operands(files)
}

// checkOption takes the options both the *sum commands and cksum have:
// --check, --zero and the verification options, of which the last of
// --quiet, --status and --warn wins.
func (r *run) checkOption(key string) bool {
	switch key {
	case "check":
		r.check = true
	case "zero":
		r.delim = 0
	case "ignore-missing":
		r.igMis = true
	case "quiet":
		r.quiet, r.status, r.warn = true, false, false
	case "status":
		r.status, r.quiet, r.warn = true, false, false
	case "warn":
		r.warn, r.status, r.quiet = true, false, false
	case "strict":
		r.strict = true
	default:
		return false
	}
	return true
}

// parseLength reads -l BITS as b2sum does at option time.
func (r *run) parseLength(s string) (int, bool) {
	q := utilcmd.Q(r.c, s)
	n, why, ok := textfmt.DecToUint(s, 0, math.MaxUint64)
	if !ok {
		r.c.Errorf("invalid length: %s%s", q, why)
		return 1, false
	}
	if n%8 != 0 {
		r.c.Errorf("invalid length: %s", q)
		r.c.Errorf("length is not a multiple of 8")
		return 1, false
	}
	r.length = n
	return 0, true
}

func (r *run) checkLength(s string) (int, bool) {
	r.bits = int(min(r.length, 1024))
	if r.length > 512 {
		r.c.Errorf("invalid length: %s", utilcmd.Q(r.c, s))
		r.c.Errorf("maximum digest length for %s is 512 bits", utilcmd.Q(r.c, "BLAKE2b"))
		return 1, false
	}
	if r.bits == 0 {
		r.bits = 512
	}
	return 0, true
}

// checkOnly rejects the verification options without --check.
func (r *run) checkOnly() (int, bool) {
	if r.check {
		return 0, false
	}
	for _, o := range []struct {
		set  bool
		name string
	}{{r.igMis, "ignore-missing"}, {r.status, "status"}, {r.warn, "warn"}, {r.quiet, "quiet"}, {r.strict, "strict"}} {
		if o.set {
			return r.usageFail(fmt.Sprintf("the --%s option is meaningful only when verifying checksums", o.name)), true
		}
	}
	return 0, false
}

func (r *run) help() int {
	name := r.c.Name()
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s [OPTION]... [FILE]...\n", name)
	if r.cksum {
		b.WriteString("Print or verify checksums.\nBy default use the 32 bit CRC algorithm.\n\n" +
			"With no FILE, or when FILE is -, read standard input.\n\n" +
			"Mandatory arguments to long options are mandatory for short options too.\n" +
			"  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.\n" +
			"      --base64          emit base64-encoded digests, not hexadecimal\n" +
			"  -c, --check           read checksums from the FILEs and check them\n" +
			"  -l, --length=BITS     digest length in bits; must not exceed the max for\n" +
			"                          the blake2 algorithm and must be a multiple of 8\n" +
			"      --raw             emit a raw binary digest, not hexadecimal\n" +
			"      --tag             create a BSD-style checksum (the default)\n" +
			"      --untagged        create a reversed style checksum, without digest type\n" +
			"  -z, --zero            end each output line with NUL, not newline,\n" +
			"                          and disable file name escaping\n")
	} else {
		bitsText := map[Algo]string{MD5: "MD5 (128-bit)", SHA1: "SHA1 (160-bit)", SHA224: "SHA224", SHA256: "SHA256 (256-bit)",
			SHA384: "SHA384 (384-bit)", SHA512: "SHA512 (512-bit)", BLAKE2B: "BLAKE2b (512-bit)"}[r.algo]
		fmt.Fprintf(&b, "Print or check %s checksums.\n\nWith no FILE, or when FILE is -, read standard input.\n", bitsText)
		if r.algo == BLAKE2B {
			b.WriteString("\nMandatory arguments to long options are mandatory for short options too.\n")
		}
		b.WriteString("  -b, --binary          read in binary mode\n" +
			"  -c, --check           read checksums from the FILEs and check them\n")
		if r.algo == BLAKE2B {
			b.WriteString("  -l, --length=BITS     digest length in bits; must not exceed the max for\n" +
				"                          the blake2 algorithm and must be a multiple of 8\n")
		}
		b.WriteString("      --tag             create a BSD-style checksum\n" +
			"  -t, --text            read in text mode (default)\n" +
			"  -z, --zero            end each output line with NUL, not newline,\n" +
			"                          and disable file name escaping\n")
	}
	b.WriteString("\nThe following five options are useful only when verifying checksums:\n" +
		"      --ignore-missing  don't fail or report status for missing files\n" +
		"      --quiet           don't print OK for each successfully verified file\n" +
		"      --status          don't output anything, status code shows success\n" +
		"      --strict          exit non-zero for improperly formatted checksum lines\n" +
		"  -w, --warn            warn about improperly formatted checksum lines\n\n")
	if r.cksum {
		b.WriteString("      --debug           indicate which implementation used\n")
	}
	b.WriteString(utilcmd.Trailer())
	if r.cksum {
		b.WriteString("\nDIGEST determines the digest algorithm and default output format:\n" +
			"  sysv      (equivalent to sum -s)\n  bsd       (equivalent to sum -r)\n" +
			"  crc       (equivalent to cksum)\n  crc32b    (only available through cksum)\n" +
			"  md5       (equivalent to md5sum)\n" +
			"  sha1      (equivalent to sha1sum)\n  sha224    (equivalent to sha224sum)\n" +
			"  sha256    (equivalent to sha256sum)\n  sha384    (equivalent to sha384sum)\n" +
			"  sha512    (equivalent to sha512sum)\n  blake2b   (equivalent to b2sum)\n" +
			"  sm3       (only available through cksum)\n\n" +
			"When checking, the input should be a former output of this program,\n" +
			"or equivalent standalone program.\n")
	} else {
		b.WriteString("\nWhen checking, the input should be a former output of this program.\n" +
			"The default mode is to print a line with: checksum, a space,\n" +
			"a character indicating input mode ('*' for binary, ' ' for text\n" +
			"or where binary is insignificant), and name for each FILE.\n\n" +
			"Note: There is no difference between binary mode and text mode on GNU systems.\n")
	}
	return textfmt.Help(r.c, b.String())
}

// operands computes or checks each operand, standard input when none.
func (r *run) operands(files []string) int {
	r.out = textfmt.NewOutput(r.c.Stdout)
	r.buf = make([]byte, bufSize)
	args := len(files) > 0
	if !args {
		files = []string{"-"}
	}
	ok := true
	for _, f := range files {
		if r.ctx.Err() != nil {
			r.out.Flush()
			return procutil.CancelStatus(r.ctx)
		}
		var good bool
		if r.check {
			good = r.checkFile(f)
		} else {
			good = r.sumFile(f, args)
		}
		ok = ok && good
		if r.out.Failed() {
			break
		}
	}
	st := 0
	if !ok {
		st = 1
	}
	return r.out.Finish(r.c, st)
}

// open opens an input; "-" is standard input.
func (r *run) open(name string) (io.Reader, func(), error) {
	if name == "-" {
		r.stdinRead = true
		return r.c.Stdin, func() {}, nil
	}
	if name == "" {
		return nil, nil, fs.ErrNotExist
	}
	f, err := r.c.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, nil, errIsDir
	}
	return f, func() { f.Close() }, nil
}

// feed copies an input into w, checking for cancellation.
func (r *run) feed(in io.Reader, w io.Writer) (uint64, error) {
	var n uint64
	for {
		k, err := in.Read(r.buf)
		if k > 0 {
			w.Write(r.buf[:k])
			n += uint64(k)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if r.ctx.Err() != nil {
			return n, r.ctx.Err()
		}
	}
}

// digest computes the digest of name with the current algorithm. missing
// reports a nonexistent file skipped by --ignore-missing.
func (r *run) digest(name string) (sum []byte, missing bool, ok bool) {
	in, closeIn, err := r.open(name)
	if err != nil {
		if r.igMis && builtins.IsNotExist(err) {
			return nil, true, true
		}
		r.c.Errorf("%s: %s", r.qf(name), builtins.ErrText(err))
		return nil, false, false
	}
	defer closeIn()
	h := newHash(r.algo, r.bits, r.blake2b)
	if _, err := r.feed(in, h); err != nil {
		if r.ctx.Err() == nil {
			r.c.Errorf("%s: %s", r.qf(name), builtins.ErrText(err))
		}
		return nil, false, false
	}
	return h.Sum(nil), false, true
}

// problematic reports whether a file name needs escaping in output.
func problematic(s string) bool { return strings.ContainsAny(s, "\\\n\r") }

func (r *run) writeName(name string, escape bool) {
	if !escape {
		r.out.WriteString(name)
		return
	}
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '\\':
			r.out.WriteString("\\\\")
		case '\n':
			r.out.WriteString("\\n")
		case '\r':
			r.out.WriteString("\\r")
		default:
			r.out.WriteByte(name[i])
		}
	}
}

// sumFile prints one file's checksum line.
func (r *run) sumFile(name string, args bool) bool {
	switch r.algo {
	case CRC, CRC32B, BSD, SYSV:
		return r.legacySum(name, args)
	}
	sum, _, ok := r.digest(name)
	if !ok {
		return false
	}
	if r.raw {
		r.out.Write(sum)
		return true
	}
	escape := r.delim == '\n' && problematic(name)
	if escape {
		r.out.WriteByte('\\')
	}
	if r.tag {
		r.out.WriteString(info[r.algo].tag)
		if r.algo == BLAKE2B && r.bits < 512 {
			r.out.WriteString("-" + strconv.Itoa(r.bits))
		}
		r.out.WriteString(" (")
		r.writeName(name, escape)
		r.out.WriteString(") = ")
	}
	if r.b64 {
		r.out.WriteString(base64.StdEncoding.EncodeToString(sum))
	} else {
		var hx [128]byte
		r.out.Write(hx[:hex.Encode(hx[:], sum)])
	}
	if !r.tag {
		r.out.WriteByte(' ')
		if r.binary == 1 {
			r.out.WriteByte('*')
		} else {
			r.out.WriteByte(' ')
		}
		r.writeName(name, escape)
	}
	r.out.WriteByte(r.delim)
	return true
}

// LegacySum computes one of the old checksums of an input.
func legacy(a Algo) interface {
	io.Writer
} {
	switch a {
	case BSD:
		return &BSDSum{}
	case SYSV:
		return &SysVSum{}
	case CRC32B:
		return crc32.NewIEEE()
	}
	return NewCRC()
}

// legacySum prints a CRC, BSD or System V checksum line.
func (r *run) legacySum(name string, args bool) bool {
	in, closeIn, err := r.open(name)
	if err == errIsDir && r.algo == CRC {
		// GNU 9.1 cksum reads a directory as empty.
		in, closeIn, err = strings.NewReader(""), func() {}, nil
	}
	if err != nil {
		r.c.Errorf("%s: %s", r.qf(name), builtins.ErrText(err))
		return false
	}
	defer closeIn()
	w := legacy(r.algo)
	n, err := r.feed(in, w)
	if err != nil {
		if r.ctx.Err() == nil {
			r.c.Errorf("%s: %s", r.qf(name), builtins.ErrText(err))
		}
		return false
	}
	if r.raw {
		// Network byte order: 4 bytes for the CRCs, 2 for the 16-bit sums.
		var b [4]byte
		switch s := w.(type) {
		case *CRC32:
			binary.BigEndian.PutUint32(b[:], s.Sum32())
			r.out.Write(b[:])
		case hash.Hash32:
			r.out.Write(s.Sum(b[:0]))
		case interface{ Sum16() uint32 }:
			binary.BigEndian.PutUint16(b[:], uint16(s.Sum16()))
			r.out.Write(b[:2])
		}
		return true
	}
	switch s := w.(type) {
	case *CRC32:
		fmt.Fprintf(r.out, "%d %d", s.Sum32(), n)
	case hash.Hash32:
		fmt.Fprintf(r.out, "%d %d", s.Sum32(), n)
	case *BSDSum:
		fmt.Fprintf(r.out, "%05d %5d", s.Sum16(), (n+1023)/1024)
	case *SysVSum:
		fmt.Fprintf(r.out, "%d %d", s.Sum16(), (n+511)/512)
	}
	if args {
		r.out.WriteString(" " + name)
	}
	r.out.WriteByte(r.delim)
	return true
}

// Sum runs sum(1): BSD (-r, the default) or System V (-s) checksums.
func Sum(ctx context.Context, c *builtins.Call) int {
	r := &run{ctx: ctx, c: c, algo: BSD, delim: '\n'}
	opts, files, err := (&builtins.Options{List: []builtins.Option{
		{Short: 'r'}, {Short: 's', Long: "sysv"}, {Long: "help"}, {Long: "version"},
	}}).Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "r":
			r.algo = BSD
		case "sysv":
			r.algo = SYSV
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION]... [FILE]...\n"+
				"Print or check BSD (16-bit) checksums.\n\n"+
				"With no FILE, or when FILE is -, read standard input.\n\n"+
				"  -r              use BSD sum algorithm (the default), use 1K blocks\n"+
				"  -s, --sysv      use System V sum algorithm, use 512 bytes blocks\n"+
				utilcmd.Trailer())
		case "version":
			return c.Version()
		}
	}
	return r.operands(files)
}

func err2text(err error) string { return builtins.ErrText(err) }
