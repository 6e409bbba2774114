package jq

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// refCase runs the same command line through bashbox's jq and the real
// jq 1.6 over the same files.
type refCase struct {
	name  string
	args  []string
	stdin string
}

var refFiles = map[string]string{
	"obj.json":       `{"name":"widget","id":7,"tags":["a","b"],"price":12.5,"nested":{"z":1,"a":[true,false,null]},"empty":{},"none":[]}` + "\n",
	"people.json":    `[{"name":"ann","age":31,"city":"paris"},{"name":"bob","age":25,"city":"rome"},{"name":"cid","age":40,"city":"paris"}]` + "\n",
	"stream.json":    "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n",
	"nums.json":      "[1.0, 1.5, 100000000000000000000, 1e1000, 0.1, 3e-7, 12345678901234567890, -0, 1e17, 1e16, 1e15, 123456789012, 0.00001, 0.0001, 5e-324, -1.5e300]\n",
	"str.json":       "\"héllo \\u0001 \\u007f / \\ud83d\\ude00 tab\\t\"\n",
	"bad.json":       "{\"a\":1}\n{\"a\" 2}\n",
	"prog.jq":        ".name | ascii_upcase\n",
	"lines.txt":      "one\ntwo\nthree\n",
	"unordered.json": `{"zeta":1,"alpha":2,"mid":{"y":1,"x":2}}` + "\n",
}

