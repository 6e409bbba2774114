package coreutils

import "slices"

// heavyNames are the names of heavyCommands (commands.go), sorted: the
// lean front binary, which does not link them, has an entry for each that
// fails loudly, so that /bin, type and command -v read the same in both
// builds. TestNames keeps this list and the table in step.
var heavyNames = []string{
	"awk", "b2sum", "bc", "bunzip2", "bzcat", "bzcmp", "bzdiff", "bzegrep", "bzfgrep", "bzgrep",
	"bzip2", "cksum", "dc", "factor", "fd", "file", "gawk", "getconf", "git", "hd", "hexdump",
	"iconv", "jq", "lzcat", "lzma", "mawk", "rg", "sqlite3", "tar", "unlzma", "unxz",
	"unzstd", "xz", "xzcat", "xzcmp", "xzdiff", "xzegrep", "xzfgrep", "xzgrep", "yq",
	"zcmp", "zdiff", "zegrep", "zfgrep", "zgrep", "zstd", "zstdcat",
}

// Known says whether name is a command of the full table.
func Known(name string) bool {
	_, heavy := slices.BinarySearch(heavyNames, name)
	return heavy || Lean(name)
}
