package column

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestColumnAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "fill", args: []string{"-c", "40"}, files: nil, stdin: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n", want: "1\t7\t13\t19\t25\n2\t8\t14\t20\t26\n3\t9\t15\t21\t27\n4\t10\t16\t22\t28\n5\t11\t17\t23\t29\n6\t12\t18\t24\t30\n"},
		{name: "fillrows", args: []string{"-x", "-c", "30"}, files: nil, stdin: "one\ntwo\nthree\nfour\nfive\nsix\nseven\n", want: "one\ttwo\tthree\nfour\tfive\tsix\nseven\n"},
		{name: "table", args: []string{"-t"}, files: map[string]string{"in": "a b  c\nlonger  x\n\n   \nthird row here\n"}, stdin: "", want: ""},
		{name: "table names right", args: []string{"-t", "-N", "A,B,C,D", "-R", "B", "in"}, files: map[string]string{"in": "a b  c\nlonger  x\nthird row here\n"}, stdin: "", want: "A         B  C     D\na         b  c     \nlonger    x        \nthird   row  here  \n"},
		{name: "separator", args: []string{"-t", "-s", ":", "-o", "|"}, files: nil, stdin: "a:b::c\n1:2:3:4\n", want: "a|b| |c\n1|2|3|4\n"},
		{name: "json", args: []string{"-J", "-N", "A,B"}, files: nil, stdin: "a b\nq\"x y\n", want: "{\n   \"table\": [\n      {\n         \"a\": \"a\",\n         \"b\": \"b\"\n      },{\n         \"a\": \"q\\\"x\",\n         \"b\": \"y\"\n      }\n   ]\n}\n"},
		{name: "json needs names", args: []string{"-J"}, files: nil, stdin: "a b\n", want: ""},
		{name: "hide order", args: []string{"-t", "-N", "X,Y,Z", "-O", "Z,X", "-H", "Y"}, files: nil, stdin: "a b c\n1 2 3\n", want: "Z  X\nc  a\n3  1\n"},
		{name: "limit", args: []string{"-t", "-l", "2"}, files: nil, stdin: "a b c d\n1 2\n", want: "a  b c d\n1  2\n"},
		{name: "keep empty", args: []string{"-L"}, files: nil, stdin: "a\n\nb\n", want: "a\t\tb\n"},
		{name: "missing", args: []string{"nope", "in"}, files: map[string]string{"in": "x\n"}, stdin: "", want: "x\n"},
		{name: "bad width", args: []string{"-c", "x"}, files: nil, stdin: "", want: ""},
		{name: "bad option", args: []string{"--frob"}, files: nil, stdin: "", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"column"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "column", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
