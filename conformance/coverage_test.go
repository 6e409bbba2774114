package conformance

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
)

// references names, for every command the sandbox lists in /bin, the
// Debian package whose program the conformance cases compare it with.
// A command added to the sandbox without an entry here fails
// TestEveryCommandHasCases: say where its reference comes from, make
// .ci/run install it, and write its cases.
var references = map[string]string{
	"[": "coreutils", "arch": "coreutils", "b2sum": "coreutils", "base32": "coreutils",
	"base64": "coreutils", "basename": "coreutils", "basenc": "coreutils", "cat": "coreutils",
	"chgrp": "coreutils", "chmod": "coreutils", "chown": "coreutils", "cksum": "coreutils",
	"comm": "coreutils", "cp": "coreutils", "csplit": "coreutils", "cut": "coreutils",
	"date": "coreutils", "dd": "coreutils", "df": "coreutils", "dir": "coreutils", "dircolors": "coreutils",
	"dirname": "coreutils", "du": "coreutils", "echo": "coreutils",
	"env": "coreutils", "expand": "coreutils", "expr": "coreutils", "factor": "coreutils",
	"false": "coreutils", "fmt": "coreutils", "fold": "coreutils", "getconf": "libc-bin",
	"groups": "coreutils", "head": "coreutils", "hostid": "coreutils", "id": "coreutils",
	"install": "coreutils", "join": "coreutils", "link": "coreutils", "ln": "coreutils",
	"logname": "coreutils", "ls": "coreutils", "md5sum": "coreutils", "mkdir": "coreutils",
	"mkfifo": "coreutils", "mktemp": "coreutils", "mv": "coreutils", "nice": "coreutils",
	"nl": "coreutils", "nohup": "coreutils", "nproc": "coreutils", "numfmt": "coreutils",
	"od": "coreutils", "paste": "coreutils", "pathchk": "coreutils", "pr": "coreutils",
	"printenv": "coreutils", "printf": "coreutils", "readlink": "coreutils",
	"realpath": "coreutils", "rm": "coreutils", "rmdir": "coreutils", "seq": "coreutils",
	"sha1sum": "coreutils", "sha224sum": "coreutils", "sha256sum": "coreutils",
	"sha384sum": "coreutils", "sha512sum": "coreutils", "shred": "coreutils", "shuf": "coreutils",
	"sleep": "coreutils", "sort": "coreutils", "split": "coreutils", "stat": "coreutils",
	"stdbuf": "coreutils", "sum": "coreutils", "sync": "coreutils", "tac": "coreutils",
	"tail": "coreutils", "tee": "coreutils", "test": "coreutils", "timeout": "coreutils",
	"touch": "coreutils", "tr": "coreutils", "true": "coreutils", "truncate": "coreutils",
	"tsort": "coreutils", "tty": "coreutils", "uname": "coreutils", "unexpand": "coreutils",
	"uniq": "coreutils", "unlink": "coreutils", "users": "coreutils", "vdir": "coreutils",
	"wc": "coreutils", "who": "coreutils", "whoami": "coreutils", "yes": "coreutils",

	"bash": "bash", "sh": "dash", "awk": "gawk", "gawk": "gawk", "mawk": "mawk",
	"bc": "bc", "dc": "dc", "cal": "ncal", "ncal": "ncal", "patch": "patch",
	"cmp": "diffutils", "diff": "diffutils", "diff3": "diffutils", "sdiff": "diffutils",
	"find": "findutils", "xargs": "findutils", "sed": "sed", "grep": "grep", "egrep": "grep",
	"fgrep": "grep", "getopt": "util-linux", "rev": "util-linux", "hostname": "hostname",
	"which": "debianutils", "envsubst": "gettext-base", "iconv": "libc-bin",
	"col": "bsdextrautils", "colrm": "bsdextrautils", "column": "bsdextrautils",
	"hd": "bsdextrautils", "hexdump": "bsdextrautils", "look": "bsdextrautils",
	"strings": "binutils", "file": "file", "tree": "tree", "xxd": "xxd", "jq": "jq",
	"yq": "mikefarah/yq", "git": "git", "sqlite3": "sqlite3", "rg": "ripgrep", "fd": "fd-find",
	"sponge": "moreutils", "uuencode": "sharutils", "uudecode": "sharutils",
	"tar": "tar", "zip": "zip", "unzip": "unzip",
	"gzip": "gzip", "gunzip": "gzip", "zcat": "gzip", "zcmp": "gzip", "zdiff": "gzip",
	"zgrep": "gzip", "zegrep": "gzip", "zfgrep": "gzip",
	"bzip2": "bzip2", "bunzip2": "bzip2", "bzcat": "bzip2", "bzcmp": "bzip2", "bzdiff": "bzip2",
	"bzgrep": "bzip2", "bzegrep": "bzip2", "bzfgrep": "bzip2",
	"xz": "xz-utils", "unxz": "xz-utils", "xzcat": "xz-utils", "lzma": "xz-utils",
	"unlzma": "xz-utils", "lzcat": "xz-utils", "xzcmp": "xz-utils", "xzdiff": "xz-utils",
	"xzgrep": "xz-utils", "xzegrep": "xz-utils", "xzfgrep": "xz-utils",
	"zstd": "zstd", "unzstd": "zstd", "zstdcat": "zstd",
}

