package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/arch"
	"github.com/bashbox/bashbox/coreutils/base32"
	"github.com/bashbox/bashbox/coreutils/base64"
	"github.com/bashbox/bashbox/coreutils/basename"
	"github.com/bashbox/bashbox/coreutils/basenc"
	"github.com/bashbox/bashbox/coreutils/cal"
	"github.com/bashbox/bashbox/coreutils/cat"
	"github.com/bashbox/bashbox/coreutils/chmod"
	"github.com/bashbox/bashbox/coreutils/chown"
	"github.com/bashbox/bashbox/coreutils/cmp"
	"github.com/bashbox/bashbox/coreutils/col"
	"github.com/bashbox/bashbox/coreutils/colrm"
	"github.com/bashbox/bashbox/coreutils/column"
	"github.com/bashbox/bashbox/coreutils/comm"
	"github.com/bashbox/bashbox/coreutils/cp"
	"github.com/bashbox/bashbox/coreutils/csplit"
	"github.com/bashbox/bashbox/coreutils/cut"
	"github.com/bashbox/bashbox/coreutils/date"
	"github.com/bashbox/bashbox/coreutils/dd"
	"github.com/bashbox/bashbox/coreutils/df"
	"github.com/bashbox/bashbox/coreutils/diff"
	"github.com/bashbox/bashbox/coreutils/diff3"
	"github.com/bashbox/bashbox/coreutils/dircolors"
	"github.com/bashbox/bashbox/coreutils/dirname"
	"github.com/bashbox/bashbox/coreutils/du"
	"github.com/bashbox/bashbox/coreutils/echo"
	"github.com/bashbox/bashbox/coreutils/env"
	"github.com/bashbox/bashbox/coreutils/envsubst"
	"github.com/bashbox/bashbox/coreutils/expand"
	"github.com/bashbox/bashbox/coreutils/expr"
	falsecmd "github.com/bashbox/bashbox/coreutils/false"
	"github.com/bashbox/bashbox/coreutils/find"
	fmtcmd "github.com/bashbox/bashbox/coreutils/fmt"
	"github.com/bashbox/bashbox/coreutils/fold"
	"github.com/bashbox/bashbox/coreutils/getopt"
	"github.com/bashbox/bashbox/coreutils/grep"
	"github.com/bashbox/bashbox/coreutils/groups"
	"github.com/bashbox/bashbox/coreutils/gunzip"
	"github.com/bashbox/bashbox/coreutils/gzip"
	"github.com/bashbox/bashbox/coreutils/head"
	"github.com/bashbox/bashbox/coreutils/hostid"
	"github.com/bashbox/bashbox/coreutils/hostname"
	"github.com/bashbox/bashbox/coreutils/id"
	"github.com/bashbox/bashbox/coreutils/install"
	"github.com/bashbox/bashbox/coreutils/join"
	"github.com/bashbox/bashbox/coreutils/link"
	"github.com/bashbox/bashbox/coreutils/ln"
	"github.com/bashbox/bashbox/coreutils/logname"
	"github.com/bashbox/bashbox/coreutils/look"
	"github.com/bashbox/bashbox/coreutils/ls"
	"github.com/bashbox/bashbox/coreutils/md5sum"
	"github.com/bashbox/bashbox/coreutils/mkdir"
	"github.com/bashbox/bashbox/coreutils/mkfifo"
	"github.com/bashbox/bashbox/coreutils/mktemp"
	"github.com/bashbox/bashbox/coreutils/mv"
	"github.com/bashbox/bashbox/coreutils/nice"
	"github.com/bashbox/bashbox/coreutils/nl"
	"github.com/bashbox/bashbox/coreutils/nohup"
	"github.com/bashbox/bashbox/coreutils/nproc"
	"github.com/bashbox/bashbox/coreutils/numfmt"
	"github.com/bashbox/bashbox/coreutils/od"
	"github.com/bashbox/bashbox/coreutils/paste"
	"github.com/bashbox/bashbox/coreutils/patch"
	"github.com/bashbox/bashbox/coreutils/pathchk"
	"github.com/bashbox/bashbox/coreutils/pr"
	"github.com/bashbox/bashbox/coreutils/printenv"
	printfcmd "github.com/bashbox/bashbox/coreutils/printf"
	"github.com/bashbox/bashbox/coreutils/readlink"
	"github.com/bashbox/bashbox/coreutils/realpath"
	"github.com/bashbox/bashbox/coreutils/rev"
	"github.com/bashbox/bashbox/coreutils/rm"
	"github.com/bashbox/bashbox/coreutils/rmdir"
	"github.com/bashbox/bashbox/coreutils/sdiff"
	"github.com/bashbox/bashbox/coreutils/sed"
	"github.com/bashbox/bashbox/coreutils/seq"
	"github.com/bashbox/bashbox/coreutils/sha1sum"
	"github.com/bashbox/bashbox/coreutils/sha224sum"
	"github.com/bashbox/bashbox/coreutils/sha256sum"
	"github.com/bashbox/bashbox/coreutils/sha384sum"
	"github.com/bashbox/bashbox/coreutils/sha512sum"
	"github.com/bashbox/bashbox/coreutils/shred"
	"github.com/bashbox/bashbox/coreutils/shuf"
	"github.com/bashbox/bashbox/coreutils/sleep"
	"github.com/bashbox/bashbox/coreutils/sort"
	"github.com/bashbox/bashbox/coreutils/split"
	"github.com/bashbox/bashbox/coreutils/sponge"
	"github.com/bashbox/bashbox/coreutils/stat"
	"github.com/bashbox/bashbox/coreutils/stdbuf"
	stringscmd "github.com/bashbox/bashbox/coreutils/strings"
	"github.com/bashbox/bashbox/coreutils/sum"
	synccmd "github.com/bashbox/bashbox/coreutils/sync"
	"github.com/bashbox/bashbox/coreutils/tac"
	"github.com/bashbox/bashbox/coreutils/tail"
	"github.com/bashbox/bashbox/coreutils/tee"
	"github.com/bashbox/bashbox/coreutils/test"
	"github.com/bashbox/bashbox/coreutils/timeout"
	"github.com/bashbox/bashbox/coreutils/touch"
	"github.com/bashbox/bashbox/coreutils/tr"
	"github.com/bashbox/bashbox/coreutils/tree"
	truecmd "github.com/bashbox/bashbox/coreutils/true"
	"github.com/bashbox/bashbox/coreutils/truncate"
	"github.com/bashbox/bashbox/coreutils/tsort"
	"github.com/bashbox/bashbox/coreutils/tty"
	"github.com/bashbox/bashbox/coreutils/uname"
	"github.com/bashbox/bashbox/coreutils/unexpand"
	"github.com/bashbox/bashbox/coreutils/uniq"
	"github.com/bashbox/bashbox/coreutils/unlink"
	"github.com/bashbox/bashbox/coreutils/unzip"
	"github.com/bashbox/bashbox/coreutils/users"
	"github.com/bashbox/bashbox/coreutils/uu"
	"github.com/bashbox/bashbox/coreutils/wc"
	"github.com/bashbox/bashbox/coreutils/which"
	"github.com/bashbox/bashbox/coreutils/who"
	"github.com/bashbox/bashbox/coreutils/whoami"
	"github.com/bashbox/bashbox/coreutils/xargs"
	"github.com/bashbox/bashbox/coreutils/xxd"
	"github.com/bashbox/bashbox/coreutils/yes"
	"github.com/bashbox/bashbox/coreutils/zcat"
	"github.com/bashbox/bashbox/coreutils/zip"
)

