package fileops_test

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/basename"
	"github.com/bashbox/bashbox/coreutils/dirname"
	"github.com/bashbox/bashbox/coreutils/install"
	"github.com/bashbox/bashbox/coreutils/truncate"
)

func TestTruncateDiff(t *testing.T) {
	tree := map[string]string{"f": "12345", "big": "0123456789abcdef", "d/": ""}
	runDiff(t, truncate.Run, []diffCase{
		{name: "abs", files: tree, args: []string{"truncate", "-s", "3", "f", "new"}},
		{name: "grow", files: tree, args: []string{"truncate", "-s", "+3", "f"}},
		{name: "shrink", files: tree, args: []string{"truncate", "-s", "-10", "f", "big"}},
		{name: "at most", files: tree, args: []string{"truncate", "-s", "<8", "f", "big"}},
		{name: "at least", files: tree, args: []string{"truncate", "-s", ">8", "f", "big"}},
		{name: "round down", files: tree, args: []string{"truncate", "-s", "/4", "f", "big"}},
		{name: "round up", files: tree, args: []string{"truncate", "-s", "%4", "f", "big"}},
		{name: "K", files: tree, args: []string{"truncate", "-s", "1K", "a", "-s", "1KB", "b"}},
		{name: "KiB", files: tree, args: []string{"truncate", "--size=2KiB", "a"}},
		{name: "kB", files: tree, args: []string{"truncate", "-s", "1kB", "a"}},
		{name: "c", files: tree, args: []string{"truncate", "-c", "-s", "2", "nope", "f"}},
		{name: "r", files: tree, args: []string{"truncate", "-r", "f", "big", "new"}},
		{name: "r rel", files: tree, args: []string{"truncate", "-r", "f", "-s", "+2", "big"}},
		{name: "r abs", files: tree, args: []string{"truncate", "-r", "f", "-s", "2", "big"}},
		{name: "r missing", files: tree, args: []string{"truncate", "-r", "nope", "big"}},
		{name: "o", files: tree, args: []string{"truncate", "-o", "-s", "1", "f"}},
		{name: "o alone", files: tree, args: []string{"truncate", "-o", "f"}},
		{name: "none", files: tree, args: []string{"truncate", "f"}},
		{name: "no file", files: tree, args: []string{"truncate", "-s", "1"}},
		{name: "bad", files: tree, args: []string{"truncate", "-s", "1x", "f"}},
		{name: "bad empty", files: tree, args: []string{"truncate", "-s", "", "f"}},
		{name: "bad sign", files: tree, args: []string{"truncate", "-s", "+-3", "f"}},
		{name: "two rel", files: tree, args: []string{"truncate", "-s", "<+3", "f"}},
		{name: "too big", files: tree, args: []string{"truncate", "-s", "99999999999999999999", "f"}},
		{name: "div zero", files: tree, args: []string{"truncate", "-s", "%0", "f"}},
		{name: "dir", files: tree, args: []string{"truncate", "-s", "0", "d", "f"}},
		{name: "no parent", files: tree, args: []string{"truncate", "-s", "0", "nodir/f"}},
	})
}

func TestInstallDiff(t *testing.T) {
	tree := map[string]string{"f": "x\n", "g": "y\n", "d/": "", "d/f": "old"}
	runDiff(t, install.Run, []diffCase{
		{name: "one", files: tree, args: []string{"install", "f", "h"}},
		{name: "v", files: tree, args: []string{"install", "-v", "f", "h"}},
		{name: "into dir", files: tree, args: []string{"install", "-v", "f", "g", "d"}},
		{name: "t", files: tree, args: []string{"install", "-v", "-t", "d", "f"}},
		{name: "m", files: tree, args: []string{"install", "-m", "644", "f", "h"}},
		{name: "m sym", files: tree, args: []string{"install", "-m", "u=rw,go=r", "f", "h"}},
		{name: "m plus", files: tree, args: []string{"install", "-m", "+x", "f", "h"}},
		{name: "m bad", files: tree, args: []string{"install", "-m", "bad", "f", "h"}},
		{name: "d", files: tree, args: []string{"install", "-v", "-d", "a/b", "c", "d"}},
		{name: "d m", files: tree, args: []string{"install", "-d", "-m", "700", "a/b"}},
		{name: "d file", files: tree, args: []string{"install", "-d", "f"}},
		{name: "D", files: tree, args: []string{"install", "-vD", "f", "x/y/z"}},
		{name: "Dt", files: tree, args: []string{"install", "-D", "-t", "q/r", "f", "g"}},
		{name: "p", files: tree, args: []string{"install", "-p", "f", "h"}},
		{name: "C same", files: map[string]string{"f": "x", "g": "x"}, args: []string{"install", "-vC", "-m", "666", "f", "g"}},
		{name: "C diff", files: map[string]string{"f": "x", "g": "y"}, args: []string{"install", "-vC", "f", "g"}},
		{name: "same", files: tree, args: []string{"install", "f", "f"}},
		{name: "missing", files: tree, args: []string{"install", "nope", "h"}},
		{name: "dir src", files: tree, args: []string{"install", "d", "h"}},
		{name: "none", files: tree, args: []string{"install"}},
		{name: "one op", files: tree, args: []string{"install", "f"}},
		{name: "many not dir", files: tree, args: []string{"install", "f", "g", "h"}},
	})
}

func TestBasenameDirnameDiff(t *testing.T) {
	var cases []diffCase
	for _, args := range [][]string{
		{"basename", "/usr/bin/sort"}, {"basename", "include/stdio.h", ".h"}, {"basename", "-s", ".h", "a/x.h", "b.h", ".h"},
		{"basename", "-a", "a/", "//", "/", "", "a//b//"}, {"basename", "stdio.h", "stdio.h"}, {"basename", "-z", "a/b"},
		{"basename"}, {"basename", "a", "b", "c"}, {"basename", "--suffix=.c", "x.c"}, {"basename", "-a"},
	} {
		cases = append(cases, diffCase{name: "b" + args[len(args)-1], args: args})
	}
	runDiff(t, basename.Run, cases)
	cases = nil
	for _, args := range [][]string{
		{"dirname", "/usr/bin/"}, {"dirname", "a", "a/b", "/a", "/", "//", "a//b//", "a/./b", "", "///x"}, {"dirname", "-z", "a/b", "c"}, {"dirname"},
	} {
		cases = append(cases, diffCase{name: "d" + args[len(args)-1], args: args})
	}
	runDiff(t, dirname.Run, cases)
}