// shellBuiltins are commands bash runs itself when named plainly: a case
// reaches the sandbox's /bin program only through a path or another
// command (env, xargs, find -exec, nohup, timeout, ...).
var shellBuiltins = map[string]bool{"[": true, "echo": true, "printf": true, "test": true, "true": true, "false": true}

// minCases is how many cases must run each command: one case of a
// command's own (its name before the colon) and others that use it.
const minCases = 3

// TestEveryCommandHasCases is issue 19's measure: every entry of the
// sandbox's /bin is a program with differential cases against the real
// tool, and .ci/run installs that tool.
func TestEveryCommandHasCases(t *testing.T) {
	listed := sandboxBin(t)
	if len(listed) < 170 {
		t.Errorf("ls /bin lists %d commands, want at least 170", len(listed))
	}
	cases, err := LoadCases("cases")
	if err != nil {
		t.Fatal(err)
	}
	installed := ciPackages(t)
	for _, name := range listed {
		pkg, ok := references[name]
		if !ok {
			t.Errorf("%s: no reference named in coverage_test.go's table", name)
			continue
		}
		if !installed[pkg] {
			t.Errorf("%s: .ci/run does not install its reference (%s)", name, pkg)
		}
		own, uses := 0, 0
		run := invocation(name)
		for _, c := range cases {
			if !run.MatchString(c.Script) {
				continue
			}
			uses++
			if c.Command == name {
				own++
			}
		}
		if own == 0 || uses < minCases {
			t.Errorf("%s: %d cases of its own, %d that run it; want at least 1 and %d", name, own, uses, minCases)
		}
	}
	for name := range references {
		if !slices.Contains(listed, name) {
			t.Errorf("%s: in the table but not in the sandbox's /bin", name)
		}
	}
}

// invocation matches a script that runs name as a program.
func invocation(name string) *regexp.Regexp {
	q := regexp.QuoteMeta(name)
	end := `(?:$|[\s;|&)])`
	if shellBuiltins[name] {
		return regexp.MustCompile(`(?m)(?:/bin/` + q + `|(?:\benv|\bxargs|-exec|\bnohup|\bnice|\bstdbuf|\btimeout)(?:\s+-\S+)*(?:\s+[0-9.]+[smhd]?)?\s+` + q + `)` + end)
	}
	return regexp.MustCompile(`(?m)(?:^|[\s;|&(` + "`" + `/])` + q + end)
}

// sandboxBin lists the sandbox's /bin (and /usr/bin, if it has one).
func sandboxBin(t *testing.T) []string {
	t.Helper()
	box, err := bashbox.New(bashbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	res, err := box.Run(context.Background(), bashbox.Request{Script: "ls /bin; ls /usr/bin 2>/dev/null; true"})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("ls /bin: %v %+v", err, res)
	}
	var names []string
	for _, n := range strings.Fields(res.Stdout) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// ciPackages is what .ci/run installs: the packages of its pkg:cmd list,
// and the references it builds (named owner/repo by their go install).
func ciPackages(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range regexp.MustCompile(`([a-z0-9.+-]+):[a-z0-9.+_-]+`).FindAllStringSubmatch(string(data), -1) {
		got[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`go install github\.com/([a-z0-9-]+/[a-z0-9-]+)`).FindAllStringSubmatch(string(data), -1) {
		got[m[1]] = true
	}
	return got
}
