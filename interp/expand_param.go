package interp

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// pval is the value a parameter expansion works on: one string, or a
// list for the @ and * forms ("$@", "${a[*]}").
type pval struct {
	s      string
	set    bool
	list   []string
	isList bool
	star   bool   // the * form: joined by the first IFS character when quoted
	sep    string // for the * form, IFS's first character, where needed
	// what a slice of an array's elements counts by: the indexes of a
	// sparse array, or the 1-based positions of an associative one
	keys  []int64
	assoc bool
}

func isAtExp(p syntax.WordPart) bool {
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Length || pe.Excl && pe.Names == 0 && pe.Index == nil {
		return false
	}
	if pe.Param != nil && pe.Param.Value == "@" && pe.Index == nil {
		return true
	}
	return indexWord(pe.Index) == "@"
}

// indexWord returns "@" or "*" for the whole-array subscripts.
func indexWord(idx syntax.ArithmExpr) string {
	w, ok := idx.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && (l.Value == "@" || l.Value == "*") {
		return l.Value
	}
	return ""
}

// param expands ${...} and $name.
func (e *expander) param(p *syntax.ParamExp, quoted bool) {
	f := e.f
	name := ""
	if p.Param != nil {
		name = p.Param.Value
	}
	var v pval
	indirect := "" // the name ${!name} refers to
	switch {
	case p.Excl && p.Names != 0: // ${!prefix*} ${!prefix@}
		v = pval{list: f.varNames(name), isList: true, set: true, star: p.Names == syntax.NamesPrefix}
	case p.Excl && indexWord(p.Index) != "": // ${!a[@]}
		v = pval{list: f.arrayKeys(name), isList: true, set: true, star: indexWord(p.Index) == "*"}
	case p.Excl && p.Index == nil && !p.Length:
		// ${!ref}: indirection, or the target name of a nameref
		if vr := f.lookupRaw(name); vr != nil && vr.attrs&attrNameref != 0 {
			v = pval{s: vr.str, set: vr.set}
			break
		}
		ref, _ := f.getVar(name)
		if ref == "" {
			if _, set := f.getVar(name); !set && p.Exp == nil {
				f.errorf("%s: invalid indirect expansion", name)
				e.err = true
				f.abort()
				return
			}
		}
		if !validRef(ref) {
			f.errorf("%s: invalid variable name", ref)
			e.err = true
			f.abort()
			return
		}
		var ok bool
		v, ok = f.paramRef(ref)
		if !ok {
			e.err = true
			return
		}
		indirect = ref
	default:
		var ok bool
		v, ok = f.fetch(name, p.Index)
		if !ok {
			e.err = true
			return
		}
	}
	if !v.set && !v.isList && f.opts.has(optNounset) && !defaultOp(p.Exp) && name != "@" && name != "*" {
		shown := displayName(name, p.Index)
		switch {
		case p.Excl:
			shown = "!" + shown
		case p.Index == nil && isSpecialParam(name):
			shown = "$" + name
		}
		f.errorf("%s: unbound variable", shown)
		e.err = true
		f.fatal(127)
		return
	}
	if v.isList && v.star {
		v.sep = firstIFS(f.ifs())
	}
	if p.Length {
		if v.isList {
			e.value(itoa(len(v.list)), quoted)
		} else {
			n := len(v.s)
			if f.multibyte(v.s) {
				n = utf8.RuneCountInString(v.s)
			}
			e.value(itoa(n), quoted)
		}
		return
	}
	var ok bool
	switch {
	case p.Slice != nil:
		v, ok = f.slice(v, p.Slice, name)
	case p.Repl != nil:
		v, ok = f.replace(v, p.Repl, quoted)
	case p.Exp != nil && altOp(p.Exp.Op):
		if useWord(v, p.Exp.Op) {
			e.paramWord(p.Exp.Word, quoted)
			return
		}
		if p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull {
			v = pval{set: true}
		}
		ok = true
	case p.Exp != nil:
		target := name
		if indirect != "" {
			target = indirect
		}
		v, ok = f.expOp(v, p, target, quoted)
		if v.isList && !quoted && e.mode == modeFields && v.star && false {
		}
	default:
		ok = true
	}
	if !ok {
		e.err = true
		return
	}
	e.emit(v, quoted)
}

func displayName(name string, idx syntax.ArithmExpr) string {
	if idx == nil {
		return name
	}
	return name + "[" + arithText(idx) + "]"
}

