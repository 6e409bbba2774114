package file

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

const setup = `
: > empty; printf 'hello\n' > ascii; printf 'hello' > noeol; printf 'a\r\nb\r\n' > crlf; printf 'a\rb\r' > cr
printf 'a\r\nb\n' > mixed; printf 'héllo\n' > utf8; printf '\xef\xbb\xbfhi\n' > bom; printf 'h\xe9llo\n' > latin1
printf '\x80\x81abc' > ext; printf 'é\r\n' > utf8crlf; printf '\xff\xfeh\x00i\x00\n\x00' > u16
printf '#!/bin/sh\necho hi\n' > sh; printf '#!/bin/bash\necho\n' > bash; printf '#!/usr/bin/env python3\nprint(1)\n' > py
printf '#!/usr/bin/env node\n' > node; printf '#!/usr/bin/perl\n' > perl; printf '#!/usr/bin/env bash\n' > envbash
printf '#!/bin/sh\r\necho\r\n' > shcrlf; printf '#!/usr/bin/foo\nx\n' > foo; printf '#!/usr/bin/env foo\n' > envfoo
printf '#!/bin/zsh\n' > zsh; printf '#!/usr/bin/awk -f\n' > awk; printf '#!/usr/bin/env ruby\n' > rb; printf '#! /bin/sh\n' > shsp
printf '{"a": 1}\n' > j.json; printf '[1,2]\n' > arr; printf '{}' > jempty; printf '{"a":\n' > badjson; printf '1\n' > num
printf '<?xml version="1.0"?>\n<a/>\n' > x.xml; printf '<!DOCTYPE html>\n<html></html>\n' > h.html; printf '<html>\r\n' > hcrlf
printf '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n' > s.svg
printf '\x00\x01\x02\x03' > bin; printf '%0301d\n' 0 > long301; printf '%0300d\n' 0 > long300
printf 'a\tb\n' > tab; printf 'a\x1bb\n' > esc; printf 'a\x08b\n' > bs; printf 'x\n\x00' > nul
printf 'diff --git a/x b/x\n' > p.diff; printf -- '--- a\n+++ b\n@@ -1 +1 @@\n' > p2.diff
printf '#include <stdio.h>\nint main(){}\n' > c.c; printf 'def f():\n    pass\n' > b.py
printf 'BZh91AY' > bz; printf '\xfd7zXZ\x00\x00\x04' > a.xz; printf '\x28\xb5\x2f\xfd\x04\x00' > z.zst
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x20\x08\x06\x00\x00\x00' > p.png
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x00\x80\x08\x02\x00\x00\x01' > p2.png
printf '\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00' > j.jpg
printf 'GIF89a\x01\x00\x01\x00\x80\x00\x00' > g.gif; printf 'GIF87a\x0a\x00\x14\x00' > g87
printf '%%PDF-1.4\n' > d.pdf; printf '%%!PS-Adobe-3.0\n' > ps; printf '\x00asm\x01\x00\x00\x00' > w.wasm
printf "7z\xbc\xaf\x27\x1c\x00\x04" > s.7z; printf '!<arch>\n' > a.a; printf 'RIFF\x00\x00\x00\x00WEBPVP8 ' > w.webp
printf 'PK\x03\x04' > pk; printf 'MZ\x90\x00' > mz; printf '\x7fELF' > elfshort
printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x3e\x00' > elfobj
printf 'hello\n' > g; gzip -n g; printf 'hello\n' > named; gzip named; mv named.gz named.gz.keep
printf 'hello\n' > zz; tar cf t.tar zz; bzip2 -k zz; rm zz
mkdir dir; ln -s ascii lnk; ln -s nope broken; mkfifo fifo
`

func TestAgainstGNU(t *testing.T) {
	names := []string{"empty", "ascii", "noeol", "crlf", "cr", "mixed", "utf8", "bom", "latin1", "ext", "utf8crlf", "u16",
		"sh", "bash", "py", "node", "perl", "envbash", "shcrlf", "foo", "envfoo", "zsh", "awk", "rb", "shsp",
		"j.json", "arr", "jempty", "badjson", "num", "x.xml", "h.html", "hcrlf", "s.svg", "bin", "long301", "long300",
		"tab", "esc", "bs", "nul", "p.diff", "p2.diff", "c.c", "b.py", "bz", "a.xz", "z.zst", "p.png", "p2.png", "j.jpg",
		"g.gif", "g87", "d.pdf", "ps", "w.wasm", "s.7z", "a.a", "w.webp", "pk", "mz", "elfshort", "elfobj", "g.gz",
		"t.tar", "zz.bz2", "dir", "lnk", "broken", "nope"}
	gnutest.Compare(t, "", Run, setup, append([]string{"file"}, names...)...)
	var mimeNames []string
	for _, n := range names {
		if n != "elfshort" {
			mimeNames = append(mimeNames, n)
		}
	}
	gnutest.Compare(t, "mime", Run, setup, append([]string{"file", "-i"}, mimeNames...)...)
	for _, args := range [][]string{
		{"file", "-b", "ascii"},
		{"file", "--mime-type", "ascii", "sh"},
		{"file", "--mime-encoding", "ascii", "bin", "latin1"},
		{"file", "-N", "ascii", "utf8"},
		{"file", "-F", "|", "ascii"},
		{"file", "-0", "ascii"},
		{"file", "-L", "lnk", "broken"},
		{"file", "-bL", "lnk"},
		{"file"},
		{"file", "--frob"},
		{"file", "/dev/null"},
	} {
		gnutest.Compare(t, "", Run, setup, args...)
	}
}

func TestStdin(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hi\n"}).Run(Run, "file", "-")
	if r.Stdout != "/dev/stdin: ASCII text\n" {
		t.Errorf("file -: %q", r.Stdout)
	}
}
