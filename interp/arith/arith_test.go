package arith

import (
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// mapEnv is a test Env: scalars, indexed arrays as "name[i]" keys, and
// the associative arrays named in assoc.
type mapEnv struct {
	vars  map[string]string
	assoc map[string]bool
}

func newEnv() *mapEnv { return &mapEnv{vars: map[string]string{}, assoc: map[string]bool{}} }

func (e *mapEnv) Get(name string) (string, bool, error) { v, ok := e.vars[name]; return v, ok, nil }
func (e *mapEnv) Set(name string, v int64) error {
	e.vars[name] = strconv.FormatInt(v, 10)
	return nil
}
func (e *mapEnv) Assoc(name string) bool { return e.assoc[name] }
func (e *mapEnv) GetElem(name, index string) (string, bool, error) {
	if index == "0" && !e.assoc[name] {
		return e.Get(name)
	}
	v, ok := e.vars[name+"["+index+"]"]
	return v, ok, nil
}
func (e *mapEnv) SetElem(name, index string, v int64) error {
	if index == "0" && !e.assoc[name] {
		return e.Set(name, v)
	}
	e.vars[name+"["+index+"]"] = strconv.FormatInt(v, 10)
	return nil
}
func (e *mapEnv) Expand(w *syntax.Word) (string, error) {
	// Enough for the tests: $name and ${name}.
	if pe, ok := w.Parts[0].(*syntax.ParamExp); ok {
		return e.vars[pe.Param.Value], nil
	}
	return "", fmt.Errorf("cannot expand")
}

// setup is the shell state every case starts from, in bash and here.
var setup = map[string]string{"a": "3", "b": "-4", "e": "", "x": "1+2", "y": "x*2", "z": "a", "r": "r", "o": "010",
	"bad": "1+", "s": "hello", "n": "9223372036854775807", "arr[1]": "10", "arr[2]": "20", "m[k]": "7", "i": "1"}

var cases = []string{
	"1+2", "1 + 2 * 3", "(1+2)*3", "7/2", "-7/2", "7%3", "-7%3", "2**10", "2**63", "2**64", "-2**2", "2**-1", "0**0",
	"1/0", "1 / 0 + 2", "5%0", "1<<3", "1<<64", "1<<-1", "-8>>1", "~0", "!0", "!5", "- -3", "+3", "1<2", "2<=2", "3>2", "2>=3",
	"1==1", "1!=1", "6&3", "6|3", "6^3", "1&&0", "1||0", "0||0", "0&&x++", "1||x++", "1?2:3", "0?2:3", "1?2:", "1?:2", "1 ? 2",
	"a", "a+b", "e", "unset_var", "x", "x*2", "y", "z", "r", "o", "bad", "bad*2", "s", "n+1", "-n-2",
	"a=5", "a+=2", "a-=2", "a*=2", "a/=2", "a%=2", "a<<=2", "a>>=1", "a&=1", "a|=8", "a^=1", "a/=0", "a=b=7", "a++", "a--", "++a", "--a",
	"a++ + ++a", "c=1,c++,c", "5=3", "(a)=1", "a+=", "1 2", "1.5", "08", "0x1F", "0X1f", "017", "2#101", "16#ff", "36#zz", "64#_@",
	"37#Z", "65#1", "1#1", "2#", "10#", "2#102", "0x", "1e5", "99999999999999999999", "9223372036854775807+1", "-9223372036854775808/-1",
	"-9223372036854775808%-1", "arr[1]", "arr[1+1]", "arr[3]", "arr[i]", "arr[1]+=5", "arr[1]++", "m[k]", "m[zz]=4", "arr[",
	"a[1]]", "", "  ", "1,", ",1", "(1", "1)", "((1))", "a ? b : c=9", "1 ? a=1 : (a=2)", "0 ? a=1 : (a=2)", "5++", "++5",
	"a++b", "4 > > 2", "!", "$", "1 +* 2", "x=", "3,4", "i++ + i++", "0 && 1/0", "1 || 1/0", "0 ? 1/0 : 2", "2**3**2",
	"10-2-3", "2*3%4", "1 - -1", "1--1", "a--1", "a+++1", "a---1",
	"0 && 2**-1", "1 || 2**-1", "0 ? 2**-1 : 1", "1 ? 1 : a**-1", "0 && (a=2**-1)", "0 && a++ ** -1", "0 && --a ** -1",
	"0 && 5/0 ** -1", "a || c = 5", "a && c = 5", "07 + 09", "1 + 2#3 + 4", "1 + 37#1", "a + 2#", "r + 1", "y + 1",
}

var bashPrefix = regexp.MustCompile(`^\S*bash: line \d+: `)

func bashScript() string {
	var b strings.Builder
	keys := make([]string, 0, len(setup))
	for k := range setup {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("declare -A m\nreset() {\n unset a arr c\n")
	for _, k := range keys {
		fmt.Fprintf(&b, " %s='%s'\n", k, setup[k])
	}
	b.WriteString("}\n")
	for _, c := range cases {
		// eval keeps a syntax error in one case from ending the script.
		fmt.Fprintf(&b, "reset; eval 'v=$((%s))' 2>&1 && printf '%%s' \"$v\"; printf '\\x01%%s\\x01%%s\\x01%%s\\x02' \"$a\" \"${arr[1]}\" \"$c\"\n", c)
	}
	return b.String()
}

func TestAgainstBash(t *testing.T) {
	path, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("differential tests need bash 5.2: %v", err)
	}
	cmd := exec.Command(path, "-s")
	cmd.Stdin = strings.NewReader(bashScript())
	cmd.Env = []string{"LC_ALL=C.UTF-8"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	recs := strings.Split(string(out), "\x02")
	if len(recs) != len(cases)+1 {
		t.Fatalf("bash printed %d records for %d cases", len(recs)-1, len(cases))
	}
	for k, c := range cases {
		f := strings.Split(recs[k], "\x01")
		want := strings.TrimSuffix(bashPrefix.ReplaceAllString(f[0], ""), "\n")
		want = strings.TrimPrefix(want, "eval: ")
		// Read eagerly (no cache), compiled, and compiled from the cache.
		cache := &Cache{}
		for _, mode := range []struct {
			name  string
			cache *Cache
		}{{"eager", nil}, {"compiled", cache}, {"cached", cache}} {
			env := newEnv()
			for n, v := range setup {
				env.vars[n] = v
			}
			env.assoc["m"] = true
			v, err := mode.cache.EvalString(c, env)
			got := strconv.FormatInt(v, 10)
			if err != nil {
				got = err.Error()
			}
			if strings.Contains(want, "syntax error near") || strings.Contains(want, "unexpected EOF") {
				// bash's parser rejected the text before arithmetic ran: the
				// engine's parser does the same; here the evaluator must
				// at least fail.
				if err == nil {
					t.Errorf("%q (%s): bash rejected it (%s), we gave %d", c, mode.name, want, v)
				}
				continue
			}
			if got != want {
				t.Errorf("%q (%s): bash %q, ours %q", c, mode.name, want, got)
			}
			state := []string{env.vars["a"], env.vars["arr[1]"], env.vars["c"]}
			if strings.Join(state, "\x01") != strings.Join(f[1:4], "\x01") {
				t.Errorf("%q (%s): variables after: bash %q, ours %q", c, mode.name, f[1:4], state)
			}
		}
	}
}

func TestRecursionBounded(t *testing.T) {
	env := newEnv()
	env.vars["a"] = "b"
	env.vars["b"] = "a"
	_, err := EvalString("a", env)
	if err == nil || !strings.Contains(err.Error(), "expression recursion level exceeded") {
		t.Fatalf("a=b b=a: %v", err)
	}
	deep := strings.Repeat("(", 300000) + "1" + strings.Repeat(")", 300000)
	if _, err := EvalString(deep, env); err == nil || !strings.Contains(err.Error(), "recursion level exceeded") {
		t.Fatalf("deep parentheses: %v", err)
	}
	ok := strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000)
	if v, err := EvalString(ok, env); err != nil || v != 1 {
		t.Fatalf("1000 parentheses: %d %v", v, err)
	}
}

func TestEvalTree(t *testing.T) {
	env := newEnv()
	env.vars["x"] = "1+2"
	env.vars["n"] = "4"
	for _, c := range []struct {
		src  string
		want string
	}{
		{"$(( x * 2 ))", "6"}, {"$(( $x * 2 ))", "5"}, {"$((n+1))", "5"}, {"$(( ${n} << 1 ))", "8"},
		{"$(( n/0 ))", "n/0 : division by 0 (error token is \"0 \")"}, {"$((arr[n-3]=5, arr[1]))", "5"},
		{"$(( - -n ))", "4"}, {"$((n++ ? 7 : 9))", "7"},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(c.src), "")
		if err != nil {
			t.Fatal(err)
		}
		var ae *syntax.ArithmExp
		syntax.Walk(f, func(n syntax.Node) bool {
			if a, ok := n.(*syntax.ArithmExp); ok && ae == nil {
				ae = a
			}
			return true
		})
		for _, src := range []string{c.src, ""} {
			v, err := Eval(ae.X, src, env)
			got := strconv.FormatInt(v, 10)
			if err != nil {
				got = err.Error()
			}
			if got != c.want && !(src == "" && err != nil) {
				t.Errorf("%s (source given: %v): got %q, want %q", c.src, src != "", got, c.want)
			}
			env.vars["n"] = "4"
		}
	}
}

