package expr

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, args := range [][]string{
		{"2", "+", "3", "*", "4"}, {"(", "2", "+", "3", ")", "*", "4"}, {"-17", "/", "5"}, {"-17", "%", "5"},
		{"99999999999999999999", "+", "1"}, {"10", "<", "9"}, {"10", "<", "9a"}, {"010", "=", "10"},
		{"0", "|", "5"}, {"", "|", "0"}, {"3", "&", "0"}, {"1", "|", "1", "/", "0"},
		{"hello", ":", "h.*l"}, {"hello", ":", "x"}, {"hello", ":", "he\\(l*\\)o"}, {"abc", ":", "\\(x\\)"},
		{"abc", ":", "b"}, {"a^b", ":", "a^b"}, {"aaa", ":", "a\\{2\\}"}, {"abc", ":", "a\\|b"},
		{"length", "héllo"}, {"substr", "héllo", "2", "3"}, {"index", "aéb", "b"}, {"match", "abcd", "a\\(..\\)"},
		{"substr", "hello", "0", "2"}, {"substr", "hello", "x", "1"}, {"+", "length"}, {"length", "+", "match"},
		{"0"}, {"00"}, {"-0"}, {""}, {"1", "+", "a"}, {"1", "/", "0"}, {"1", "%", "0"}, {}, {"1", "2"},
		{"1", "+"}, {"(", "1"}, {"(", "1", "2"}, {")"}, {"length"}, {"a", ":", "\\("}, {"-1", "+", "2"},
		{"--", "-5", "+", "1"}, {"b", ">", "a"}, {"5", "!=", "5"}, {"2", ">=", "2"}, {"x", "<=", "y"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: append([]string{"expr"}, args...)})
	}
	gnutest.Check(t, Run, cases)
}
