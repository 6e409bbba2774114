package coreutils

import "slices"

// names are the names of every command of the full table (commands.go),
// sorted. The lean front's table (commands_front.go) has an entry for
// each, so that /bin, type and command -v read the same in both builds;
// TestNames keeps this list and the full table in step.
var names = []string{
	"[", "arch", "awk", "b2sum", "base32", "base64", "basename", "basenc", "bc", "bunzip2",
	"bzcat", "bzcmp", "bzdiff", "bzegrep", "bzfgrep", "bzgrep", "bzip2", "cal", "cat",
	"chgrp", "chmod", "chown", "cksum", "cmp", "col", "colrm", "column", "comm", "cp",
	"csplit", "cut", "date", "dc", "dd", "df", "diff", "diff3", "dir", "dirname", "du",
	"echo", "egrep", "env", "envsubst", "expand", "expr", "factor", "false", "fd", "fgrep",
	"file", "find", "fmt", "fold", "gawk", "getconf", "getopt", "git", "grep", "groups",
	"gunzip", "gzip", "hd", "head", "hexdump", "hostid", "hostname", "iconv", "id",
	"install", "join", "jq", "link", "ln", "logname", "look", "ls", "lzcat", "lzma", "mawk",
	"md5sum", "mkdir", "mkfifo", "mktemp", "mv", "ncal", "nice", "nl", "nohup", "nproc",
	"numfmt", "od", "paste", "patch", "pathchk", "pr", "printenv", "printf", "readlink",
	"realpath", "rev", "rg", "rm", "rmdir", "sdiff", "sed", "seq", "sha1sum", "sha224sum",
	"sha256sum", "sha384sum", "sha512sum", "shuf", "sleep", "sort", "split", "sponge",
	"sqlite3", "stat", "stdbuf", "strings", "sum", "sync", "tac", "tail", "tar", "tee",
	"test", "timeout", "touch", "tr", "tree", "true", "truncate", "tsort", "tty", "uname",
	"unexpand", "uniq", "unlink", "unlzma", "unxz", "unzip", "unzstd", "users", "uudecode",
	"uuencode", "vdir", "wc", "which", "who", "whoami", "xargs", "xxd", "xz", "xzcat",
	"xzcmp", "xzdiff", "xzegrep", "xzfgrep", "xzgrep", "yes", "yq", "zcat", "zcmp", "zdiff",
	"zegrep", "zfgrep", "zgrep", "zip", "zstd", "zstdcat",
}

// Known says whether name is a command of the full table.
func Known(name string) bool {
	_, found := slices.BinarySearch(names, name)
	return found
}