func defaultOp(exp *syntax.Expansion) bool {
	if exp == nil {
		return false
	}
	switch exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return true
	}
	return false
}

// altOp says whether op is one of ${x-w} ${x:-w} ${x+w} ${x:+w}, whose
// word is expanded into the field only when used.
func altOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}

// useWord says whether ${x-w} and friends use their word for v.
func useWord(v pval, op syntax.ParExpOperator) bool {
	unset, null := unsetNull(v)
	switch op {
	case syntax.DefaultUnset:
		return unset
	case syntax.DefaultUnsetOrNull:
		return null
	case syntax.AlternateUnset:
		return !unset
	case syntax.AlternateUnsetOrNull:
		return !null
	}
	return false
}

// unsetNull tells whether a value counts as unset and as null for the
// operators with a word. A list is unset when empty and null when it
// joins to nothing: one empty element for @, or empty elements joined by
// an empty IFS for *.
func unsetNull(v pval) (unset, null bool) {
	if !v.isList {
		return !v.set, !v.set || v.s == ""
	}
	if len(v.list) == 0 {
		return true, true
	}
	if len(v.list) == 1 {
		return false, v.list[0] == ""
	}
	if !v.star || v.sep != "" {
		return false, false
	}
	for _, s := range v.list {
		if s != "" {
			return false, false
		}
	}
	return false, true
}

// emit adds an expansion's value to the expander.
func (e *expander) emit(v pval, quoted bool) {
	if !v.isList {
		e.value(v.s, quoted)
		return
	}
	if e.mode != modeFields {
		sep := " "
		if v.star {
			sep = firstIFS(e.f.ifs())
		}
		e.value(strings.Join(v.list, sep), quoted)
		return
	}
	if quoted && v.star {
		e.add(strings.Join(v.list, firstIFS(e.f.ifs())), true)
		return
	}
	if quoted && len(v.list) == 0 {
		e.emptyAt = true
		return
	}
	if !quoted && e.ifs != "" && len(v.list) > 1 {
		// unquoted, the elements are joined by IFS's first character and
		// split again: with a non-blank IFS an empty element still
		// separates fields (IFS=, and a "" b give a, "" and b)
		if sep := firstIFS(e.ifs); !isIFSWhite(sep[0]) {
			e.split(strings.Join(v.list, sep))
			return
		}
	}
	for i, s := range v.list {
		if i > 0 {
			if quoted {
				e.endField(true)
			} else {
				e.endField(false)
			}
		}
		e.value(s, quoted)
	}
}

func firstIFS(ifs string) string {
	if ifs == "" {
		return ""
	}
	_, n := utf8.DecodeRuneInString(ifs)
	return ifs[:n]
}

// paramRef expands a name given as text, with an optional subscript
// ("a[1]", "m[key]", "a[@]"): the target of ${!ref}.
func (f *frame) paramRef(ref string) (pval, bool) {
	name, sub, hasSub := strings.Cut(ref, "[")
	if !hasSub {
		return f.fetch(name, nil)
	}
	sub = strings.TrimSuffix(sub, "]")
	return f.fetch(name, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}})
}

func validRef(s string) bool {
	name, sub, hasSub := strings.Cut(s, "[")
	if hasSub && !strings.HasSuffix(sub, "]") {
		return false
	}
	return syntax.ValidName(name) || isSpecialParam(name)
}

