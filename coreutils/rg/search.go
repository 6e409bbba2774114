package rg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	gofs "io/fs"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// readAllSized reads r whole, sized by its Stat when it has one, charged
// to the call's memory budget as it is allocated (an endless stdin ends
// on the budget).
func (s *search) readAllSized(r io.Reader, src io.Reader) ([]byte, error) {
	if st, ok := src.(interface{ Stat() (gofs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 && fi.Size() < 1<<30 {
			if err := s.c.Grow(fi.Size() + 1); err != nil {
				return nil, err
			}
			buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+1))
			_, err := buf.ReadFrom(r)
			if extra := int64(buf.Cap()) - fi.Size() - 1; extra > 0 {
				s.c.Grow(extra) // the file grew while read
			}
			return buf.Bytes(), err
		}
	}
	return s.c.ReadAll(s.ctx, r)
}

type span struct{ start, end int } // a line, without its terminator

func splitLines(data []byte) []span {
	lines := make([]span, 0, bytes.Count(data, []byte{'\n'})+1)
	for start := 0; start < len(data); {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			lines = append(lines, span{start, len(data)})
			break
		}
		lines = append(lines, span{start, start + i})
		start += i + 1
	}
	return lines
}

// fileState is one file's search.
type fileState struct {
	name       string
	data       []byte
	lines      []span
	last       int // index of the last line printed, -1 none
	printedAny bool
	stats      stats
}

func (s *search) searchReader(r io.Reader, name string, explicit bool) {
	data, err := s.readAllSized(textio.Cancellable(s.ctx, r), r)
	defer s.c.Shrink(int64(cap(data))) // one file at a time is held
	if err != nil {
		if s.ctx.Err() == nil {
			s.fileErr(name, err)
		}
		return
	}
	s.searched++
	fs := &fileState{name: name, data: data, last: -1}
	fs.stats.start = time.Now()
	fs.stats.searches = 1
	fs.stats.bytesSearched = int64(len(data))
	nul := -1
	if !s.binaryOK {
		nul = bytes.IndexByte(data, 0)
		if nul >= 0 && !explicit {
			return // ripgrep skips binary files it finds by walking
		}
	}
	if !s.invert && !s.m.any(data) {
		if s.list < 0 {
			s.printPath(name)
		}
		return
	}
	fs.lines = splitLines(data)
	var hits []int // matched line indexes
	var counted int64
	g, isGo := s.m.(goMatcher)
	lit, complete := "", false
	if isGo {
		lit, complete = g.re.LiteralPrefix()
	}
	// Only a pattern that is nothing but the literal (LiteralPrefix
	// overlooks anchors).
	isLit := isGo && complete && lit != "" && g.re.String() == regexp.QuoteMeta(lit)
	switch {
	case s.multiline && !s.invert:
		hits, counted = s.multilineHits(fs)
		fs.stats.matches = counted
	case isLit && !s.invert:
		hits, counted = s.literalHits(fs, []byte(lit))
		fs.stats.matches = counted
	case isGo && !s.invert:
		hits, counted = s.regexHits(fs, g)
		fs.stats.matches = counted
	}
	for i, ln := range fs.lines {
		if !s.invert && (s.multiline || isGo) {
			break
		}
		line := data[ln.start:ln.end]
		ms := s.m.find(line, -1)
		if (len(ms) > 0) == s.invert {
			continue
		}
		hits = append(hits, i)
		if s.invert {
			counted++
		} else if s.countAll {
			counted += int64(len(ms))
		} else {
			counted++
		}
		fs.stats.matches += int64(max(len(ms), 1))
		if s.maxCount >= 0 && int64(len(hits)) >= s.maxCount {
			break
		}
	}
	if s.maxCount == 0 {
		hits = nil
	}
	if len(hits) == 0 {
		if s.list < 0 {
			s.printPath(name)
		}
		return
	}
	fs.stats.withMatch = 1
	fs.stats.matchedLines = int64(len(hits))
	switch {
	case s.list < 0:
		s.matched = true
		return
	case s.quiet:
		s.matched = true
		return
	case s.list > 0:
		s.printPath(name)
		return
	case s.count:
		s.matched = true
		if s.showPath {
			s.out.WriteString(name)
			s.out.WriteByte(s.sep(':'))
		}
		s.out.WriteString(strconv.FormatInt(counted, 10))
		s.out.WriteByte('\n')
		return
	}
	s.matched = true
	if nul >= 0 {
		if s.showPath {
			s.out.WriteString(name + ": ")
		}
		fmt.Fprintf(s.out, "binary file matches (found \"\\0\" byte around offset %d)\n", nul)
		return
	}
	if s.json {
		s.jsonMessage("begin", map[string]any{"path": map[string]any{"text": name}})
	}
	if s.heading && !s.json {
		s.out.WriteString(name)
		s.out.WriteByte('\n')
	}
	s.printed = true
	for k, i := range hits {
		for j := max(fs.last+1, i-s.before); j < i; j++ {
			s.printLine(fs, j, false)
		}
		s.printLine(fs, i, true)
		next := len(fs.lines)
		if k+1 < len(hits) {
			next = hits[k+1]
		}
		for j := i + 1; j <= i+s.after && j < next; j++ {
			s.printLine(fs, j, false)
		}
	}
	if s.json {
		fs.stats.bytesPrinted = 0
		s.jsonStats.add(fs.stats)
		s.jsonMessage("end", map[string]any{"path": map[string]any{"text": name}, "binary_offset": nil, "stats": fs.stats.object(time.Since(fs.stats.start))})
	}
}

