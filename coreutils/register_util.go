package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/arch"
	"github.com/bashbox/bashbox/coreutils/b2sum"
	"github.com/bashbox/bashbox/coreutils/base32"
	"github.com/bashbox/bashbox/coreutils/base64"
	"github.com/bashbox/bashbox/coreutils/bc"
	"github.com/bashbox/bashbox/coreutils/cksum"
	"github.com/bashbox/bashbox/coreutils/date"
	"github.com/bashbox/bashbox/coreutils/expr"
	"github.com/bashbox/bashbox/coreutils/factor"
	"github.com/bashbox/bashbox/coreutils/getconf"
	"github.com/bashbox/bashbox/coreutils/hostname"
	"github.com/bashbox/bashbox/coreutils/id"
	"github.com/bashbox/bashbox/coreutils/md5sum"
	"github.com/bashbox/bashbox/coreutils/mkfifo"
	"github.com/bashbox/bashbox/coreutils/nproc"
	"github.com/bashbox/bashbox/coreutils/numfmt"
	printfcmd "github.com/bashbox/bashbox/coreutils/printf"
	"github.com/bashbox/bashbox/coreutils/sha1sum"
	"github.com/bashbox/bashbox/coreutils/sha224sum"
	"github.com/bashbox/bashbox/coreutils/sha256sum"
	"github.com/bashbox/bashbox/coreutils/sha384sum"
	"github.com/bashbox/bashbox/coreutils/sha512sum"
	"github.com/bashbox/bashbox/coreutils/shuf"
	"github.com/bashbox/bashbox/coreutils/sum"
	synccmd "github.com/bashbox/bashbox/coreutils/sync"
	"github.com/bashbox/bashbox/coreutils/tsort"
	"github.com/bashbox/bashbox/coreutils/tty"
	"github.com/bashbox/bashbox/coreutils/uname"
	"github.com/bashbox/bashbox/coreutils/users"
	"github.com/bashbox/bashbox/coreutils/who"
	"github.com/bashbox/bashbox/coreutils/whoami"
)

// registerUtil adds the remaining utilities: base64 base32; md5sum
// sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum; shuf
// expr bc date printf (the /usr/bin one: the shell's builtin comes first)
// numfmt tsort factor; whoami id hostname uname arch nproc getconf tty
// mkfifo sync users who.
func registerUtil(r *builtins.Registry) {
	r.Register("base64", base64.Run)
	r.Register("base32", base32.Run)

	r.Register("md5sum", md5sum.Run)
	r.Register("sha1sum", sha1sum.Run)
	r.Register("sha224sum", sha224sum.Run)
	r.Register("sha256sum", sha256sum.Run)
	r.Register("sha384sum", sha384sum.Run)
	r.Register("sha512sum", sha512sum.Run)
	r.Register("b2sum", b2sum.Run)
	r.Register("cksum", cksum.Run)
	r.Register("sum", sum.Run)

	r.Register("shuf", shuf.Run)
	r.Register("expr", expr.Run)
	r.Register("bc", bc.Run)
	r.Register("date", date.Run)
	r.Register("printf", printfcmd.Run)
	r.Register("numfmt", numfmt.Run)
	r.Register("tsort", tsort.Run)
	r.Register("factor", factor.Run)

	r.Register("whoami", whoami.Run)
	r.Register("id", id.Run)
	r.Register("hostname", hostname.Run)
	r.Register("uname", uname.Run)
	r.Register("arch", arch.Run)
	r.Register("nproc", nproc.Run)
	r.Register("getconf", getconf.Run)
	r.Register("tty", tty.Run)
	r.Register("mkfifo", mkfifo.Run)
	r.Register("sync", synccmd.Run)
	r.Register("users", users.Run)
	r.Register("who", who.Run)
}
