package bc

import (
	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

// program holds the functions and the name tables.
type program struct {
	funcs   []*function
	funcIdx map[string]int
	vars    symbols
	arrs    symbols
}

// symbols numbers names in the order they are first used.
type symbols struct {
	idx   map[string]int
	names []string
}

func newSymbols(predefined ...string) symbols {
	return symbols{idx: map[string]int{}, names: predefined}
}

// lookup is name's number, a new one the first time.
func (s *symbols) lookup(name string) int {
	if i, ok := s.idx[name]; ok {
		return i
	}
	i := len(s.names)
	s.idx[name] = i
	s.names = append(s.names, name)
	return i
}

func newProgram() *program {
	p := &program{funcIdx: map[string]int{},
		vars: newSymbols("ibase", "obase", "scale", "history", "last"), arrs: newSymbols("")}
	p.funcs = []*function{{name: "(main)", defined: true}}
	return p
}

func (p *program) lookupVar(name string) int { return p.vars.lookup(name) }

func (p *program) lookupArray(name string) int { return p.arrs.lookup(name) }

func (p *program) lookupFunc(name string) int {
	if i, ok := p.funcIdx[name]; ok {
		return i
	}
	i := len(p.funcs)
	p.funcIdx[name] = i
	p.funcs = append(p.funcs, &function{name: name})
	return i
}

func (p *program) clearFunc(fn int) {
	f := p.funcs[fn]
	f.defined = false
	f.code = nil
	f.labels = nil
	f.params = nil
	f.autos = nil
	f.native = nil
}

// array is a bc array; parameters passed by reference share it.
type array struct{ m map[int64]num }

func (a *array) get(i int64) num {
	if v, ok := a.m[i]; ok {
		return v
	}
	return bcnum.Zero
}

func (a *array) set(i int64, v num) {
	if a.m == nil {
		a.m = map[int64]num{}
	}
	a.m[i] = v
}

func (a *array) copy() *array {
	c := &array{m: make(map[int64]num, len(a.m))}
	for k, v := range a.m {
		c.m[k] = v
	}
	return c
}

// glibcRandom reproduces glibc's random() (the additive feedback
// generator of TYPE_3), which GNU bc's random() calls unseeded.
type glibcRandom struct {
	r []int32
	i int
}

func newGlibcRandom(seed int32) *glibcRandom {
	g := &glibcRandom{r: make([]int32, 34)}
	g.r[0] = seed
	for i := 1; i < 31; i++ {
		hi := int64(g.r[i-1]) / 127773
		lo := int64(g.r[i-1]) % 127773
		word := 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		g.r[i] = int32(word)
	}
	for i := 31; i < 34; i++ {
		g.r[i] = g.r[i-31]
	}
	for i := 34; i < 344; i++ {
		g.r = append(g.r, int32(uint32(g.r[i-31])+uint32(g.r[i-3])))
	}
	g.i = 344
	return g
}

func (g *glibcRandom) next() int32 {
	v := int32(uint32(g.r[g.i-31]) + uint32(g.r[g.i-3]))
	g.r = append(g.r, v)
	g.i++
	if len(g.r) > 4096 {
		g.r = append([]int32(nil), g.r[len(g.r)-64:]...)
		g.i = len(g.r)
	}
	return int32(uint32(v) >> 1)
}
