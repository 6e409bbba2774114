// Package archive holds the archive commands' name handling: GNU tar's
// rules for making member names safe to extract (safer_name_suffix, the
// ".." check, --strip-components) and the quoting of names in listings.
package archive

import (
	"strings"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// SaferName applies GNU tar's safer_name_suffix: it removes leading
// slashes and every leading component up to the last ".." so that the
// rest names something below the current directory. It returns the rest
// ("." when nothing is left) and the prefix it removed ("" for none).
func SaferName(name string) (rest, prefix string) {
	cut := 0
	for p := 0; p < len(name); {
		if strings.HasPrefix(name[p:], "..") && (p+2 == len(name) || name[p+2] == '/') {
			cut = p + 2
		}
		// Skip to the start of the next component.
		for p < len(name) {
			c := name[p]
			p++
			if c == '/' {
				break
			}
		}
	}
	for cut < len(name) && name[cut] == '/' {
		cut++
	}
	rest, prefix = name[cut:], name[:cut]
	if rest == "" {
		rest = "."
	}
	return rest, prefix
}

// ContainsDotDot reports whether name has a ".." component.
func ContainsDotDot(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

// Prefixes remembers which removed prefixes were already reported, so
// that each is reported once, as GNU tar does.
type Prefixes map[string]bool

// First reports whether prefix is seen for the first time.
func (p Prefixes) First(prefix string) bool {
	if p[prefix] {
		return false
	}
	p[prefix] = true
	return true
}

// Escape quotes a member name as GNU tar's default "escape" quoting
// style does: backslashes doubled, non-printable bytes as C escapes
// (\n, \t, \ooo); spaces and printable UTF-8 are kept.
func Escape(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case s[i] == '\\', r == utf8.RuneError && n <= 1, r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			for k := 0; k < n; k++ {
				quote.CByte(&b, s[i+k])
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// StripComponents removes n leading components of name; ok is false when
// name has no more than n components (the member is then skipped).
func StripComponents(name string, n int) (string, bool) {
	for ; n > 0; n-- {
		// Skip slashes, then one component.
		name = strings.TrimLeft(name, "/")
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return "", false
		}
		name = name[i+1:]
	}
	name = strings.TrimLeft(name, "/")
	if name == "" {
		return "", false
	}
	return name, true
}
