//go:build !bashbox_front

package coreutils

import (
	"github.com/bashbox/bashbox/coreutils/awk"
	"github.com/bashbox/bashbox/coreutils/b2sum"
	"github.com/bashbox/bashbox/coreutils/bc"
	"github.com/bashbox/bashbox/coreutils/bunzip2"
	"github.com/bashbox/bashbox/coreutils/bzcat"
	"github.com/bashbox/bashbox/coreutils/bzip2"
	"github.com/bashbox/bashbox/coreutils/cksum"
	"github.com/bashbox/bashbox/coreutils/dc"
	"github.com/bashbox/bashbox/coreutils/factor"
	"github.com/bashbox/bashbox/coreutils/fd"
	"github.com/bashbox/bashbox/coreutils/file"
	"github.com/bashbox/bashbox/coreutils/getconf"
	"github.com/bashbox/bashbox/coreutils/git"
	"github.com/bashbox/bashbox/coreutils/hexdump"
	"github.com/bashbox/bashbox/coreutils/iconv"
	"github.com/bashbox/bashbox/coreutils/jq"
	"github.com/bashbox/bashbox/coreutils/lzma"
	"github.com/bashbox/bashbox/coreutils/rg"
	"github.com/bashbox/bashbox/coreutils/sqlite3"
	"github.com/bashbox/bashbox/coreutils/tar"
	"github.com/bashbox/bashbox/coreutils/unxz"
	"github.com/bashbox/bashbox/coreutils/unzstd"
	"github.com/bashbox/bashbox/coreutils/xz"
	"github.com/bashbox/bashbox/coreutils/xzcat"
	"github.com/bashbox/bashbox/coreutils/yq"
	"github.com/bashbox/bashbox/coreutils/zstd"
	"github.com/bashbox/bashbox/coreutils/zstdcat"
	"github.com/bashbox/bashbox/coreutils/zwrap"
)

// heavyCommands are the commands left out of the lean front binary: their
// packages or libraries take measurable time to initialise (gojq, yq's
// libraries, go-git, goawk, the compressors, sqlite, regexp tables,
// x/crypto/blake2b's x/sys/cpu probing for b2sum and cksum...),
// or they run programs the front's check cannot follow (awk's system()).
// heavyNames lists their names for the front's failing entries.
func heavyCommands() []entry {
	return []entry{
		{"awk", awk.Run},
		{"b2sum", b2sum.Run},
		{"bc", bc.Run},
		{"bunzip2", bunzip2.Run},
		{"bzcat", bzcat.Run},
		{"bzcmp", zwrap.Bzip2.Diff("cmp")},
		{"bzdiff", zwrap.Bzip2.Diff("diff")},
		{"bzegrep", zwrap.Bzip2.Grep("-E")},
		{"bzfgrep", zwrap.Bzip2.Grep("-F")},
		{"bzgrep", zwrap.Bzip2.Grep("")},
		{"bzip2", bzip2.Run},
		{"cksum", cksum.Run},
		{"dc", dc.Run},
		{"factor", factor.Run},
		{"fd", fd.Run},
		{"file", file.Run},
		{"gawk", awk.Run},
		{"getconf", getconf.Run},
		{"git", git.Run},
		{"hd", hexdump.Run},
		{"hexdump", hexdump.Run},
		{"iconv", iconv.Run},
		{"jq", jq.Run},
		{"lzcat", lzma.RunLzcat},
		{"lzma", lzma.Run},
		{"mawk", awk.Run},
		{"rg", rg.Run},
		{"sqlite3", sqlite3.Run},
		{"tar", tar.Run},
		{"unlzma", lzma.RunUnlzma},
		{"unxz", unxz.Run},
		{"unzstd", unzstd.Run},
		{"xz", xz.Run},
		{"xzcat", xzcat.Run},
		{"xzcmp", zwrap.Xz.Diff("cmp")},
		{"xzdiff", zwrap.Xz.Diff("diff")},
		{"xzegrep", zwrap.Xz.Grep("-E")},
		{"xzfgrep", zwrap.Xz.Grep("-F")},
		{"xzgrep", zwrap.Xz.Grep("")},
		{"yq", yq.Run},
		{"zcmp", zwrap.Gzip.Diff("cmp")},
		{"zdiff", zwrap.Gzip.Diff("diff")},
		{"zegrep", zwrap.Gzip.Grep("-E")},
		{"zfgrep", zwrap.Gzip.Grep("-F")},
		{"zgrep", zwrap.Gzip.Grep("")},
		{"zstd", zstd.Run},
		{"zstdcat", zstdcat.Run},
	}
}

// commands is every command of the sandbox and its implementation.
func commands() []entry { return append(leanCommands(), heavyCommands()...) }