var refCases = []refCase{
	{name: "identity pretty", args: []string{".", "obj.json"}},
	{name: "identity compact", args: []string{"-c", ".", "obj.json"}},
	{name: "key order kept", args: []string{".", "unordered.json"}},
	{name: "sort keys", args: []string{"-S", ".", "unordered.json"}},
	{name: "tab indent", args: []string{"--tab", ".", "unordered.json"}},
	{name: "indent 4", args: []string{"--indent", "4", ".", "unordered.json"}},
	{name: "indent 0", args: []string{"--indent", "0", ".", "unordered.json"}},
	{name: "field", args: []string{".name", "obj.json"}},
	{name: "raw field", args: []string{"-r", ".name", "obj.json"}},
	{name: "join output", args: []string{"-j", ".tags[]", "obj.json"}},
	{name: "nested path", args: []string{".nested.a[0]", "obj.json"}},
	{name: "iterate", args: []string{"-c", ".[]", "people.json"}},
	{name: "select map", args: []string{"-c", "map(select(.city == \"paris\") | .name)", "people.json"}},
	{name: "construct", args: []string{"-c", ".[] | {name, older: (.age > 30)}", "people.json"}},
	{name: "construct reorder", args: []string{"-c", ".[0] | {city: .city, name: .name}", "people.json"}},
	{name: "update existing", args: []string{"-c", ".[0].age += 1 | .[0]", "people.json"}},
	{name: "add key", args: []string{"-c", ".[0] | .zip = 75001", "people.json"}},
	{name: "del key", args: []string{"-c", "map(del(.age))", "people.json"}},
	{name: "numbers", args: []string{"-c", ".", "nums.json"}},
	{name: "number arithmetic", args: []string{"-n", "-c", "[1/3, 10/2, 2*0.1, 1e308*10, -(1), 3 % 2, 1e3, pow(2;64), 9007199254740993]"}},
	{name: "strings", args: []string{".", "str.json"}},
	{name: "ascii output", args: []string{"-a", ".", "str.json"}},
	{name: "raw ascii", args: []string{"-r", "-a", ".", "str.json"}},
	{name: "stream", args: []string{"-c", ".a", "stream.json"}},
	{name: "slurp", args: []string{"-c", "-s", "map(.a) | add", "stream.json"}},
	{name: "null input", args: []string{"-n", "1 + 2"}},
	{name: "raw input", args: []string{"-R", ".", "lines.txt"}},
	{name: "raw input slurp", args: []string{"-R", "-s", ".", "lines.txt"}},
	{name: "raw input null inputs", args: []string{"-n", "-R", "-c", "[inputs]", "lines.txt"}},
	{name: "input inputs", args: []string{"-c", "[., input]", "stream.json"}},
	{name: "inputs with n", args: []string{"-n", "-c", "[inputs.a] | add", "stream.json"}},
	{name: "arg", args: []string{"-n", "-c", "--arg", "x", "1", "--argjson", "y", "{\"z\":[2]}", "[$x, $y, $ARGS.named]"}},
	{name: "args positional", args: []string{"-n", "-c", "$ARGS", "--args", "a", "b"}},
	{name: "jsonargs", args: []string{"-n", "-c", "$ARGS.positional", "--jsonargs", "1", "{\"a\":2}"}},
	{name: "slurpfile rawfile", args: []string{"-n", "-c", "--slurpfile", "s", "stream.json", "--rawfile", "r", "lines.txt", "[$s, $r]"}},
	{name: "from file", args: []string{"-f", "prog.jq", "obj.json"}},
	{name: "exit status false", args: []string{"-e", ".a"}, stdin: "{\"a\":false}\n"},
	{name: "exit status null", args: []string{"-e", ".b"}, stdin: "{\"a\":1}\n"},
	{name: "exit status no output", args: []string{"-e", "empty"}, stdin: "1\n"},
	{name: "exit status true", args: []string{"-e", ".a"}, stdin: "{\"a\":1}\n"},
	{name: "keys", args: []string{"-c", "keys, keys_unsorted, length", "unordered.json"}},
	{name: "to_entries", args: []string{"-c", "to_entries", "unordered.json"}},
	{name: "string interpolation", args: []string{"-r", ".[] | \"\\(.name) is \\(.age)\"", "people.json"}},
	{name: "formats", args: []string{"-r", "@base64, (@base64 | @base64d), @uri, @csv, @tsv, @html, @sh, @json", ""}, stdin: "[\"a b\",\"<&>\",1]\n"},
	{name: "group sort", args: []string{"-c", "group_by(.city) | map({city: .[0].city, n: length})", "people.json"}},
	{name: "sort_by min max", args: []string{"-c", "sort_by(.age) | map(.name), (min_by(.age).name), (max_by(.age).name)", "people.json"}},
	{name: "reduce", args: []string{"reduce .[] as $p (0; . + $p.age)", "people.json"}},
	{name: "tostring tojson", args: []string{"-c", "[.[0] | tostring, tojson]", "people.json"}},
	{name: "env sandboxed", args: []string{"-n", "-c", "env | keys"}},
	{name: "ENV var", args: []string{"-n", "$ENV.HOME"}},
	{name: "loc", args: []string{"-n", "-c", "$__loc__"}},
	{name: "split join", args: []string{"-c", "split(\",\") | join(\"-\")"}, stdin: "\"a,b,c\"\n"},
	{name: "test match", args: []string{"-c", "[test(\"b+\"), (match(\"b+\") | .offset, .length)]"}, stdin: "\"abbbc\"\n"},
	{name: "sub gsub", args: []string{"-c", "[sub(\"a\"; \"X\"), gsub(\"a\"; \"Y\")]"}, stdin: "\"banana\"\n"},
	{name: "if alternative", args: []string{"-c", ".[] | if .age > 30 then \"old\" elif .age > 26 then \"mid\" else \"young\" end, (.missing // \"dflt\")", "people.json"}},
	{name: "try catch", args: []string{"-c", "try error(\"x\") catch ., (.[] | try tonumber catch \"bad\")"}, stdin: "[\"1\",\"a\"]\n"},
	{name: "error iterate null", args: []string{".[]"}, stdin: "null\n"},
	{name: "error iterate number", args: []string{".[]"}, stdin: "5\n"},
	{name: "error index string", args: []string{".a.b"}, stdin: "{\"a\":\"x\"}\n"},
	{name: "error index array", args: []string{".a"}, stdin: "[1]\n"},
	{name: "error add", args: []string{". + 1"}, stdin: "\"a\"\n"},
	{name: "error subtract", args: []string{". - 1"}, stdin: "{}\n"},
	{name: "error tonumber null", args: []string{"tonumber"}, stdin: "null\n"},
	{name: "error keys", args: []string{"keys"}, stdin: "1\n"},
	{name: "error length", args: []string{"length"}, stdin: "true\n"},
	{name: "error custom", args: []string{"error(\"boom\")"}, stdin: "1\n"},
	{name: "error object", args: []string{"error({\"a\":1})"}, stdin: "1\n"},
	{name: "error then continue", args: []string{".a"}, stdin: "1 {\"a\":2}\n"},
	{name: "error line number", args: []string{".a.b"}, stdin: "{\n\"a\":1\n}\n"},
	{name: "divide by zero", args: []string{". / 0"}, stdin: "1\n"},
	{name: "parse error", args: []string{"."}, stdin: "1 bad\n"},
	{name: "parse error unfinished", args: []string{"."}, stdin: "{\n"},
	{name: "parse error in file", args: []string{"-c", ".", "bad.json"}},
	{name: "compile error", args: []string{"-n", "1 +"}},
	{name: "undefined function", args: []string{".a | foo"}},
	{name: "undefined variable", args: []string{"-n", "$foo"}},
	{name: "missing file", args: []string{".", "nope.json"}},
	{name: "missing file then good", args: []string{"-c", ".", "nope.json", "stream.json"}},
	{name: "unknown option", args: []string{"--frob"}},
	{name: "bad indent", args: []string{"--indent", "9", "."}},
	{name: "bad argjson", args: []string{"--argjson", "x", "{", "-n", "$x"}},
	{name: "color", args: []string{"-C", ".", "obj.json"}},
	{name: "color compact", args: []string{"-C", "-c", ".", "people.json"}},
	{name: "seq", args: []string{"--seq", "-n", "-c", "1, [2]"}},
	{name: "grouped flags", args: []string{"-nrc", "\"x\", {a:1}"}},
	{name: "halt_error", args: []string{"-n", "\"bye\\n\" | halt_error(3)"}},
	{name: "default filter", args: []string{}, stdin: "{\"a\": [1, 2]}\n"},
	{name: "multiple files", args: []string{"-c", ".a // .name", "stream.json", "obj.json"}},
	{name: "empty input", args: []string{"."}, stdin: ""},
	{name: "whitespace input", args: []string{"."}, stdin: "  \n\n"},
	{name: "unicode escapes input", args: []string{"-c", "."}, stdin: "[\"\\u00e9\", \"\\ud83d\\ude00\", \"\\/\"]\n"},
	{name: "large array", args: []string{"-c", "[range(0; 20)] | map(. * 1.5) | .[5:8]", ""}, stdin: "null\n"},
	{name: "object construction from vars", args: []string{"-n", "-c", "1 as $x | 2 as $y | {$x, $y, z: 3}"}},
	{name: "with_entries", args: []string{"-c", "with_entries(.value |= tostring)", "unordered.json"}},
	{name: "limit first last", args: []string{"-n", "-c", "[limit(3; range(10))], first(range(5;10)), ([range(4)] | last)"}},
	{name: "floor sqrt", args: []string{"-n", "-c", "[3.7 | floor, sqrt, ceil, round, fabs], (16 | sqrt)"}},
	{name: "any all unique", args: []string{"-c", "[any(. > 2), all(. > 0), (unique), (add / length)]"}, stdin: "[3,1,3,2]\n"},
	{name: "ltrimstr splits", args: []string{"-c", "[ltrimstr(\"a\"), rtrimstr(\"c\"), startswith(\"ab\"), endswith(\"x\"), (split(\"b\"))]"}, stdin: "\"abc\"\n"},
	{name: "tostream fromstream", args: []string{"-c", "[tostream] | fromstream(.[])"}, stdin: "{\"a\":[1,{\"b\":2}]}\n"},
	{name: "recurse", args: []string{"-c", "[.. | numbers]"}, stdin: "{\"a\":[1,{\"b\":2}],\"c\":3}\n"},
}

