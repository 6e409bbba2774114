package find

import (
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
)

// pattern is a compiled shell pattern: the common shapes (a literal,
// lit*, *lit, *lit*, *) are string operations, the rest goes to
// glob.Match without flags (or with CaseFold).
type pattern struct {
	pat  string
	fold bool
	kind int
	lit  string
}

const (
	globGeneral = iota
	globExact
	globPrefix   // lit*
	globSuffix   // *lit
	globContains // *lit*
	globAll      // *
)

func compileGlob(pat string, fold bool) *pattern {
	g := &pattern{pat: pat, fold: fold}
	if fold {
		return g
	}
	if !strings.ContainsAny(pat, "*?[\\") {
		g.kind, g.lit = globExact, pat
		return g
	}
	if pat == "*" {
		g.kind = globAll
		return g
	}
	inner := strings.Trim(pat, "*")
	if strings.ContainsAny(inner, "*?[\\") {
		return g
	}
	lead := strings.HasPrefix(pat, "*")
	trail := strings.HasSuffix(pat, "*")
	if strings.Count(pat, "*") != boolInt(lead)+boolInt(trail) {
		return g
	}
	g.lit = inner
	switch {
	case lead && trail:
		g.kind = globContains
	case lead:
		g.kind = globSuffix
	case trail:
		g.kind = globPrefix
	}
	return g
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (g *pattern) match(s string) bool {
	switch g.kind {
	case globExact:
		return s == g.lit
	case globPrefix:
		return strings.HasPrefix(s, g.lit)
	case globSuffix:
		return strings.HasSuffix(s, g.lit)
	case globContains:
		return strings.Contains(s, g.lit)
	case globAll:
		return true
	}
	flags := glob.Flags(0)
	if g.fold {
		flags = glob.CaseFold
	}
	return glob.Match(g.pat, s, flags)
}
