package posixre

import (
	"strings"

	"github.com/dlclark/regexp2"
)

// compilePCRE compiles a Perl-compatible pattern (grep -P) on regexp2.
func compilePCRE(pattern string, fl Flags) (*Regexp, error) {
	opts := regexp2.RegexOptions(0)
	if fl.IgnoreCase {
		opts |= regexp2.IgnoreCase
	}
	if fl.Multiline {
		opts |= regexp2.Multiline
	}
	n, err := regexp2.Compile(pattern, opts)
	if err != nil {
		msg := err.Error()
		msg = strings.TrimPrefix(msg, "error parsing regexp: ")
		return nil, &Error{msg}
	}
	re := &Regexp{expr: pattern, netRE: n}
	nums := n.GetGroupNumbers()
	for _, g := range nums {
		if g > re.nsub {
			re.nsub = g
		}
	}
	return re, nil
}