func FuzzEvalString(f *testing.F) {
	for _, c := range cases {
		f.Add(c)
	}
	// Must not panic or hang, and a compiled text must evaluate as the
	// eager reading does: same value, same error, same variables after.
	f.Fuzz(func(t *testing.T, s string) {
		run := func(c *Cache) (string, map[string]string) {
			env := newEnv()
			for n, v := range setup {
				env.vars[n] = v
			}
			env.assoc["m"] = true
			v, err := c.EvalString(s, env)
			if err != nil {
				return err.Error(), env.vars
			}
			return strconv.FormatInt(v, 10), env.vars
		}
		eager, eagerVars := run(nil)
		compiled, compiledVars := run(&Cache{})
		if eager != compiled || fmt.Sprint(eagerVars) != fmt.Sprint(compiledVars) {
			t.Fatalf("%q: eager %q %v, compiled %q %v", s, eager, eagerVars, compiled, compiledVars)
		}
	})
}

func BenchmarkIncrement(b *testing.B) {
	env := newEnv()
	env.vars["n"] = "0"
	var c Cache
	for b.Loop() {
		v, _ := c.EvalString("n+1", env)
		env.Set("n", v)
	}
}

func BenchmarkComplex(b *testing.B) {
	env := newEnv()
	env.vars["a"] = "12"
	env.vars["b"] = "7"
	var c Cache
	for b.Loop() {
		c.EvalString("(a*b + 3) % 17 << 2 | (a > b ? a : b)", env)
	}
}
