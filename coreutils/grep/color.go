package grep

import (
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// colors are the SGR sequences of GREP_COLORS; nil means no color.
type colors struct {
	on                             bool
	ms, mc, sl, cx, fn, ln, bn, se string
	rv, ne                         bool
}

// newColors reads GREP_COLORS (and the obsolescent GREP_COLOR) over
// GNU's defaults.
func newColors(c *builtins.Call) *colors {
	cl := &colors{on: true, ms: "01;31", mc: "01;31", fn: "35", ln: "32", bn: "32", se: "36"}
	old := c.Getenv("GREP_COLOR")
	usedOld := false
	if old != "" {
		cl.ms, cl.mc = old, old
		usedOld = true
	}
	if v := c.Getenv("GREP_COLORS"); v != "" {
		for _, item := range strings.Split(v, ":") {
			k, val, hasVal := strings.Cut(item, "=")
			switch k {
			case "mt":
				cl.ms, cl.mc = val, val
				usedOld = false
			case "ms":
				cl.ms = val
			case "mc":
				cl.mc = val
			case "sl":
				cl.sl = val
			case "cx":
				cl.cx = val
			case "fn":
				cl.fn = val
			case "ln":
				cl.ln = val
			case "bn":
				cl.bn = val
			case "se":
				cl.se = val
			case "rv":
				cl.rv = !hasVal
			case "ne":
				cl.ne = !hasVal
			default:
				// GNU stops at an unknown capability
				goto done
			}
		}
	done:
	}
	if usedOld && (cl.ms == old || cl.mc == old) {
		c.Errorf("warning: GREP_COLOR='%s' is deprecated; use GREP_COLORS='mt=%s'", old, old)
	}
	return cl
}

func (cl *colors) start(g *grepper, sgr string) {
	if !cl.on || sgr == "" {
		return
	}
	g.writeString("\x1b[")
	g.writeString(sgr)
	if cl.ne {
		g.writeString("m")
	} else {
		g.writeString("m\x1b[K")
	}
}

func (cl *colors) end(g *grepper, sgr string) {
	if !cl.on || sgr == "" {
		return
	}
	if cl.ne {
		g.writeString("\x1b[m")
	} else {
		g.writeString("\x1b[m\x1b[K")
	}
}

func (cl *colors) fnColor() string {
	return cl.fn
}

func (cl *colors) lnColor() string {
	return cl.ln
}

func (cl *colors) bnColor() string {
	return cl.bn
}

func (cl *colors) seColor() string {
	return cl.se
}