func isSpecialParam(s string) bool {
	if len(s) == 1 && strings.Contains("@*#?-$!0123456789", s) {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// fetch reads a parameter, with an optional subscript.
func (f *frame) fetch(name string, index syntax.ArithmExpr) (pval, bool) {
	switch name {
	case "@", "*":
		return pval{list: f.params, isList: true, set: len(f.params) > 0, star: name == "*"}, true
	}
	if index == nil {
		s, set := f.getVar(name)
		return pval{s: s, set: set}, true
	}
	vr := f.lookupVar(name)
	if vr == nil {
		vr, _ = f.dynamicArray(name)
	}
	if w := indexWord(index); w != "" {
		if vr == nil {
			return pval{isList: true, star: w == "*"}, true
		}
		p := pval{list: vr.elems(), isList: true, set: true, star: w == "*", assoc: vr.assoc != nil}
		if vr.idx != nil {
			p.keys = vr.idx.keys
		}
		return p, true
	}
	if vr != nil && vr.assoc != nil {
		key, ok := f.assocKey(index)
		if !ok {
			return pval{}, false
		}
		s, set := vr.assoc.get(key)
		return pval{s: s, set: set}, true
	}
	i, ok := f.arith(index)
	if !ok {
		return pval{}, false
	}
	if vr == nil {
		return pval{}, true
	}
	if vr.idx == nil {
		if i == 0 || i == -1 {
			return pval{s: vr.str, set: vr.set}, true
		}
		return pval{}, true
	}
	if i < 0 {
		i += vr.idx.next()
		if i < 0 {
			f.errorf("%s: bad array subscript", name)
			return pval{}, true
		}
	}
	s, set := vr.idx.get(i)
	return pval{s: s, set: set}, true
}

// elems lists an array's values (a scalar is a one-element array).
func (v *variable) elems() []string {
	switch {
	case v.idx != nil:
		return v.idx.vals
	case v.assoc != nil:
		ks := v.assoc.keys()
		out := make([]string, len(ks))
		for i, k := range ks {
			out[i] = v.assoc.m[k].val
		}
		return out
	case v.set:
		return []string{v.str}
	}
	return nil
}

func (f *frame) arrayKeys(name string) []string {
	vr := f.lookupVar(name)
	if vr == nil {
		return nil
	}
	switch {
	case vr.idx != nil:
		out := make([]string, len(vr.idx.keys))
		for i, k := range vr.idx.keys {
			out[i] = itoa64(k)
		}
		return out
	case vr.assoc != nil:
		return vr.assoc.keys()
	case vr.set:
		return []string{"0"}
	}
	return nil
}

// varNames lists the set variables whose names start with prefix.
func (f *frame) varNames(prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for sc := f.vars; sc != nil; sc = sc.parent {
		for n, v := range sc.vars {
			if strings.HasPrefix(n, prefix) && !seen[n] {
				seen[n] = true
				if v.set {
					out = append(out, n)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// eachValue applies fn to a value or to each element of a list.
func eachValue(v pval, fn func(string) string) pval {
	if v.isList {
		out := make([]string, len(v.list))
		for i, s := range v.list {
			out[i] = fn(s)
		}
		v.list = out
		return v
	}
	v.s = fn(v.s)
	return v
}

func (f *frame) expOp(v pval, p *syntax.ParamExp, name string, quoted bool) (pval, bool) {
	exp := p.Exp
	if v.isList && v.star {
		v.sep = firstIFS(f.ifs())
	}
	unset, null := unsetNull(v)
	// the word of ${x=w}: inside double quotes its single quotes are
	// kept as text, as for ${x-w}; that of ${x?w} loses its quotes
	word := func() (pval, bool) {
		if exp.Word == nil {
			return pval{set: true}, true
		}
		e := expander{f: f, mode: modeLiteral}
		if quoted && (exp.Op == syntax.AssignUnset || exp.Op == syntax.AssignUnsetOrNull) {
			e.paramWord(exp.Word, true)
		} else {
			e.word(exp.Word)
		}
		return pval{s: e.joined(), set: true}, !e.err
	}
	switch exp.Op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if exp.Op == syntax.AssignUnset && !unset || exp.Op == syntax.AssignUnsetOrNull && !null {
			return v, true
		}
		w, ok := word()
		if !ok {
			return w, false
		}
		if !syntax.ValidName(name) {
			f.errorf("$%s: cannot assign in this way", name)
			f.abort()
			return w, false
		}
		if p.Index != nil {
			if !f.assignIndex(name, p.Index, w.s, false) {
				return w, false
			}
		} else if !f.assignScalar(name, w.s) {
			return w, false
		}
		got, _ := f.fetch(name, p.Index)
		return got, true
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		if exp.Op == syntax.ErrorUnset && !unset || exp.Op == syntax.ErrorUnsetOrNull && !null {
			return v, true
		}
		w, ok := word()
		if !ok {
			return w, false
		}
		msg := w.s
		if exp.Word == nil || msg == "" && len(exp.Word.Parts) == 0 {
			msg = "parameter null or not set"
			if exp.Op == syntax.ErrorUnset {
				msg = "parameter not set"
			}
		}
		f.errorf("%s: %s", displayName(name, p.Index), msg)
		f.fatal(127)
		return v, false
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		prefix := exp.Op == syntax.RemSmallPrefix || exp.Op == syntax.RemLargePrefix
		if lit, ok := literalPattern(exp.Word); ok && !v.isList {
			// ${x#item}: a pattern without special characters matches
			// only itself, shortest and longest alike
			if prefix {
				v.s = strings.TrimPrefix(v.s, lit)
			} else {
				v.s = strings.TrimSuffix(v.s, lit)
			}
			return v, true
		}
		pat, ok := f.patternOf(exp.Word)
		if !ok {
			return v, false
		}
		m, err := f.compilePattern(pat, false)
		if err != nil {
			return v, true
		}
		longest := exp.Op == syntax.RemLargePrefix || exp.Op == syntax.RemLargeSuffix
		return eachValue(v, func(s string) string {
			if prefix {
				return m.trimPrefix(s, longest)
			}
			return m.trimSuffix(s, longest)
		}), true
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		pat := "?"
		if exp.Word != nil {
			var ok bool
			if pat, ok = f.patternOf(exp.Word); !ok {
				return v, false
			}
			if pat == "" {
				pat = "?"
			}
		}
		m, err := f.compilePattern(pat, false)
		if err != nil {
			return v, true
		}
		all := exp.Op == syntax.UpperAll || exp.Op == syntax.LowerAll
		upper := exp.Op == syntax.UpperFirst || exp.Op == syntax.UpperAll
		return eachValue(v, func(s string) string { return caseConvert(s, &m, all, upper) }), true
	case syntax.OtherParamOps:
		op := ""
		if exp.Word != nil {
			op = wordText(exp.Word)
		}
		return f.transform(v, op, name, p)
	}
	f.errorf("%s: bad substitution", paramText(p))
	f.abort()
	return v, false
}

// literalPattern returns the text of a pattern word that is one unquoted
// literal with no character a pattern or a tilde treats specially (an
// extglob group needs a parenthesis), all ASCII: it can only match
// itself.
func literalPattern(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	for i := 0; i < len(l.Value); i++ {
		switch c := l.Value[i]; {
		case c == '*' || c == '?' || c == '[' || c == '\\' || c == '~' || c == '(':
			return "", false
		case c >= utf8.RuneSelf:
			return "", false // the matcher's view of characters decides
		}
	}
	return l.Value, true
}

func caseConvert(s string, m *matcher, all, upper bool) string {
	var b strings.Builder
	done := false
	for _, r := range s {
		if !done && m.matchString(string(r)) {
			if upper {
				r = unicode.ToUpper(r)
			} else {
				r = unicode.ToLower(r)
			}
			if !all {
				done = true
			}
		} else if !all {
			done = true
		}
		b.WriteRune(r)
	}
	return b.String()
}

func paramText(p *syntax.ParamExp) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, &syntax.Word{Parts: []syntax.WordPart{p}})
	return b.String()
}

// replace implements ${x/p/r}, ${x//p/r}, ${x/#p/r} and ${x/%p/r}.
func (f *frame) replace(v pval, r *syntax.Replace, quoted bool) (pval, bool) {
	anchor := 0
	orig := r.Orig
	if orig != nil && len(orig.Parts) > 0 {
		if l, ok := orig.Parts[0].(*syntax.Lit); ok && l.Value != "" && (l.Value[0] == '#' || l.Value[0] == '%') {
			if l.Value[0] == '#' {
				anchor = 1
			} else {
				anchor = 2
			}
			parts := append([]syntax.WordPart{&syntax.Lit{Value: l.Value[1:]}}, orig.Parts[1:]...)
			orig = &syntax.Word{Parts: parts}
		}
	}
	pat, ok := f.patternOf(orig)
	if !ok {
		return v, false
	}
	with, ok := f.replacement(r.With, quoted)
	if !ok {
		return v, false
	}
	if pat == "" && anchor == 0 {
		return v, true
	}
	// unlike # and %, the replacements honour nocasematch
	m, err := f.compilePattern(pat, f.opts.has(optNocasematch))
	if err != nil {
		return v, true
	}
	failed := false
	out := eachValue(v, func(s string) string {
		res, ok := m.replace(s, with, r.All, anchor, f.call.sh.Budget, f.ctx)
		if !ok {
			failed = true
		}
		return res
	})
	if failed {
		f.stopped()
		return out, false
	}
	return out, true
}
