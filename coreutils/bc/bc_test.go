package bc

import (
	"math/big"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

func TestAgainstGNU(t *testing.T) {
	var cases []gnuCase
	for _, prog := range []string{
		"1+2*3\n10/3\nscale=5; 10/3\n-7/2\n2^10\n2^-1\n-2^2\n",
		"scale=3; 1.5*1.5; 1.234*5.6789; 7%3; scale=2; 5%3; 1.50+0.5; .5\n",
		"0.5; -0.25; 007; 0.00; -0; 1.50; 1A; A; X\n",
		"2^400\n", "sqrt(16); sqrt(2); scale=10; sqrt(2); sqrt(0.0001); sqrt(123456789.123); length(123.456); length(0.005); scale(1.250)\n",
		"obase=16; 255; -10.5; obase=2; 5.25; obase=100; 123456; 12.5; obase=20; 1.05\nobase=10; ibase=16; FF; 1F.8\n",
		"x = 5; x += 3; x; x -= 1; x; x *= 2; x; x /= 4; x; x %= 3; x; x ^= 3; x; i = 5; i++; ++i; i--; --i; i\n",
		"a[0]=1; a[1]=2; a[5]=7; a[0]+a[1]+a[5]; a[9]; a[2]++; a[2]; --a[2]; a[2]--; a[2]\n",
		"for (i = 0; i < 5; i++) { if (i == 1) continue; if (i == 4) break; i }\nn = 3; while (n > 0) { n; n -= 1 }\nif (2 > 1) 10 else 20\n",
		"define f(n) { if (n < 2) return n; return f(n-1) + f(n-2) }\nf(15)\ndefine g(x) { x*2 }; g(3)\n",
		"define f(a[]) { a[0] = 9; return a[0] }\nb[0] = 1; f(b[]); b[0]\ndefine g(*a[]) { a[0] = 7 }\ng(b[]); b[0]\n",
		"\"plain\\n\"\nprint \"x=\", 5, \" y=\", 1.5, \"\\t\\q\\n\"\n",
		"1 < 2; 2 < 1; 1 == 1.0; 3 != 3; 1 && 0; 0 || 2; !0; !5; x = 1 < 2; x\n",
		"1 + /* c */ 2 # c\n12\\\n34\n3+4\nlast*2\n.+1\nhistory\nhistory=5; history\n",
		"1/0\nx = 5; x/0\n5 % 0\nsqrt(-1)\na[-1] = 1\n0^-1\n2^0.5\n",
		"define f(x) { return (x / 0) }\nf(2)\nq(1)\ndefine g(x) { return x }\ng()\ng(1,2)\ndefine h(x[]) { return 1 }\nh(1)\n",
		"ibase=1\nibase=40\nobase=1\nscale=-2\nobase=99999999999\n",
		"1 +\n2 3\n)\n4\n1; )\n4\n5\n{ ) 6; 7 }\n8\n{ ) }\n9\n",
		"break\ncontinue\nreturn 5\ndefine f(a, a) { return 1 }\ndefine f(x y) { return 1 }\n7\n",
		"1 $ 2\n3 | 4\n5\n", "1 + 1", "limits\n1; quit\n2\n", "halt; 4\n5\n", "define void p(x) { print x, \"\\n\" }; p(5); x = p(3)\n",
		strings.Repeat("s = s + 1; ", 100) + "s\n",
	} {
		cases = append(cases, gnuCase{stdin: prog, args: []string{"bc"}})
	}
	for _, prog := range []string{"s(1); c(1); a(1); l(2); e(1); j(1,2); scale\n", "scale=50; 4*a(1)\n", "l(0); l(-1); e(-1); s(0); c(0); e(100)\n"} {
		cases = append(cases, gnuCase{stdin: prog, args: []string{"bc", "-l"}})
	}
	cases = append(cases,
		gnuCase{stdin: "2^300\n", env: []string{"BC_LINE_LENGTH=25"}, args: []string{"bc"}},
		gnuCase{stdin: "2^300\n", env: []string{"BC_LINE_LENGTH=0"}, args: []string{"bc"}},
		gnuCase{files: map[string]string{"p.bc": "define sq(x) { return x*x }\nsq(3)\n", "half.bc": "1 +"}, stdin: "sq(4)\n", args: []string{"bc", "p.bc"}},
		gnuCase{files: map[string]string{"half.bc": "1 +"}, stdin: "2\n", args: []string{"bc", "half.bc"}},
		gnuCase{args: []string{"bc", "nope"}},
		gnuCase{args: []string{"bc", "-x"}},
		gnuCase{stdin: "abc=1\nx==1\n", args: []string{"bc", "-w"}},
		gnuCase{stdin: "abc=1\n1\n", args: []string{"bc", "-s"}},
	)
	compareGNU(t, Run, cases)
}

func TestNum(t *testing.T) {
	n := num{V: bigInt("12345"), Scale: 3}
	if bcnum.Length(n) != 5 || n.IntLen() != 2 {
		t.Errorf("length %d intLen %d", bcnum.Length(n), n.IntLen())
	}
	q, ok := bcnum.Div(bcnum.Int(1), bcnum.Int(3), 5)
	if !ok || q.V.String() != "33333" || q.Scale != 5 {
		t.Errorf("1/3 = %v", q)
	}
	if _, ok := bcnum.Div(bcnum.Int(1), bcnum.Zero, 5); ok {
		t.Error("division by zero succeeded")
	}
}

func bigInt(s string) *big.Int {
	v, _ := new(big.Int).SetString(s, 10)
	return v
}
