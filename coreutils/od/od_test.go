package od

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestOdAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000 062510 066154 026157 073440 071157 062154 005041 000400\n0000020 020177 060564 004542 062550 062562\n0000032\n"},
		{Name: "chars", Args: []string{"-c"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there\r\\", Want: "0000000   H   e   l   l   o   ,       w   o   r   l   d   !  \\n  \\0 001\n0000020 177       t   a   b  \\t   h   e   r   e  \\r   \\\n0000034\n"},
		{Name: "named", Args: []string{"-a"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000   H   e   l   l   o   ,  sp   w   o   r   l   d   !  nl nul soh\n0000020 del  sp   t   a   b  ht   h   e   r   e\n0000032\n"},
		{Name: "hex trailer", Args: []string{"-A", "x", "-t", "x1z"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "000000 48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21 0a 00 01  >Hello, world!...<\n000010 7f 20 74 61 62 09 68 65 72 65                    >. tab.here<\n00001a\n"},
		{Name: "aligned", Args: []string{"-t", "d2", "-t", "x2", "-t", "c"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000   25928   27756   11375   30496   29295   25708    2593     256\n           6548    6c6c    2c6f    7720    726f    646c    0a21    0100\n          H   e   l   l   o   ,       w   o   r   l   d   !  \\n  \\0 001\n0000020    8319   24948    2402   25960   25970\n           207f    6174    0962    6568    6572\n        177       t   a   b  \\t   h   e   r   e\n0000032\n"},
		{Name: "sizes", Args: []string{"-t", "u1", "-t", "d4", "-t", "x8"}, Stdin: "\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\u00ff\u00fe\u00fd\u00fc\u00fb\u00fa\u00f9\u00f8", Want: "0000000   1   2   3   4   5   6   7   8 195 191 195 190 195 189 195 188\n               67305985       134678021     -1094467645     -1128022589\n                       0807060504030201                bcc3bdc3bec3bfc3\n0000020 195 187 195 186 195 185 195 184\n            -1161577533     -1195132477\n                       b8c3b9c3bac3bbc3\n0000030\n"},
		{Name: "floats", Args: []string{"-t", "f4", "-t", "f8"}, Stdin: "\u0000\u0000\u0080?\u0000\u0000\u0000\u0000\u0000\u0000\u00f0?\u0000\u0000\u00c0\u007f", Want: "0000000  -1.7816086e-38         8.8e-44            -128      2.2847e-41\n                     1.34753014269e-312            3.4598635739879e-310\n0000020   1.1709299e-38\n                           4.12843e-317\n0000023\n"},
		{Name: "long double", Args: []string{"-t", "fL"}, Stdin: "\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0080\u00ff?\u0000\u0000\u0000\u0000\u0000\u0000", Want: "0000000    -1.601392797504985278e+270\n0000020                             0\n0000022\n"},
		{Name: "traditional", Args: []string{"-b", "-d", "-o", "-x", "-s", "-i"}, Stdin: "ABCDEFGHIJ", Want: "0000000 101 102 103 104 105 106 107 110 111 112\n          16961   17475   17989   18503   19017\n         041101  042103  043105  044107  045111\n           4241    4443    4645    4847    4a49\n          16961   17475   17989   18503   19017\n             1145258561      1212630597           19017\n0000012\n"},
		{Name: "skip count", Args: []string{"-A", "d", "-j", "3", "-N", "10", "-c"}, Stdin: "abcdefghijklmnopqrstuvwxyz", Want: "0000003   d   e   f   g   h   i   j   k   l   m\n0000013\n"},
		{Name: "width", Args: []string{"-w4", "-t", "x1"}, Stdin: "abcdefghij", Want: "0000000 61 62 63 64\n0000004 65 66 67 68\n0000010 69 6a\n0000012\n"},
		{Name: "dupes", Args: []string{"-t", "x1"}, Stdin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAxyz", Want: "0000000 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n*\n0000100 78 79 7a\n0000103\n"},
		{Name: "no dupes", Args: []string{"-v", "-t", "x1"}, Stdin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Want: "0000000 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n0000020 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n0000040 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n0000060\n"},
		{Name: "offset operand", Args: []string{"-c", "a", "+1"}, Files: map[string]string{"a": "abc"}, Want: "0000001   b   c\n0000003\n"},
		{Name: "strings", Args: []string{"-S", "3"}, Stdin: "abc\u0000de\u0000fghij\u0000kl", Want: "0000000 abc\n0000007 fghij\n"},
		{Name: "endian", Args: []string{"-t", "x2", "--endian=big"}, Stdin: "\u0001\u0002\u0003\u0004", Want: "0000000 0102 0304\n0000004\n"},
		{Name: "endian prefix", Args: []string{"-t", "x2", "--endian=l"}, Stdin: "\u0001\u0002\u0003\u0004", Want: "0000000 0201 0403\n0000004\n"},
		{Name: "endian empty", Args: []string{"--endian="}, Stdin: "x"},
		{Name: "bad type size", Args: []string{"-t", "x3"}},
		{Name: "bad type", Args: []string{"-t", "q"}},
		{Name: "bad radix", Args: []string{"-A", "q"}},
		{Name: "skip too far", Args: []string{"-j", "10"}, Stdin: "ab"},
		{Name: "bad skip", Args: []string{"-j", "x"}},
		{Name: "bad width", Args: []string{"-w5", "-t", "x2"}, Stdin: "abcd", Want: "0000000 6261\n0000002 6463\n0000004\n"},
		{Name: "missing", Args: []string{"a", "nope"}, Files: map[string]string{"a": "ab"}, Want: "0000000 061141\n0000002\n"},
		{Name: "all missing", Args: []string{"nope"}},
	}
	gnutest.CheckCases(t, "od", Run, cases)
}
