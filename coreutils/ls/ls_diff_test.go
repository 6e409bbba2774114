package ls

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

const baseSetup = `
mkdir -p d1/sub d2 'sp ace' .hid
printf 'hello\n' > f1
printf '%5000s' x > big
printf '#!/bin/sh\n' > run.sh; chmod 755 run.sh
: > empty
printf x > d1/a; printf yy > d1/sub/b
printf z > .hidden
touch 'a b' "it's" v1.10 v1.9 v1.2 file.txt file.c README
for f in * .hid .hidden d1/* d1/sub/*; do touch -h -d '2024-01-02 03:04:05' "$f"; done
touch -d '2024-03-01 10:00:00' big
touch -d '2023-12-25 08:30:00' f1
touch -h -d '2024-01-02 03:04:05' .
`

const linkSetup = baseSetup + `
ln -s f1 link1; ln -s nowhere broken; ln -s d1 dlink
`

func TestAgainstGNU(t *testing.T) {
	cases := [][]string{
		{"ls"},
		{"ls", "-a"},
		{"ls", "-A"},
		{"ls", "-l"},
		{"ls", "-lA"},
		{"ls", "-lh"},
		{"ls", "-ls"},
		{"ls", "-s"},
		{"ls", "-sh"},
		{"ls", "-lt"},
		{"ls", "-ltr"},
		{"ls", "-lS"},
		{"ls", "-lSr"},
		{"ls", "-lX"},
		{"ls", "-1v"},
		{"ls", "-F"},
		{"ls", "-p"},
		{"ls", "-lF"},
		{"ls", "--file-type"},
		{"ls", "-R"},
		{"ls", "-lR"},
		{"ls", "-d", "d1", "f1"},
		{"ls", "-ld", "d1", "dlink"},
		{"ls", "d1", "f1", "d2"},
		{"ls", "-l", "d1", "f1", "d2"},
		{"ls", "dlink"},
		{"ls", "-l", "dlink"},
		{"ls", "-L", "-l", "dlink"},
		{"ls", "-H", "dlink"},
		{"ls", "-C"},
		{"ls", "-x"},
		{"ls", "-m"},
		{"ls", "-C", "-w", "30"},
		{"ls", "-x", "-w", "30"},
		{"ls", "-m", "-w", "30"},
		{"ls", "-Cs", "-w", "40"},
		{"ls", "-Q"},
		{"ls", "-lQ"},
		{"ls", "--quoting-style=shell-escape", "-C"},
		{"ls", "--quoting-style=shell", "-l"},
		{"ls", "--quoting-style=c-maybe", "-x"},
		{"ls", "-b"},
		{"ls", "-N"},
		{"ls", "--group-directories-first"},
		{"ls", "--group-directories-first", "-r"},
		{"ls", "-lg"},
		{"ls", "-lo"},
		{"ls", "-lG"},
		{"ls", "-g", "-o"},
		{"ls", "--full-time"},
		{"ls", "-l", "--time-style=long-iso"},
		{"ls", "-l", "--time-style=iso"},
		{"ls", "-l", "--time-style=+%Y/%m/%d"},
		{"ls", "-l", "--time-style=full-iso", "f1"},
		{"ls", "-I", "*.c", "-I", "v*"},
		{"ls", "--hide=*.txt"},
		{"ls", "-a", "--hide=*.txt"},
		{"ls", "-B"},
		{"ls", "nope"},
		{"ls", "nope", "f1"},
		{"ls", "-l", "nope", "d1"},
		{"ls", "--frob"},
		{"ls", "-y"},
		{"ls", "--sort=foo"},
		{"ls", "--sort=s"},
		{"ls", "--time=birth", "--sort=foo"},
		{"ls", "--format=commas"},
		{"ls", "--format=long", "d1"},
		{"ls", "-w", "x"},
		{"ls", "--block-size=K", "-l"},
		{"ls", "--block-size=1K", "-l"},
		{"ls", "--block-size=x", "-l"},
		{"ls", "-lk", "-s"},
		{"ls", "--si", "-ls"},
		{"ls", "-1", "--indicator-style=classify"},
		{"ls", "-lo1", "-g"},
		{"ls", "-1l"},
		{"ls", "-U", "-d", "f1", "d1", "empty"},
		{"ls", "-r"},
		{"ls", "-t"},
		{"ls", "--sort=width"},
		{"ls", "-l", "broken", "link1"},
		{"ls", "-lL", "link1"},
		{"ls", "-L", "broken"},
		{"ls", "-F", "d1/", "dlink"},
		{"ls", "--zero"},
		{"ls", "-l", "--time-style=foo"},
		{"ls", "--color=always"},
		{"ls", "-Z", "f1"},
		{"ls", "-lZ", "f1"},
		{"ls", "--author", "-l", "f1"},
		{"ls", "-lD", "d1"},
		{"ls", "-lD", "d1", "d2", "f1"},
		{"ls", "-D", "d1"},
		{"ls", "-lRD", "d1"},
	}
	for _, args := range cases {
		gnutest.Compare(t, "", Run, baseSetup, args...)
	}
	linkCases := [][]string{
		{"ls", "-l"},
		{"ls", "-F"},
		{"ls", "-lF"},
		{"ls", "--file-type"},
		{"ls", "-ld", "d1", "dlink"},
		{"ls", "dlink"},
		{"ls", "-l", "dlink"},
		{"ls", "-L", "-l", "dlink"},
		{"ls", "-H", "dlink"},
		{"ls", "-l", "broken", "link1"},
		{"ls", "-lL", "link1"},
		{"ls", "-L", "broken"},
		{"ls", "-F", "d1/", "dlink"},
		{"ls", "-p"},
		{"ls", "-lL"},
		{"ls", "-R"},
		{"ls", "--group-directories-first"},
		{"ls", "--group-directories-first", "-l"},
	}
	for _, args := range linkCases {
		gnutest.Compare(t, "links", Run, linkSetup, args...)
	}
}

