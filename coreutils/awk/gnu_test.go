package awk

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// gnuCase runs the same command line through bashbox's awk and the real
// GNU awk (invoked as "awk"), over the same files.
type gnuCase struct {
	name  string
	args  []string
	files map[string]string
	stdin string
}

var inputFiles = map[string]string{
	"data.txt":  "alice 30 london\nbob 25 paris\ncarol 35 berlin\ndave 28 paris\n",
	"nums.txt":  "3\n1.5\n-2\n10\n",
	"csv.txt":   "id,name,score\n1,ann,9.5\n2,ben,7\n3,cid,8.25\n",
	"a.txt":     "k1 a\nk2 b\nk3 c\n",
	"b.txt":     "k2 B\nk3 C\nk4 D\n",
	"para.txt":  "p1 l1\np1 l2\n\n\np2 l1\n\np3 l1\np3 l2\n",
	"prog.awk":  "# sum the second column\n{ s += $2 }\nEND { print \"sum\", s }\n",
	"bad.awk":   "BEGIN {\n  x = 1\n  print x +* 2\n}\n",
	"mixed.txt": "  lead  and   trail  \n\tTab\tsep\n",
	"utf.txt":   "héllo wörld\nçà\n",
}

var gnuCases = []gnuCase{
	{name: "print fields", args: []string{"{print $1, $3}", "data.txt"}},
	{name: "NF NR", args: []string{"{print NR, NF, $NF}", "data.txt"}},
	{name: "sum", args: []string{"{s += $2} END {print s, s/NR}", "data.txt"}},
	{name: "FS option", args: []string{"-F,", "NR>1 {print $2 \":\" $3}", "csv.txt"}},
	{name: "FS in BEGIN", args: []string{"BEGIN{FS=\",\"} {print $1}", "csv.txt"}},
	{name: "FS tab escape", args: []string{"-F\\t", "{print $2}"}, stdin: "a\tb\tc\n"},
	{name: "OFS rebuild", args: []string{"BEGIN{OFS=\"-\"} {$1=$1; print}", "data.txt"}},
	{name: "assign field", args: []string{"{$2 = $2 * 2} 1", "data.txt"}},
	{name: "NF grow", args: []string{"{$5 = \"x\"; print; print NF}"}, stdin: "a b\n"},
	{name: "NF shrink", args: []string{"{NF = 2; print}", "data.txt"}},
	{name: "pattern regex", args: []string{"/paris/", "data.txt"}},
	{name: "pattern range", args: []string{"/bob/,/carol/ {print NR}", "data.txt"}},
	{name: "NR==FNR join", args: []string{"NR==FNR {a[$1]=$2; next} $1 in a {print $1, a[$1], $2}", "a.txt", "b.txt"}},
	{name: "FILENAME FNR", args: []string{"{print FILENAME, FNR, NR}", "a.txt", "b.txt"}},
	{name: "FILENAME stdin", args: []string{"BEGIN{print \"[\" FILENAME \"]\"} {print \"[\" FILENAME \"]\"} END{print FILENAME}"}, stdin: "x\n"},
	{name: "dash operand", args: []string{"{print FILENAME \":\" $0}", "a.txt", "-"}, stdin: "from stdin\n"},
	{name: "operand assignment", args: []string{"{print x, $1}", "x=1", "a.txt", "x=2", "b.txt"}},
	{name: "v escapes", args: []string{"-v", "s=a\\tb\\n", "BEGIN{printf \"[%s]\", s}"}},
	{name: "v numeric", args: []string{"-v", "n=010", "BEGIN{print n+1, (n == 10)}"}},
	{name: "ARGV", args: []string{"BEGIN{for (i = 0; i < ARGC; i++) print i, ARGV[i]}", "a.txt", "x=1"}},
	{name: "ARGV modified", args: []string{"BEGIN{ARGV[1]=\"b.txt\"} {print}", "a.txt"}},
	{name: "ARGV added", args: []string{"BEGIN{ARGV[ARGC++]=\"b.txt\"} {print FILENAME, $1}", "a.txt"}},
	{name: "ARGV cleared", args: []string{"BEGIN{ARGV[1]=\"\"} {print \"in:\" $0}", "a.txt"}, stdin: "s\n"},
	{name: "numbers", args: []string{"BEGIN{print 0.1+0.2, 1/3, 100000, 1e6, 1e16, 123456789012, 2^53, -0, 3.0, 1e-5}"}},
	{name: "CONVFMT", args: []string{"BEGIN{CONVFMT=\"%.2g\"; x = 3.14159; y = x \"\"; print y; print x}"}},
	{name: "OFMT", args: []string{"BEGIN{OFMT=\"%.2f\"; x = 3.14159; print x, x \"\"; print 17}"}},
	{name: "OFMT redirect", args: []string{"BEGIN{OFMT=\"%.2f\"; print 3.14159, 2 > \"/dev/stdout\"}"}},
	{name: "printf formats", args: []string{"BEGIN{printf \"%5.2f|%-10s|%x|%o|%e|%i|%5d|%-5d|%c|%c|%%\\n\", 3.14159, \"ab\", 255, 8, 12345.678, 42.9, 7, 7, 65, \"hello\"}"}},
	{name: "printf c unicode", args: []string{"BEGIN{printf \"%c%c\\n\", 256, 233}"}},
	{name: "printf star", args: []string{"BEGIN{printf \"%*d|%-*s|%.*f\\n\", 5, 42, 4, \"x\", 2, 3.14159}"}},
	{name: "substr", args: []string{"BEGIN{s=\"hello\"; print substr(s,2,3), substr(s,0,2), substr(s,-1), substr(s,4), substr(s,10), \"[\" substr(s,2,-1) \"]\", substr(s,1.5,2)}"}},
	{name: "length", args: []string{"{print length(), length, length($1)}", "data.txt"}},
	{name: "length array", args: []string{"BEGIN{a[1];a[2];a[\"x\"]; print length(a); n = split(\"a:b:c\", b, \":\"); print n, length(b)}"}},
	{name: "length utf8", args: []string{"{print length($0), substr($0, 2, 3), index($0, \"w\"), toupper($0)}", "utf.txt"}},
	{name: "index match", args: []string{"BEGIN{print index(\"foobar\",\"bar\"), match(\"foobar\", /o+/), RSTART, RLENGTH, match(\"x\", /z/), RSTART, RLENGTH}"}},
	{name: "tolower toupper", args: []string{"BEGIN{print tolower(\"HeLLo 123\"), toupper(\"HeLLo 123\")}"}},
	{name: "sub gsub", args: []string{"{n = gsub(/a/, \"[&]\"); sub(/o/, \"\\\\&\"); print n, $0}", "data.txt"}},
	{name: "gsub field", args: []string{"{gsub(/[aeiou]/, \"_\", $1); print; print $1}", "data.txt"}},
	{name: "gsub empty match", args: []string{"BEGIN{s = \"abc\"; gsub(//, \"-\", s); print s; t = \"hello\"; gsub(/x*/, \"-\", t); print t}"}},
	{name: "dynamic regex", args: []string{"BEGIN{re = \"^b\"} $0 ~ re {print} $1 ~ \"o\" {print \"o:\" $1}", "data.txt"}},
	{name: "split regex", args: []string{"BEGIN{n = split(\"a1b22c333d\", p, /[0-9]+/); for (i = 1; i <= n; i++) printf \"%s \", p[i]; print n}"}},
	{name: "split default", args: []string{"BEGIN{n = split(\"  a  b c  \", p); print n, p[1], p[3]; n = split(\"\", q); print n, length(q)}"}},
	{name: "uninitialised", args: []string{"BEGIN{print x+0, \"[\" x \"]\", length(x), (x == 0), (x == \"\")}"}},
	{name: "string number compare", args: []string{"{print ($1 < $2), ($1 < 10)}"}, stdin: "9 10\nabc 10\n"},
	{name: "getline var file", args: []string{"BEGIN{while ((getline line < \"a.txt\") > 0) n++; print n, line; close(\"a.txt\"); getline line < \"a.txt\"; print line}"}},
	{name: "getline file sets fields", args: []string{"NR==1{getline < \"b.txt\"; print $0, NF, NR, FNR, $2}", "a.txt"}},
	{name: "getline numeric", args: []string{"BEGIN{getline x < \"nums.txt\"; getline y < \"nums.txt\"; print (x < y), (x == 3)}"}},
	{name: "getline missing", args: []string{"BEGIN{print (getline l < \"nope.txt\"); print \"[\" l \"]\"}"}},
	{name: "plain getline", args: []string{"{getline; print \"after:\", $0, NR}", "data.txt"}},
	{name: "getline var main", args: []string{"NR==1{getline v; print v, NR, $0}", "data.txt"}},
	{name: "getline in BEGIN", args: []string{"BEGIN{getline; print \"first:\", $1} {print NR, $1}", "a.txt"}},
	{name: "paragraph mode", args: []string{"BEGIN{RS=\"\"} {print NR \": \" $1 \"|\" $NF \"|\" NF}", "para.txt"}},
	{name: "RS char", args: []string{"BEGIN{RS=\";\"} {print NR \"=\" $0}"}, stdin: "a;b;c\n"},
	{name: "RS regex", args: []string{"BEGIN{RS=\"[0-9]+\"} {print NR \"=\" $0}"}, stdin: "a1b22c"},
	{name: "print redirect", args: []string{"{print $1 > \"out.txt\"} END{close(\"out.txt\"); while ((getline l < \"out.txt\") > 0) print \"got\", l}", "a.txt"}},
	{name: "print append", args: []string{"BEGIN{print \"one\" > \"o.txt\"; close(\"o.txt\"); print \"two\" >> \"o.txt\"; close(\"o.txt\"); while ((getline l < \"o.txt\") > 0) print l}"}},
	{name: "stderr", args: []string{"BEGIN{print \"to err\" > \"/dev/stderr\"; print \"to out\"}"}},
	{name: "exit code", args: []string{"BEGIN{exit 3} END{print \"end ran\"}"}},
	{name: "exit in END", args: []string{"{n++} END{print n; exit n}", "data.txt"}},
	{name: "exit in main", args: []string{"NR==2{exit} {print} END{print \"end\", NR}", "data.txt"}},
	{name: "next", args: []string{"/bob/{next} {print $1}", "data.txt"}},
	{name: "functions", args: []string{"function fact(n) { return n <= 1 ? 1 : n * fact(n-1) } function fill(arr, n,   i) { for (i = 1; i <= n; i++) arr[i] = i*i } BEGIN{print fact(10); fill(sq, 4); for (i = 1; i <= 4; i++) printf \"%d \", sq[i]; print \"\"}"}},
	{name: "delete", args: []string{"BEGIN{a[1];a[2];a[3]; delete a[2]; print length(a), (2 in a), (3 in a); delete a; print length(a)}"}},
	{name: "multi subscripts", args: []string{"BEGIN{a[1,2] = 3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2], a[k] }; if ((1,2) in a) print \"yes\"}"}},
	{name: "while do for", args: []string{"BEGIN{i = 0; while (i < 3) i++; do { i-- } while (i > 1); for (j = 0; j < 3; j++) { if (j == 1) continue; printf \"%d\", j }; print \"\", i}"}},
	{name: "printf redirect", args: []string{"BEGIN{printf \"%03d\\n\", 7 > \"p.txt\"; close(\"p.txt\"); getline l < \"p.txt\"; print l}"}},
	{name: "regex classes", args: []string{"/^[[:upper:]]/ {print \"U:\" $0} /[[:digit:]]{2}/ {print \"D:\" $0}"}, stdin: "Abc\nx12\nyz\n"},
	{name: "ENVIRON", args: []string{"BEGIN{print ENVIRON[\"HOME\"]}"}},
	{name: "srand rand deterministic", args: []string{"BEGIN{srand(1); x = rand(); print (x >= 0 && x < 1)}"}},
	{name: "int and math", args: []string{"BEGIN{print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), atan2(0, -1), sin(0), cos(0), 7 % 3, -7 % 3, 2 ** 10, 2 ^ 0.5}"}},
	{name: "increment ops", args: []string{"BEGIN{x = 1; print x++, x, ++x, x--, --x; y += 5; y -= 1; y *= 3; y /= 2; y %= 4; y ^= 2; print y}"}},
	{name: "in operator", args: []string{"BEGIN{a[\"x\"] = 1; print (\"x\" in a), (\"y\" in a); for (k in a) print k}"}},
	{name: "string escapes", args: []string{"BEGIN{print \"a\\tb\\\\c\\\"d\\101\"}"}},
	{name: "regex escapes", args: []string{"{gsub(/\\./, \"!\"); gsub(/\\//, \"|\"); print}"}, stdin: "a.b/c.d\n"},
	{name: "field separator regex", args: []string{"-F", "[:;]+", "{print $2, NF}"}, stdin: "a::b;c\n"},
	{name: "field separator single space", args: []string{"-F", " ", "{print $1 \"|\" $2}", "mixed.txt"}},
	{name: "FS single char", args: []string{"-F", "|", "{print $2}"}, stdin: "a|b|c\n"},
	{name: "empty FS chars", args: []string{"BEGIN{FS=\"\"} {print NF, $2}"}, stdin: "abc\n"},
	{name: "progfile", args: []string{"-f", "prog.awk", "data.txt"}},
	{name: "progfile syntax error", args: []string{"-f", "bad.awk"}},
	{name: "syntax error", args: []string{"BEGIN { print 1 +* }"}},
	{name: "unterminated string", args: []string{"BEGIN { print \"x }"}},
	{name: "unexpected end", args: []string{"BEGIN { if (1) print \"x\" "}},
	{name: "division by zero", args: []string{"BEGIN{x = 0; print 1/x}"}},
	{name: "mod by zero", args: []string{"BEGIN{x = 0; print 1%x}"}},
	{name: "missing file", args: []string{"{print}", "a.txt", "nope.txt", "b.txt"}},
	{name: "missing progfile", args: []string{"-f", "nope.awk"}},
	{name: "double dash", args: []string{"--", "{print $2}", "a.txt"}},
	{name: "version like options after program", args: []string{"{print}", "-F:"}},
	{name: "close return", args: []string{"BEGIN{print close(\"never\")}"}},
	{name: "print parens", args: []string{"BEGIN{print(1,2); print (1)(2); print(\"a\" > \"b\")}"}},
	{name: "regex as value", args: []string{"{x = /b/; print x}"}, stdin: "abc\nxyz\n"},
	{name: "compare fields numerically", args: []string{"$2 > 27", "data.txt"}},
	{name: "concat number formatting", args: []string{"BEGIN{x = 0.1; y = x * 3; print y \"\", y; z = 1e15; print z, z \"\"}"}},
	{name: "gensub", args: []string{"BEGIN{print gensub(/(a)(b)/, \"<\\\\2\\\\1>\", \"g\", \"abcab\"); print gensub(/o/, \"0\", 2, \"foo boo\")}"}},
	{name: "gensub default target", args: []string{"{print gensub(/[0-9]+/, \"#\", \"g\")}"}, stdin: "a1b22\n"},
	{name: "bitwise", args: []string{"BEGIN{print and(12, 10), or(12, 10), xor(12, 10), lshift(1, 4), rshift(256, 2)}"}},
	{name: "strftime utc", args: []string{"BEGIN{print strftime(\"%Y-%m-%d %H:%M:%S\", 86400 * 365, 1)}"}},
	{name: "uninitialized in numeric context output", args: []string{"{c[$3]++} END{n = 0; for (k in c) n += c[k]; print n, c[\"paris\"]}", "data.txt"}},
	{name: "substr float", args: []string{"BEGIN{print substr(\"abcdef\", 2.5, 2.4), substr(\"abcdef\", 0.5)}"}},
	{name: "printf no newline", args: []string{"BEGIN{printf \"x\"}"}},
	{name: "print empty", args: []string{"BEGIN{print; print \"\"}"}, stdin: "ignored\n"},
	{name: "nextfile", args: []string{"FNR==2{nextfile} {print FILENAME, $1}", "a.txt", "b.txt"}},
	{name: "getline from dash", args: []string{"BEGIN{while ((getline l < \"-\") > 0) print \"L:\" l}"}, stdin: "1\n2\n"},
	{name: "assignment operand before stdin", args: []string{"{print v, $0}", "v=7"}, stdin: "in\n"},
	{name: "fflush", args: []string{"BEGIN{print \"a\"; fflush(); print \"b\"; fflush(\"/dev/stdout\")}"}},
	{name: "dollar expression", args: []string{"{i = 2; print $i, $(i+1), $NF, $(NF-1)}", "data.txt"}},
	{name: "whitespace program", args: []string{"\n\n{ print $1 }\n\n", "a.txt"}},
	{name: "semicolon rules", args: []string{"{ a = $1 }; { print a }", "a.txt"}},
	{name: "comment and continuation", args: []string{"BEGIN { x = 1 + \\\n 2 # comment\nprint x }"}},
}

func TestAgainstGNU(t *testing.T) {
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		t.Skip("gawk not installed")
	}
	for _, tc := range gnuCases {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = inputFiles
			}
			dir := t.TempDir()
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(gawk)
			cmd.Args = append([]string{"awk"}, tc.args...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C.UTF-8", "HOME=/home/user", "PATH=/usr/bin:/bin"}
			cmd.Stdin = bytes.NewReader([]byte(tc.stdin))
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			code := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				code = ee.ExitCode()
			}
			env := cmdtest.Env{Files: files, Stdin: tc.stdin, Env: []string{"LC_ALL=C.UTF-8", "HOME=/home/user", "PATH=/usr/bin:/bin"}}
			r := env.Run(Run, append([]string{"awk"}, tc.args...)...)
			if r.Stdout != out.String() || r.Stderr != errb.String() || r.Code != code {
				t.Errorf("args %q\n gawk: code %d stdout %q stderr %q\n ours: code %d stdout %q stderr %q",
					tc.args, code, out.String(), errb.String(), r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}
