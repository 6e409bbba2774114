package column

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestColumnAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "fill", Args: []string{"-c", "40"}, Stdin: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n", Want: "1\t7\t13\t19\t25\n2\t8\t14\t20\t26\n3\t9\t15\t21\t27\n4\t10\t16\t22\t28\n5\t11\t17\t23\t29\n6\t12\t18\t24\t30\n"},
		{Name: "fillrows", Args: []string{"-x", "-c", "30"}, Stdin: "one\ntwo\nthree\nfour\nfive\nsix\nseven\n", Want: "one\ttwo\tthree\nfour\tfive\tsix\nseven\n"},
		{Name: "table", Args: []string{"-t"}, Files: map[string]string{"in": "a b  c\nlonger  x\n\n   \nthird row here\n"}},
		{Name: "table names right", Args: []string{"-t", "-N", "A,B,C,D", "-R", "B", "in"}, Files: map[string]string{"in": "a b  c\nlonger  x\nthird row here\n"}, Want: "A         B  C     D\na         b  c     \nlonger    x        \nthird   row  here  \n"},
		{Name: "separator", Args: []string{"-t", "-s", ":", "-o", "|"}, Stdin: "a:b::c\n1:2:3:4\n", Want: "a|b| |c\n1|2|3|4\n"},
		{Name: "json", Args: []string{"-J", "-N", "A,B"}, Stdin: "a b\nq\"x y\n", Want: "{\n   \"table\": [\n      {\n         \"a\": \"a\",\n         \"b\": \"b\"\n      },{\n         \"a\": \"q\\\"x\",\n         \"b\": \"y\"\n      }\n   ]\n}\n"},
		{Name: "json needs names", Args: []string{"-J"}, Stdin: "a b\n"},
		{Name: "hide order", Args: []string{"-t", "-N", "X,Y,Z", "-O", "Z,X", "-H", "Y"}, Stdin: "a b c\n1 2 3\n", Want: "Z  X\nc  a\n3  1\n"},
		{Name: "limit", Args: []string{"-t", "-l", "2"}, Stdin: "a b c d\n1 2\n", Want: "a  b c d\n1  2\n"},
		{Name: "keep empty", Args: []string{"-L"}, Stdin: "a\n\nb\n", Want: "a\t\tb\n"},
		{Name: "missing", Args: []string{"nope", "in"}, Files: map[string]string{"in": "x\n"}, Want: "x\n"},
		{Name: "bad width", Args: []string{"-c", "x"}},
		{Name: "bad option", Args: []string{"--frob"}},
	}
	gnutest.CheckCases(t, "column", Run, cases)
}