const manySetup = `
for i in $(seq 1 40); do printf '%0*d' $i 0 > "file$i"; done
touch 'a very long file name that is wide' x y z 'ünïcödé' '日本語ファイル' $'tab\there'
mkdir dir1 dir2; chmod 1777 dir2; mkdir -m 777 ow; printf '#!/bin/sh\n' > exe; chmod +x exe; touch su; chmod u+s su
touch x.tar y.jpg
touch -d '2024-01-02 03:04:05' * .
`

func TestColumnsAgainstGNU(t *testing.T) {
	cases := [][]string{
		{"ls", "-C"},
		{"ls", "-x"},
		{"ls", "-m"},
		{"ls", "-C", "-w", "100"},
		{"ls", "-C", "-w", "0"},
		{"ls", "-x", "-w", "20"},
		{"ls", "-Cr"},
		{"ls", "-CS"},
		{"ls", "-Cs"},
		{"ls", "-CF", "-T", "0"},
		{"ls", "-C", "-T", "4"},
		{"ls", "-Cq"},
		{"ls", "-Cb"},
		{"ls", "-lb"},
		{"ls", "-1q"},
		{"ls", "-1"},
		{"ls", "-x", "--quoting-style=shell-escape"},
		{"ls", "-C", "--quoting-style=locale"},
		{"ls", "-m", "--quoting-style=clocale"},
		{"ls", "-l", "--color=always"},
		{"ls", "-F", "--color=always"},
		{"ls", "-C", "--color=always"},
		{"ls", "--sort=width", "-x"},
		{"ls", "-l", "--time-style=+%s %N|%e|%-d|%_H|%^b|%#a"},
	}
	for _, args := range cases {
		gnutest.Compare(t, "many", Run, manySetup, args...)
	}
	for _, args := range [][]string{{"ls", "--color=always"}, {"ls", "-lF", "--color"}, {"ls", "-Cw60", "--color=always"}} {
		gnutest.CompareEnv(t, "term", append(cmdtest.HostDiffEnv, "TERM=xterm"), Run, manySetup, args...)
		gnutest.CompareEnv(t, "lscolors", append(cmdtest.HostDiffEnv, "LS_COLORS=di=01;34:ex=32:*.tar=01;31:*.JPG=35:ow=4"), Run, manySetup, args...)
	}
	gnutest.CompareEnv(t, "columns", append(cmdtest.HostDiffEnv, "COLUMNS=50"), Run, manySetup, "ls", "-C")
	gnutest.CompareEnv(t, "columns", append(cmdtest.HostDiffEnv, "COLUMNS=50"), Run, manySetup, "ls", "-x", "-w", "70")
}
