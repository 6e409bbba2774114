package leanscript_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/internal/leanscript"
)

// testLean is a lean table for the tests: a few plain commands and every
// command that runs others.
var testLean = map[string]bool{
	"cat": true, "grep": true, "head": true, "wc": true, "sort": true, "printf": true, "echo": true,
	"ls": true, "mkdir": true, "chmod": true, "cp": true, "test": true, "[": true, "true": true,
	"xargs": true, "env": true, "find": true, "timeout": true, "nice": true, "nohup": true,
	"stdbuf": true, "split": true, "seq": true, "tr": true,
}

type table struct{}

func (table) Lean(name string) bool  { return testLean[name] }
func (table) Known(name string) bool { return testLean[name] || known[name] }

var known = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range bashbox.DefaultCommands() {
		m[n] = true
	}
	return m
}()

func check(t testing.TB, script string) error {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatalf("parse %q: %v", script, err)
	}
	return leanscript.Check(f, table{})
}

func TestAccepts(t *testing.T) {
	for _, s := range []string{
		`true`,
		`echo hi | grep h | wc -l`,
		`for f in *.go; do cat "$f"; done | sort | head -3`,
		`f() { echo "$1"; }; f x; x=$((1+2)); echo "${x:-none}" "${#x}" "${x@Q}"`,
		`if [[ -n $HOME ]]; then printf '%s\n' "$HOME"; fi`,
		`while read -r line; do echo "$line"; done < /dev/null`,
		`find . -name "$pat" -type f -exec grep -l foo {} +`,
		`find . -maxdepth 1 -name '*.go' | xargs -0 -n 1 grep -c func`,
		`env FOO=1 "BAR=$x" grep foo /dev/null`,
		`timeout 5 nice -n 10 cat /dev/null`,
		`xargs -I {} echo {} < /dev/null`,
		`exec >/dev/null; command -v jq; type jq; echo $PATH`,
		`command grep x /dev/null; builtin echo hi`,
		`a=(1 2 3); echo "${a[@]}"; declare -A m=([k]=v); local_x=1; export FOO=bar; declare -i n=$x`,
		`unset x y; read -r a b <<< "1 2"; printf -v out '%s' x; mapfile -t arr < /dev/null`,
		`cat <<EOF
$(echo hi) $HOME
EOF`,
		`i=0; while [ $i -lt 3 ]; do i=$((i + 1)); done; [ -f "$f" ] || echo "$i"`,
	} {
		if err := check(t, s); err != nil {
			t.Errorf("%q: rejected: %v", s, err)
		}
	}
}

func TestRejects(t *testing.T) {
	for _, s := range []string{
		`jq -n 1`,
		`$cmd x`,
		`"$@"`,
		`eval "$x"`,
		`source ./x`,
		`. ./x`,
		`trap 'jq' EXIT`,
		`alias g=jq`,
		`bash -c 'echo'`,
		`sh x.sh`,
		`./x.sh`,
		`/usr/bin/jq`,
		`echo "${x@P}"`,
		`unset "m[$k]"`,
		`[j]q -n 1`,
		`[x] y`,
		`declare "$x"`,
		`declare -a "y=$x"`,
		`declare -n r=x`,
		`local -n r=x`,
		`PATH=/work; grep x`,
		`PATH=/work grep x`,
		`export PATH=/work`,
		`read PATH`,
		`for PS4 in x; do :; done`,
		`PS4='$(jq)'; set -x; true`,
		`: ${PATH:=/work}`,
		`(( PATH = 5 ))`,
		`env PATH=/work grep x`,
		`env -S 'jq -n 1'`,
		`env "$x" grep`,
		`xargs sh -c 'jq'`,
		`xargs env`,
		`xargs -I e echo e`,
		`xargs $opts grep`,
		`xargs --delimiter grep sh`,
		`find . -exec jq . {} \;`,
		`find "$d" -name x`,
		`find . $x`,
		`find . -name $x`,
		`find . -exec grep "$a" "$b" {} \;`,
		`find . -exec xargs {} \;`,
		`timeout 5 jq`,
		`timeout $t grep`,
		`nice -n 5 bash`,
		`stdbuf -oL sh -c x`,
		`nohup jq`,
		`split --filter='jq' x`,
		`split "$opt" x`,
		`exec jq`,
		`command jq`,
		`builtin eval x`,
		`jq() { :; }; jq`,
		`echo "${x:-'$(jq)'}"`,
		`compgen -C jq x`,
		`hash -p /work/x grep`,
		`enable -n echo`,
		`mapfile -C cb arr`,
		`printf -v "$n" x`,
		`read "$n"`,
		`* x`,
		`g{rep,x}`,
		`coproc cat`,
		`select x in a; do :; done`,
	} {
		if err := check(t, s); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}

// FuzzCheck: a script the check accepts never reaches a command outside
// the lean table, whatever data it turns into code on the way. The box
// runs the script with every command outside testLean replaced by one
// that records it was reached. The one reach the check cannot see, a
// script file the script itself wrote into a PATH directory, is excused
// when such a file exists.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`echo hi | grep h`,
		`x='$(jq -n 1)'; echo "${x@P}"`,
		`k='$(jq -n 1)'; declare -A m; unset "m[$k]"`,
		`x='($(jq -n 1))'; declare -a "y=$x"`,
		`PS4='$(jq -n 1)'; set -x; true`,
		`echo 'jq -n 1' > /tmp/s; source /tmp/s`,
		`echo jq | xargs -I{} env {} -n 1`,
		`mkdir -p /tmp/d; find /tmp/d -exec jq -n 1 \;`,
		`echo "${x:-'$(jq -n 1)'}"`,
		`printf '%s\n' '-exec' jq -n 1 ';' > /tmp/a; find /tmp $(cat /tmp/a)`,
		`x=jq; timeout 5 $x -n 1`,
		`echo jq -n 1 | xargs`,
		`echo jq -n 1 | xargs env`,
		`seq 3 | xargs -n 1 echo`,
		`a=(jq -n 1); "${a[@]}"`,
	} {
		f.Add(s)
	}
	reached := &atomic.Value{}
	cmds := map[string]builtins.Command{}
	for _, name := range bashbox.DefaultCommands() {
		if testLean[name] {
			continue
		}
		cmds[name] = func(_ context.Context, c *builtins.Call) int {
			if ents, err := c.FS.ReadDir("/usr/local/bin"); err == nil && len(ents) > 0 {
				return 0 // a script file of the script's own: see above
			}
			reached.Store(c.Name())
			return 0
		}
	}
	box, err := bashbox.New(bashbox.Config{Commands: cmds, Limits: bashbox.Limits{
		Timeout: 2 * time.Second, MaxCommands: 2000, MaxLoopIterations: 2000, MaxOutputBytes: 1 << 16,
	}})
	if err != nil {
		f.Fatal(err)
	}
	defer box.Close()
	f.Fuzz(func(t *testing.T, script string) {
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
		if err != nil || leanscript.Check(file, table{}) != nil {
			return
		}
		reached.Store("")
		if _, err := box.Run(context.Background(), bashbox.Request{Script: script}); err != nil {
			return
		}
		if name := reached.Load().(string); name != "" {
			t.Fatalf("accepted %q, which ran %s", script, name)
		}
	})
}
