package sed_test

import (
	"math/rand"
	"os"
	"strings"
	"testing"
)

// seed derives the random seed from SED_FUZZ.
func seed() int64 {
	var n int64
	for _, c := range os.Getenv("SED_FUZZ") {
		n = n*31 + int64(c)
	}
	return n
}

// TestFuzzDiff compares random scripts (random addresses, commands,
// blocks, options and inputs) with GNU sed. It runs only when SED_FUZZ is
// set (its value picks the seed): SED_FUZZ=x go test -run FuzzDiff.
func TestFuzzDiff(t *testing.T) {
	if os.Getenv("SED_FUZZ") == "" {
		t.Skip()
	}
	realSed(t)
	r := rand.New(rand.NewSource(seed()))
	addrs := []string{"0~3", "$!N;", "n;", "/a/,+1", "2,1", "/b/,3", "1,/a/", "0,/b/", "/a/,$", "", "", "", "1", "2", "$", "/a/", "/b/", "2,3", "/a/,/b/", "1~2", "0,/a/", "2,+1", "3,~2", "$!", "/a/!", "/^$/", "1,$", "2!", "/a/I", "/x/,+2"}
	cmds := []string{"p", "d", "D", "n", "N", "P", "g", "G", "h", "H", "x", "=", "l", "z", "q", "Q3",
		"s/a/X/", "s/a/X/g", "s/b*/-/g", "s/\\(a\\)\\(.\\)/\\2\\1/", "s/^/>/", "s/$/</", "s/a/\\n/", "s/.*/\\U&/",
		"y/ab/ba/", "a foo", "i bar", "c baz", "$!N", "/a/b", "b", "t", "T", "s/x/y/;ta;s/$/!/;:a", "r rfile", "R rfile", "w wout", "F", "s/a//2",
		"s/a/&&/2g", "s/A/y/Ig", "s/^a/Z/Mg", "s/a$/E/M", "s/\\(.\\)$/[\\1]/p", "l 3", "l 0", "W /dev/stdout", "w /dev/stdout",
		"s/[ab]/\\u&/g", "s/\\n/|/g", "D", "$!D", "N;P;D", "y/abx/xba/", "s/.*/\\L&\\E!/", "c\\\nmulti", "i\\", "a\\", "q5", "z;s/^/empty/", "x;G", "H;x", "s/(a)/<\\1>/", "s/a|b/OR/g", "s/\\w+$/W/", "/a/,/b/{=;p}", "n;n;2,3p", "N;N;/a/,4d", "1!G;h;$!d", "/[ab]/I!d"}
	inputs := []string{"a\x00b\na\x00", "A\na\nB\nb\n", "a\nb\nc\n", "ab\nba\n\naa\nb", "abc\n", "x\na\nb\na\nb\nx\n", "", "aaa\nbbb\nab ab\n", "\n\n\n"}
	var cases []dcase
	n := 2000
	for i := 0; i < n; i++ {
		k := 1 + r.Intn(4)
		var parts []string
		for j := 0; j < k; j++ {
			a := addrs[r.Intn(len(addrs))]
			cmd := cmds[r.Intn(len(cmds))]
			if strings.ContainsAny(cmd[:1], "aicrRwW") || strings.Contains(cmd, "w ") || strings.Contains(cmd, "W ") {
				parts = append(parts, a+cmd+"\n")
			} else {
				parts = append(parts, a+cmd+";")
			}
		}
		if r.Intn(3) == 0 && len(parts) > 1 {
			i := r.Intn(len(parts) - 1)
			j := i + 1 + r.Intn(len(parts)-i-1)
			parts[i] = addrs[r.Intn(len(addrs))] + "{" + parts[i]
			parts[j] = parts[j] + "}\n"
		}
		if r.Intn(4) == 0 {
			parts = append(parts, "//s//[&]/;")
		}
		if r.Intn(5) == 0 {
			parts = append([]string{"s/^a/A/;tx;"}, append(parts, ":x\n")...)
		}
		script := strings.Join(parts, "")
		args := []string{script}
		if r.Intn(3) == 0 {
			args = append([]string{"-n"}, args...)
		}
		if r.Intn(8) == 0 {
			args = append([]string{"-z"}, args...)
		}
		if r.Intn(6) == 0 {
			args = append([]string{"-E"}, args...)
		}
		if r.Intn(6) == 0 {
			args = append([]string{"-i"}, args...)
			args = append(args, "in1", "in2")
		} else if r.Intn(4) == 0 {
			args = append([]string{"-s"}, args...)
			args = append(args, "in1", "in2")
		} else if r.Intn(3) == 0 {
			args = append(args, "in1", "in2")
		}
		cases = append(cases, dcase{args: args, stdin: inputs[r.Intn(len(inputs))],
			files: map[string]string{"rfile": "R1\nR2", "in1": inputs[r.Intn(len(inputs))], "in2": inputs[r.Intn(len(inputs))]}})
	}
	runDiff(t, cases)
}
