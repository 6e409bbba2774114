package git

// wildmatch matches text against a git wildcard pattern. With pathname set
// ('/'-aware, as for .gitignore), '*', '?' and brackets do not match '/',
// and "**" between slashes matches any number of directories; without it
// (pathspecs), '*' matches across '/'.
func wildmatch(pattern, text string, pathname bool) bool {
	return wm(pattern, text, pathname) == wmMatch
}

const (
	wmNoMatch = iota
	wmMatch
	wmAbortAll
	wmAbortToStarStar
)

func wm(p, t string, pathname bool) int {
	pi, ti := 0, 0
	for pi < len(p) {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) {
				return wmNoMatch
			}
			if t[ti] != p[pi] {
				return wmNoMatch
			}
			pi++
			ti++
		case '?':
			if pathname && t[ti] == '/' {
				return wmNoMatch
			}
			pi++
			ti++
		case '*':
			pi++
			var matchSlash bool
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if (prev < 0 || p[prev] == '/') && (pi >= len(p) || p[pi] == '/' || (p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/')) {
					if pi < len(p) && p[pi] == '/' && wm(p[pi+1:], t[ti:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				} else {
					matchSlash = !pathname
				}
			} else {
				matchSlash = !pathname
			}
			if pi >= len(p) {
				if !matchSlash {
					for k := ti; k < len(t); k++ {
						if t[k] == '/' {
							return wmAbortToStarStar
						}
					}
				}
				return wmMatch
			}
			for ti < len(t) {
				r := wm(p[pi:], t[ti:], pathname)
				if r != wmNoMatch {
					if !matchSlash || r != wmAbortToStarStar {
						return r
					}
				} else if !matchSlash && t[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			c := t[ti]
			pi++
			if pi >= len(p) {
				return wmAbortAll
			}
			negate := false
			if p[pi] == '!' || p[pi] == '^' {
				negate = true
				pi++
			}
			matched := false
			first := true
			prevCh := byte(0)
			for {
				if pi >= len(p) {
					return wmAbortAll
				}
				pc2 := p[pi]
				if pc2 == ']' && !first {
					break
				}
				first = false
				switch {
				case pc2 == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					if c == p[pi] {
						matched = true
					}
					prevCh = p[pi]
				case pc2 == '-' && prevCh != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					hi := p[pi]
					if hi == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						hi = p[pi]
					}
					if c >= prevCh && c <= hi {
						matched = true
					}
					prevCh = 0
				case pc2 == '[' && pi+1 < len(p) && p[pi+1] == ':':
					end := -1
					for k := pi + 2; k+1 < len(p); k++ {
						if p[k] == ':' && p[k+1] == ']' {
							end = k
							break
						}
					}
					if end < 0 {
						if c == '[' {
							matched = true
						}
						prevCh = '['
						break
					}
					if classMatch(p[pi+2:end], c) {
						matched = true
					}
					pi = end + 1
					prevCh = 0
				default:
					if c == pc2 {
						matched = true
					}
					prevCh = pc2
				}
				pi++
			}
			pi++ // ']'
			if matched == negate || (pathname && c == '/') {
				return wmNoMatch
			}
			ti++
		default:
			if t[ti] != pc {
				return wmNoMatch
			}
			pi++
			ti++
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

func classMatch(class string, c byte) bool {
	switch class {
	case "alnum":
		return isAlnum(c)
	case "alpha":
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	case "blank":
		return c == ' ' || c == '\t'
	case "cntrl":
		return c < 0x20 || c == 0x7f
	case "digit":
		return c >= '0' && c <= '9'
	case "graph":
		return c > 0x20 && c < 0x7f
	case "lower":
		return c >= 'a' && c <= 'z'
	case "print":
		return c >= 0x20 && c < 0x7f
	case "punct":
		return c > 0x20 && c < 0x7f && !isAlnum(c)
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r'
	case "upper":
		return c >= 'A' && c <= 'Z'
	case "xdigit":
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return false
}

// hasGlob reports whether a pathspec has wildcard characters.
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			return true
		}
	}
	return false
}