// literalHits finds the lines holding a literal pattern with one
// bytes.Index pass over the buffer, not a regexp run per line.
func (s *search) literalHits(fs *fileState, lit []byte) ([]int, int64) {
	var hits []int
	var n int64
	data := fs.data
	li := 0
	for pos := 0; pos < len(data) && li < len(fs.lines); {
		k := bytes.Index(data[pos:], lit)
		if k < 0 {
			break
		}
		start := pos + k
		for li < len(fs.lines) && fs.lines[li].end < start {
			li++
		}
		if li == len(fs.lines) {
			break
		}
		ln := fs.lines[li]
		if s.countAll {
			n += int64(bytes.Count(data[ln.start:ln.end], lit))
		} else {
			n++
		}
		hits = append(hits, li)
		if s.maxCount >= 0 && int64(len(hits)) >= s.maxCount {
			break
		}
		pos, li = ln.end+1, li+1
	}
	return hits, n
}

// regexHits finds the matched lines with one regexp pass over the whole
// buffer, checking per line only a match that runs past its line.
func (s *search) regexHits(fs *fileState, g goMatcher) ([]int, int64) {
	var hits []int
	var n int64
	li := 0
	for _, m := range s.findAll(g.multi, fs.data) {
		for li < len(fs.lines) && fs.lines[li].end < m[0] {
			li++
		}
		if li == len(fs.lines) {
			break
		}
		if len(hits) > 0 && hits[len(hits)-1] == li {
			if s.countAll {
				n++
			}
			continue
		}
		ln := fs.lines[li]
		if m[1] > ln.end && len(g.re.FindIndex(fs.data[ln.start:ln.end])) == 0 {
			continue
		}
		n++
		hits = append(hits, li)
		if s.maxCount >= 0 && int64(len(hits)) >= s.maxCount {
			break
		}
	}
	return hits, n
}

// findAll is re.FindAllIndex(data, -1) a megabyte of whole lines at a
// time, stopping with the call: one scan of a large input is not
// interruptible. Chunks end after a line end, where a line match ends.
func (s *search) findAll(re *regexp.Regexp, data []byte) [][]int {
	var out [][]int
	for off := 0; off < len(data); {
		if s.ctx.Err() != nil {
			break
		}
		end := min(len(data), off+1<<20)
		if end < len(data) {
			if i := bytes.IndexByte(data[end:], '\n'); i >= 0 {
				end += i + 1
			} else {
				end = len(data)
			}
		}
		for _, m := range re.FindAllIndex(data[off:end], -1) {
			out = append(out, []int{m[0] + off, m[1] + off})
		}
		off = end
	}
	if len(data) == 0 {
		return re.FindAllIndex(data, -1)
	}
	return out
}

// multilineHits finds matches across lines (-U): every line a match
// touches is a matched line.
func (s *search) multilineHits(fs *fileState) ([]int, int64) {
	g, ok := s.m.(goMatcher)
	if !ok {
		return nil, 0
	}
	lineOf := func(off int) int {
		return sort.Search(len(fs.lines), func(i int) bool { return fs.lines[i].end >= off })
	}
	var hits []int
	var n int64
	for _, m := range g.multi.FindAllIndex(fs.data, -1) {
		n++
		first, last := lineOf(m[0]), lineOf(max(m[1]-1, m[0]))
		for i := first; i <= last && i < len(fs.lines); i++ {
			if len(hits) == 0 || hits[len(hits)-1] < i {
				hits = append(hits, i)
			}
		}
		if s.maxCount >= 0 && int64(len(hits)) >= s.maxCount {
			break
		}
	}
	return hits, n
}

// sep is the separator after a file name or line number; --null puts a
// NUL after file names.
func (s *search) sep(c byte) byte {
	if s.nulSep {
		return 0
	}
	return c
}

// contextOn reports whether context lines are printed (and so "--"
// separates groups).
func (s *search) contextOn() bool { return s.before > 0 || s.after > 0 }