func TestAgainstJQ16(t *testing.T) {
	ref, err := exec.LookPath("jq")
	if err != nil {
		t.Skip("jq not installed")
	}
	if out, _ := exec.Command(ref, "--version").Output(); strings.TrimSpace(string(out)) != "jq-1.6" {
		t.Skip("reference jq is not 1.6")
	}
	env := []string{"HOME=/home/user", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	for _, tc := range refCases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"jq"}
			for _, a := range tc.args {
				if a != "" {
					args = append(args, a)
				}
			}
			cmdtest.CheckGNUWith(t, Run, env, []cmdtest.GNUCase{{Files: refFiles, Stdin: tc.stdin, Args: args}})
		})
	}
}

func TestParseErrorsAgainstJQ16(t *testing.T) {
	for _, in := range []string{"[1 2]", `{"a":1 "b":2}`, `{"a" "b"}`, "[1,]", `{"a":}`, "]", "[1 2", "tru", `{"a":1,}`, "[1:2]", `"abc`, "1 bad", "{", "nul", "[1,2", "1 2 x", `{"a":1}}`, "-", "1e", "[.5]", `{1:2}`} {
		for _, text := range []string{in, in + "\n"} {
			cmdtest.CheckGNU(t, Run, []cmdtest.GNUCase{{Stdin: text, Args: []string{"jq", "-c", "."}}})
		}
	}
}