// entry is a command's name and implementation.
type entry struct {
	name string
	run  builtins.Command
}

// leanCommands are the commands whose packages, and the libraries they
// import, cost next to nothing to initialise when a process starts: the
// table of the lean front binary (built with the bashbox_front tag), and
// most of the full one (commands.go adds the rest).
func leanCommands() []entry {
	return []entry{
		{"[", test.Run},
		{"arch", arch.Run},
		{"base32", base32.Run},
		{"base64", base64.Run},
		{"basename", basename.Run},
		{"basenc", basenc.Run},
		{"cal", cal.Run},
		{"cat", cat.Run},
		{"chgrp", chown.RunChgrp},
		{"chmod", chmod.Run},
		{"chown", chown.Run},
		{"cmp", cmp.Run},
		{"col", col.Run},
		{"colrm", colrm.Run},
		{"column", column.Run},
		{"comm", comm.Run},
		{"cp", cp.Run},
		{"csplit", csplit.Run},
		{"cut", cut.Run},
		{"date", date.Run},
		{"dd", dd.Run},
		{"df", df.Run},
		{"diff", diff.Run},
		{"diff3", diff3.Run},
		{"dir", ls.Run},
		{"dircolors", dircolors.Run},
		{"dirname", dirname.Run},
		{"du", du.Run},
		{"echo", echo.Run},
		{"egrep", grep.Run},
		{"env", env.Run},
		{"envsubst", envsubst.Run},
		{"expand", expand.Run},
		{"expr", expr.Run},
		{"false", falsecmd.Run},
		{"fgrep", grep.Run},
		{"find", find.Run},
		{"fmt", fmtcmd.Run},
		{"fold", fold.Run},
		{"getopt", getopt.Run},
		{"grep", grep.Run},
		{"groups", groups.Run},
		{"gunzip", gunzip.Run},
		{"gzip", gzip.Run},
		{"head", head.Run},
		{"hostid", hostid.Run},
		{"hostname", hostname.Run},
		{"id", id.Run},
		{"install", install.Run},
		{"join", join.Run},
		{"link", link.Run},
		{"ln", ln.Run},
		{"logname", logname.Run},
		{"look", look.Run},
		{"ls", ls.Run},
		{"md5sum", md5sum.Run},
		{"mkdir", mkdir.Run},
		{"mkfifo", mkfifo.Run},
		{"mktemp", mktemp.Run},
		{"mv", mv.Run},
		{"ncal", cal.Run},
		{"nice", nice.Run},
		{"nl", nl.Run},
		{"nohup", nohup.Run},
		{"nproc", nproc.Run},
		{"numfmt", numfmt.Run},
		{"od", od.Run},
		{"paste", paste.Run},
		{"patch", patch.Run},
		{"pathchk", pathchk.Run},
		{"pr", pr.Run},
		{"printenv", printenv.Run},
		{"printf", printfcmd.Run},
		{"readlink", readlink.Run},
		{"realpath", realpath.Run},
		{"rev", rev.Run},
		{"rm", rm.Run},
		{"rmdir", rmdir.Run},
		{"sdiff", sdiff.Run},
		{"sed", sed.Run},
		{"seq", seq.Run},
		{"sha1sum", sha1sum.Run},
		{"sha224sum", sha224sum.Run},
		{"sha256sum", sha256sum.Run},
		{"sha384sum", sha384sum.Run},
		{"sha512sum", sha512sum.Run},
		{"shred", shred.Run},
		{"shuf", shuf.Run},
		{"sleep", sleep.Run},
		{"sort", sort.Run},
		{"split", split.Run},
		{"sponge", sponge.Run},
		{"stat", stat.Run},
		{"stdbuf", stdbuf.Run},
		{"strings", stringscmd.Run},
		{"sum", sum.Run},
		{"sync", synccmd.Run},
		{"tac", tac.Run},
		{"tail", tail.Run},
		{"tee", tee.Run},
		{"test", test.Run},
		{"timeout", timeout.Run},
		{"touch", touch.Run},
		{"tr", tr.Run},
		{"tree", tree.Run},
		{"true", truecmd.Run},
		{"truncate", truncate.Run},
		{"tsort", tsort.Run},
		{"tty", tty.Run},
		{"uname", uname.Run},
		{"unexpand", unexpand.Run},
		{"uniq", uniq.Run},
		{"unlink", unlink.Run},
		{"unzip", unzip.Run},
		{"users", users.Run},
		{"uudecode", uu.Decode},
		{"uuencode", uu.Encode},
		{"vdir", ls.Run},
		{"wc", wc.Run},
		{"which", which.Run},
		{"who", who.Run},
		{"whoami", whoami.Run},
		{"xargs", xargs.Run},
		{"xxd", xxd.Run},
		{"yes", yes.Run},
		{"zcat", zcat.Run},
		{"zip", zip.Run},
	}
}

// Lean says whether name is one of leanCommands.
func Lean(name string) bool {
	for _, c := range leanCommands() {
		if c.name == name {
			return true
		}
	}
	return false
}