func (s *search) printLine(fs *fileState, i int, match bool) {
	ln := fs.lines[i]
	line := fs.data[ln.start:ln.end]
	if s.json {
		kind := "context"
		subs := []any{}
		if match && !s.invert {
			for _, m := range s.m.find(line, -1) {
				subs = append(subs, []kv{{"match", map[string]any{"text": string(line[m[0]:m[1]])}}, {"start", m[0]}, {"end", m[1]}})
			}
		}
		if match {
			kind = "match"
		}
		text := string(line)
		if ln.end < len(fs.data) {
			text += "\n"
		}
		s.jsonOrdered(kind, []kv{{"path", map[string]any{"text": fs.name}}, {"lines", map[string]any{"text": text}},
			{"line_number", i + 1}, {"absolute_offset", ln.start}, {"submatches", subs}})
		fs.last = i
		return
	}
	if s.contextOn() && fs.last >= 0 && i > fs.last+1 {
		s.out.WriteString("--\n")
	}
	fs.last = i
	fs.printedAny = true
	sep := byte('-')
	if match {
		sep = ':'
	}
	prefix := func() {
		if s.showPath && !s.heading {
			s.out.WriteString(fs.name)
			s.out.WriteByte(s.sep(sep))
		}
		if s.lineNums {
			s.out.WriteString(strconv.Itoa(i + 1))
			s.out.WriteByte(sep)
		}
	}
	if match && !s.invert && s.only {
		for _, m := range s.m.find(line, -1) {
			prefix()
			if s.replace != nil {
				s.out.Write(s.m.expand(nil, *s.replace, line, m))
			} else {
				s.out.Write(line[m[0]:m[1]])
			}
			s.out.WriteByte('\n')
		}
		return
	}
	prefix()
	if match && !s.invert && s.replace != nil {
		var b []byte
		prev := 0
		for _, m := range s.m.find(line, -1) {
			b = append(b, line[prev:m[0]]...)
			b = s.m.expand(b, *s.replace, line, m)
			prev = m[1]
		}
		line = append(b, line[prev:]...)
	}
	s.out.Write(line)
	s.out.WriteByte('\n')
}

// JSON Lines output, in ripgrep's field order.

type kv struct {
	k string
	v any
}

func (s *search) jsonOrdered(kind string, fields []kv) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	writeJSON(&b, kind)
	b.WriteString(`,"data":{`)
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, f.k)
		b.WriteByte(':')
		writeJSON(&b, f.v)
	}
	b.WriteString("}}\n")
	s.out.Write(b.Bytes())
}

func (s *search) jsonMessage(kind string, data map[string]any) {
	var fields []kv
	for _, k := range []string{"path", "binary_offset", "stats"} {
		if v, ok := data[k]; ok {
			fields = append(fields, kv{k, v})
		}
	}
	s.jsonOrdered(kind, fields)
}

func writeJSON(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, el := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, el)
		}
		b.WriteByte(']')
	case []kv:
		b.WriteByte('{')
		for i, f := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, f.k)
			b.WriteByte(':')
			writeJSON(b, f.v)
		}
		b.WriteByte('}')
	default:
		// ripgrep writes <, > and & as they are.
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		b.Truncate(b.Len() - 1) // Encode's newline
	}
}

func (st *stats) add(o stats) {
	st.searches += o.searches
	st.withMatch += o.withMatch
	st.bytesSearched += o.bytesSearched
	st.bytesPrinted += o.bytesPrinted
	st.matchedLines += o.matchedLines
	st.matches += o.matches
}

func elapsed(d time.Duration) []kv {
	return []kv{{"secs", int64(d / time.Second)}, {"nanos", int64(d % time.Second)}, {"human", fmt.Sprintf("%.6fs", d.Seconds())}}
}

func (st stats) object(d time.Duration) []kv {
	return []kv{{"elapsed", elapsed(d)}, {"searches", st.searches}, {"searches_with_match", st.withMatch},
		{"bytes_searched", st.bytesSearched}, {"bytes_printed", st.bytesPrinted}, {"matched_lines", st.matchedLines}, {"matches", st.matches}}
}

func (s *search) jsonSummary() {
	d := time.Since(s.jsonStats.start)
	st := s.jsonStats
	s.out.WriteString(`{"data":{"elapsed_total":{"human":`)
	var b bytes.Buffer
	writeJSON(&b, fmt.Sprintf("%.6fs", d.Seconds()))
	fmt.Fprintf(&b, `,"nanos":%d,"secs":%d},"stats":{"bytes_printed":%d,"bytes_searched":%d,"elapsed":{"human":"%.6fs","nanos":%d,"secs":%d},"matched_lines":%d,"matches":%d,"searches":%d,"searches_with_match":%d}},"type":"summary"}`+"\n",
		int64(d%time.Second), int64(d/time.Second), st.bytesPrinted, st.bytesSearched, 0.0, 0, 0, st.matchedLines, st.matches, st.searches, st.withMatch)
	s.out.Write(b.Bytes())
}
