package diff_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/diff"
)

var stampRE = regexp.MustCompile(`\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9} [+-]\d{4}`)

// scenario is a command line run over a set of files by both the real
// diff and ours.
type scenario struct {
	name  string
	files map[string]string // a trailing "/" makes a directory; "->x" a symlink
	args  []string
	stdin string
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runGNU(t *testing.T, prog string, sc scenario) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, sc.files)
	cmd := exec.Command(prog, sc.args...)
	cmd.Args[0] = filepath.Base(prog)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC"}
	cmd.Stdin = strings.NewReader(sc.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code
}

func runOurs(sc scenario) (string, string, int) {
	env := cmdtest.Env{Files: sc.files, Stdin: sc.stdin, Env: []string{"LC_ALL=C.UTF-8", "TZ=UTC"}}
	r := env.Run(diff.Run, append([]string{"diff"}, sc.args...)...)
	return r.Stdout, r.Stderr, r.Code
}

func TestScenariosAgainstGNU(t *testing.T) {
	requireGNU(t)
	abc := map[string]string{"a": "a\nb\nc\n", "b": "a\nB\nc\nd"}
	tree := map[string]string{
		"d1/f": "x\n", "d2/f": "y\n", "d1/s": "same\n", "d2/s": "same\n",
		"d1/sub/z": "a\n", "d2/sub/z": "b\n", "d1/o1": "o\n", "d2/o2": "o\n",
		"d1/cs/": "", "d2/cs/": "", "d1/only1/": "", "d2/only2dir/": "",
		"d1/tf": "q\n", "d2/tf/": "", "d1/e": "", "d2/e/": "",
		"d1/deep/x/y": "1\n2\n", "d2/sp ace": "s\n", "d1/sp ace": "t\n",
	}
	scenarios := []scenario{
		{name: "normal", files: abc, args: []string{"a", "b"}},
		{name: "unified", files: abc, args: []string{"-u", "a", "b"}},
		{name: "context", files: abc, args: []string{"-c", "a", "b"}},
		{name: "brief", files: abc, args: []string{"-q", "a", "b"}},
		{name: "brief long", files: abc, args: []string{"--brief", "a", "b"}},
		{name: "identical -s", files: map[string]string{"a": "x\n", "b": "x\n"}, args: []string{"-s", "a", "b"}},
		{name: "identical", files: map[string]string{"a": "x\n", "b": "x\n"}, args: []string{"a", "b"}},
		{name: "missing", files: abc, args: []string{"a", "nosuch"}},
		{name: "both missing", files: abc, args: []string{"nosuch1", "nosuch2"}},
		{name: "new file", files: abc, args: []string{"-N", "a", "nosuch"}},
		{name: "new file first", files: abc, args: []string{"-N", "nosuch", "a"}},
		{name: "unidirectional", files: abc, args: []string{"--unidirectional-new-file", "nosuch", "a"}},
		{name: "unidirectional wrong side", files: abc, args: []string{"--unidirectional-new-file", "a", "nosuch"}},
		{name: "stdin", files: abc, args: []string{"-", "b"}, stdin: "a\nx\n"},
		{name: "stdin both", files: abc, args: []string{"-", "-"}, stdin: "a\nx\n"},
		{name: "labels", files: abc, args: []string{"-u", "--label", "L1", "--label=L2", "a", "b"}},
		{name: "three labels", files: abc, args: []string{"-u", "-L", "1", "-L", "2", "-L", "3", "a", "b"}},
		{name: "binary", files: map[string]string{"a": "a\x00b", "b": "a\x00c"}, args: []string{"a", "b"}},
		{name: "binary same", files: map[string]string{"a": "a\x00b", "b": "a\x00b"}, args: []string{"-s", "a", "b"}},
		{name: "binary brief", files: map[string]string{"a": "a\x00b", "b": "a\x00c"}, args: []string{"-q", "a", "b"}},
		{name: "binary text", files: map[string]string{"a": "a\x00b\n", "b": "a\x00c\n"}, args: []string{"-a", "a", "b"}},
		{name: "dirs", files: tree, args: []string{"d1", "d2"}},
		{name: "dirs -r", files: tree, args: []string{"-r", "d1", "d2"}},
		{name: "dirs -ru", files: tree, args: []string{"-ru", "d1", "d2"}},
		{name: "dirs -rN", files: tree, args: []string{"-rN", "d1", "d2"}},
		{name: "dirs -rq", files: tree, args: []string{"-rq", "d1", "d2"}},
		{name: "dirs -rs", files: tree, args: []string{"-rs", "d1", "d2"}},
		{name: "dirs trailing slash", files: tree, args: []string{"-r", "d1/", "d2/"}},
		{name: "dirs -x", files: tree, args: []string{"-r", "-x", "o*", "-x", "sub", "d1", "d2"}},
		{name: "dirs -rP", files: tree, args: []string{"-rP", "d1", "d2"}},
		{name: "dirs options order", files: tree, args: []string{"d1", "d2", "-r", "-U", "1"}},
		{name: "dirs dashdash", files: tree, args: []string{"-r", "--", "d1", "d2"}},
		{name: "file vs dir", files: tree, args: []string{"d1/f", "d2"}},
		{name: "dir vs file", files: tree, args: []string{"d1", "d2/s"}},
		{name: "stdin vs dir", files: tree, args: []string{"-", "d2"}},
		{name: "missing operand", files: abc, args: []string{"a"}},
		{name: "no operand", files: abc, args: []string{}},
		{name: "extra operand", files: abc, args: []string{"a", "b", "c"}},
		{name: "bad option", files: abc, args: []string{"--frob", "a", "b"}},
		{name: "bad short option", files: abc, args: []string{"-Q", "a", "b"}},
		{name: "ambiguous", files: abc, args: []string{"--un=2", "a", "b"}},
		{name: "bad context", files: abc, args: []string{"-U", "x", "a", "b"}},
		{name: "negative context", files: abc, args: []string{"--unified=-1", "a", "b"}},
		{name: "conflicting styles", files: abc, args: []string{"-u", "-c", "a", "b"}},
		{name: "digit context", files: abc, args: []string{"-1", "-u", "a", "b"}},
		{name: "ed", files: map[string]string{"a": "a\nb\n.\nc\n", "b": "x\n.\ny\nc\n"}, args: []string{"-e", "a", "b"}},
		{name: "ed no newline", files: abc, args: []string{"-e", "a", "b"}},
		{name: "forward ed", files: map[string]string{"a": "a\nb\nc\nd\n", "b": "x\nb\nd\ne\n"}, args: []string{"-f", "a", "b"}},
		{name: "rcs", files: map[string]string{"a": "a\nb\nc\nd\n", "b": "x\nb\nd\ne\n"}, args: []string{"-n", "a", "b"}},
		{name: "side by side", files: map[string]string{"a": "alpha\nbeta\ngamma\ndelta\n", "b": "alpha\nBETA\ngamma\nepsilon\nzeta\n"}, args: []string{"-y", "a", "b"}},
		{name: "side by side width", files: map[string]string{"a": "alpha\tx\nbeta\ngamma\n", "b": "alpha\ty\ngamma\nz"}, args: []string{"-y", "-W", "40", "a", "b"}},
		{name: "side by side suppress", files: map[string]string{"a": "alpha\nbeta\ngamma\n", "b": "alpha\nBETA\ngamma\n"}, args: []string{"-y", "--suppress-common-lines", "a", "b"}},
		{name: "side by side left", files: map[string]string{"a": "alpha\nbeta\ngamma\n", "b": "alpha\nBETA\ngamma\n"}, args: []string{"--side-by-side", "--left-column", "a", "b"}},
		{name: "side by side expand", files: map[string]string{"a": "a\tb\tc\n", "b": "a\tb\td\n"}, args: []string{"-yt", "-W", "50", "a", "b"}},
		{name: "ifdef", files: map[string]string{"a": "a\nb\nc\nd\n", "b": "a\nB\nc\ne\n"}, args: []string{"-D", "FOO", "a", "b"}},
		{name: "formats", files: map[string]string{"a": "a\nb\nc\nd\n", "b": "a\nB\nc\ne\nf\n"}, args: []string{
			"--old-group-format=<%dn %dF %dL %de %dm %(n=1?one:many)>\n", "--new-group-format=[%<%>|%dN %xM]\n",
			"--unchanged-group-format=", "--changed-group-format=%c'{'%<--%>%c'\\175'\n", "a", "b"}},
		{name: "line formats", files: map[string]string{"a": "a\nb\nc\nd", "b": "a\nB\nc\ne\nf"}, args: []string{
			"--old-line-format=-%5dn %l\n", "--new-line-format=+%-3dn|%L", "--unchanged-line-format= %l\n", "a", "b"}},
		{name: "show c function", files: map[string]string{
			"a": "int main()\n{\n  a;\n  b;\n  c;\n  d;\n  e;\n}\nint g()\n{\n  x;\n  y;\n  z;\n  w;\n}\n",
			"b": "int main()\n{\n  a;\n  b;\n  c;\n  D;\n  e;\n}\nint g()\n{\n  x;\n  y;\n  Z;\n  w;\n}\n"}, args: []string{"-up", "a", "b"}},
		{name: "show function -F", files: map[string]string{
			"a": "[sec1]\nk=1\nj=2\nl=3\nm=4\n[sec2]\nn=5\no=6\np=7\nq=8\n",
			"b": "[sec1]\nk=1\nj=2\nl=3\nm=4\n[sec2]\nn=5\no=6\np=X\nq=8\n"}, args: []string{"-U1", "-F", "^\\[", "a", "b"}},
		{name: "-p alone", files: map[string]string{
			"a": "int f()\n{\n a;\n b;\n c;\n d;\n}\n", "b": "int f()\n{\n a;\n b;\n c;\n D;\n}\n"}, args: []string{"-p", "a", "b"}},
		{name: "ignore blank lines", files: map[string]string{"a": "a\n\nb\nc\n", "b": "a\nb\n\n\nc\nd\n"}, args: []string{"-B", "a", "b"}},
		{name: "ignore blank lines unified", files: map[string]string{"a": "a\n\nb\nc\nd\ne\nf\ng\nh\n", "b": "a\nb\n\nc\nd\ne\nf\ng\nH\n"}, args: []string{"-uB", "a", "b"}},
		{name: "ignore matching", files: map[string]string{"a": "# c1\na\nb\n", "b": "# c2\na\nB\n"}, args: []string{"-I", "^#", "a", "b"}},
		{name: "ignore matching all", files: map[string]string{"a": "# c1\na\nb\n", "b": "# c2\na\nb\n"}, args: []string{"-I", "^#", "a", "b"}},
		{name: "ignore case", files: map[string]string{"a": "Hello\nWorld\n", "b": "hello\nWORLD!\n"}, args: []string{"-i", "a", "b"}},
		{name: "ignore all space", files: map[string]string{"a": "a b c\n x\n", "b": "abc\nx \ny\n"}, args: []string{"-w", "a", "b"}},
		{name: "ignore space change", files: map[string]string{"a": "a  b\nc\t\n", "b": "a b\nc\n"}, args: []string{"-b", "a", "b"}},
		{name: "ignore space change missing newline", files: map[string]string{"a": "a\nb \n", "b": "a\nb"}, args: []string{"-b", "a", "b"}},
		{name: "ignore trailing", files: map[string]string{"a": "a  \nb\n", "b": "a\n b\n"}, args: []string{"-Z", "a", "b"}},
		{name: "ignore tab expansion", files: map[string]string{"a": "a\tb\n", "b": "a       b\n"}, args: []string{"-E", "a", "b"}},
		{name: "strip trailing cr", files: map[string]string{"a": "a\r\nb\r\n", "b": "a\nb\n"}, args: []string{"--strip-trailing-cr", "a", "b"}},
		{name: "expand tabs", files: map[string]string{"a": "a\tb\n", "b": "a\tc\n"}, args: []string{"-t", "a", "b"}},
		{name: "initial tab", files: map[string]string{"a": "a\nb\n", "b": "a\nc\n"}, args: []string{"-uT", "--label", "x", "--label", "y", "a", "b"}},
		{name: "suppress blank empty", files: map[string]string{"a": "\na\n\nb\n", "b": "\na\n\nc\n"}, args: []string{"-u", "--suppress-blank-empty", "--label", "x", "--label", "y", "a", "b"}},
		{name: "tabsize", files: map[string]string{"a": "a\tb\n", "b": "a\tc\n"}, args: []string{"-t", "--tabsize=4", "a", "b"}},
		{name: "bad tabsize", files: abc, args: []string{"--tabsize=0", "a", "b"}},
		{name: "color", files: abc, args: []string{"--color=always", "-u", "--label", "A", "--label", "B", "a", "b"}},
		{name: "color normal", files: abc, args: []string{"--color=always", "a", "b"}},
		{name: "color context", files: abc, args: []string{"--color=always", "-c", "--label", "A", "--label", "B", "a", "b"}},
		{name: "bad color", files: abc, args: []string{"--color=sometimes", "a", "b"}},
		{name: "no newline both", files: map[string]string{"a": "a\nb", "b": "a\nc"}, args: []string{"a", "b"}},
		{name: "no newline same text", files: map[string]string{"a": "a\nb", "b": "a\nb\n"}, args: []string{"-u", "--label", "x", "--label", "y", "a", "b"}},
		{name: "empty vs text", files: map[string]string{"a": "", "b": "x\n"}, args: []string{"-u", "--label", "x", "--label", "y", "a", "b"}},
		{name: "text vs empty", files: map[string]string{"a": "x\ny\n", "b": ""}, args: []string{"-c", "--label", "x", "--label", "y", "a", "b"}},
		{name: "context 0", files: map[string]string{"a": "1\n2\n3\n4\n5\n", "b": "1\n2\nx\n4\n5\n"}, args: []string{"-C0", "--label", "x", "--label", "y", "a", "b"}},
		{name: "symlinks no deref", files: map[string]string{"a": "x\n", "l1": "->a", "l2": "->b", "b": "y\n"}, args: []string{"--no-dereference", "l1", "l2"}},
		{name: "symlink vs file", files: map[string]string{"a": "x\n", "l1": "->a", "b": "y\n"}, args: []string{"--no-dereference", "l1", "b"}},
		{name: "symlink deref", files: map[string]string{"a": "x\n", "l1": "->a", "b": "y\n"}, args: []string{"l1", "b"}},
		{name: "from-file", files: map[string]string{"a": "x\n", "b": "y\n", "c": "x\n"}, args: []string{"--from-file=a", "b", "c"}},
		{name: "to-file", files: map[string]string{"a": "x\n", "b": "y\n", "c": "x\n"}, args: []string{"--to-file", "a", "b", "c"}},
		{name: "starting file", files: tree, args: []string{"-r", "-S", "s", "d1", "d2"}},
		{name: "minimal", files: abc, args: []string{"-d", "a", "b"}},
		{name: "horizon", files: abc, args: []string{"--horizon-lines=5", "a", "b"}},
		{name: "bad horizon", files: abc, args: []string{"--horizon-lines=x", "a", "b"}},
		{name: "bad width", files: abc, args: []string{"-W", "0", "-y", "a", "b"}},
		{name: "version prefix", files: abc, args: []string{"--normal", "a", "b"}},
		{name: "normal conflicts", files: abc, args: []string{"--normal", "-u", "a", "b"}},
		{name: "quoted names", files: map[string]string{"a b": "1\n", "c\"d": "2\n"}, args: []string{"-u", "a b", "c\"d"}},
		{name: "dir missing", files: tree, args: []string{"-r", "d1", "nosuch"}},
		{name: "dir -N missing", files: tree, args: []string{"-rN", "d1", "nosuch"}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			wo, we, wc := runGNU(t, "/usr/bin/diff", sc)
			go_, ge, gc := runOurs(sc)
			wo, go_ = stampRE.ReplaceAllString(wo, "\tSTAMP"), stampRE.ReplaceAllString(go_, "\tSTAMP")
			if wo != go_ || we != ge || wc != gc {
				t.Errorf("diff %q\nwant (%d):\n%s\nstderr: %s\ngot (%d):\n%s\nstderr: %s", sc.args, wc, wo, we, gc, go_, ge)
			}
		})
	}
}
