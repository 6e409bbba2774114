package changeset

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// gitMode is the mode git records: it knows only executable or not for
// files (its own rule: the owner's execute bit decides).
func gitMode(mode string) string {
	if mode == "" || mode == "120000" || strings.HasPrefix(mode, "40") {
		return mode
	}
	m, err := parseMode(mode)
	if err == nil && m&0o100 != 0 {
		return "100755"
	}
	return "100644"
}

// gitDiff renders one entry as a `git diff` file patch (git diff --binary
// --full-index form: binary files as literal binary patches, whose full
// blob ids git apply checks). The second result is false for entries a git
// diff cannot express: directories, and mode changes git does not record
// (644 to 600, say).
func gitDiff(e *Entry) (string, bool) {
	if e.Type == TypeDir {
		return "", false
	}
	oldMode, newMode := gitMode(e.OldMode), gitMode(e.NewMode)
	if e.Op == OpMode && oldMode == newMode {
		return "", false
	}
	from, to := e.Path, e.Path
	if e.Op == OpRenamed {
		from = e.OldPath
	}
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git %s %s\n", quoteName("a/"+from), quoteName("b/"+to))
	oldID, newID := zeroID, zeroID
	if e.Op != OpAdded {
		oldID = blobID(e.old)
	}
	if e.Op != OpDeleted {
		newID = blobID(e.new)
	}
	switch e.Op {
	case OpAdded:
		fmt.Fprintf(&b, "new file mode %s\n", newMode)
	case OpDeleted:
		fmt.Fprintf(&b, "deleted file mode %s\n", oldMode)
	default:
		if oldMode != newMode {
			fmt.Fprintf(&b, "old mode %s\nnew mode %s\n", oldMode, newMode)
		}
		if e.Op == OpRenamed {
			fmt.Fprintf(&b, "similarity index %d%%\n", similarity(e.old, e.new))
			fmt.Fprintf(&b, "rename from %s\nrename to %s\n", quoteName(from), quoteName(to))
		}
	}
	if oldID == newID {
		return b.String(), true // a rename or mode change without a content change
	}
	if oldMode == newMode {
		fmt.Fprintf(&b, "index %s..%s %s\n", oldID, newID, oldMode)
	} else {
		fmt.Fprintf(&b, "index %s..%s\n", oldID, newID)
	}
	if len(e.old) == 0 && len(e.new) == 0 {
		return b.String(), true // an empty file added or deleted: git writes no hunk
	}
	if isBinary(e.old) || isBinary(e.new) {
		b.WriteString("GIT binary patch\n")
		writeBinaryLiteral(&b, e.new)
		writeBinaryLiteral(&b, e.old) // the reverse, for git apply -R
		return b.String(), true
	}
	fromLabel, toLabel := "/dev/null", "/dev/null"
	if e.Op != OpAdded {
		fromLabel = quoteName("a/" + from)
	}
	if e.Op != OpDeleted {
		toLabel = quoteName("b/" + to)
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", fromLabel, toLabel)
	b.WriteString(hunks(string(e.old), string(e.new)))
	return b.String(), true
}

// zeroID is git's name for "no blob" in an index line.
var zeroID = strings.Repeat("0", 2*sha1.Size)

// blobID is the object id git gives data as a blob: the SHA-1 of a
// "blob SIZE\x00" header and the data. git apply checks it against the
// file it patches. (The package hashes it itself rather than through
// go-git's plumbing, which would link go-git and its collision-detecting
// SHA-1 into every binary that links the library.)
func blobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// lineDiff is a line-by-line diff of two texts: each line becomes one
// rune, go-diff's Myers diff runs over the runes, and the runes turn back
// into lines. No time limit: a diff cut short by a deadline would be
// valid but needlessly large.
func lineDiff(old, new string) []diffmatchpatch.Diff {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = time.Hour
	a, b, lines := dmp.DiffLinesToRunes(old, new)
	return dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
}

// isBinary is git's test: a NUL byte in the first 8000 bytes. Any NUL
// makes us choose a binary patch, which is exact whatever the content.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0
}

// quoteName quotes a path the way git does (core.quotePath): inside double
// quotes with C escapes when it holds a control character, a double quote,
// a backslash or a byte outside ASCII; as it is otherwise. Unlike git, a
// name with a space is quoted too: git apply reads either form, and GNU
// patch cannot split an unquoted "diff --git" line of a renamed file whose
// name has a space.
func quoteName(name string) string {
	needs := false
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c == '"' || c == '\\' || c >= 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		c := name[i]
		if k := strings.IndexByte(cEscaped, c); k >= 0 {
			b.WriteByte('\\')
			b.WriteByte(cEscapes[k])
		} else if c < 0x20 || c >= 0x7f {
			fmt.Fprintf(&b, `\%03o`, c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// The bytes C escapes name by a letter, and those letters.
const cEscaped, cEscapes = "\a\b\t\n\v\f\r\"\\", `abtnvfr"\`

// hunks renders the unified hunks (3 lines of context, as git) between
// two texts. The line diff is go-diff's Myers (lineDiff); go-git's
// hunk writer splits every unchanged stretch with a regular expression,
// which made a diff of 1,000 large files take seconds, so the hunks are
// cut here.
func hunks(old, new string) string {
	type line struct {
		op   byte // ' ', '-' or '+'
		text string
	}
	var lines []line
	add := func(op byte, t string) {
		for t != "" {
			n := strings.IndexByte(t, '\n') + 1
			if n == 0 {
				n = len(t)
			}
			lines = append(lines, line{op, t[:n]})
			t = t[n:]
		}
	}
	// The lines both sides begin and end with need no diff: most edits
	// touch a few lines of a long file.
	prefix, suffix := commonLines(old, new)
	add(' ', old[:prefix])
	for _, d := range lineDiff(old[prefix:len(old)-suffix], new[prefix:len(new)-suffix]) {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = '+'
		case diffmatchpatch.DiffDelete:
			op = '-'
		}
		add(op, d.Text)
	}
	add(' ', old[len(old)-suffix:])
	const context = 3
	var b strings.Builder
	oldNo, newNo := 0, 0 // lines of each side before lines[i]
	for i := 0; i < len(lines); {
		if lines[i].op == ' ' {
			i, oldNo, newNo = i+1, oldNo+1, newNo+1
			continue
		}
		// A hunk: from context lines before this change to context
		// lines after the last change that follows within 2*context.
		start := max(0, i-context)
		for k := start; k < i; k++ {
			oldNo, newNo = oldNo-1, newNo-1
		}
		end := i
		for k := i; k < len(lines); k++ {
			if lines[k].op != ' ' {
				end = k + 1
			} else if k-end >= 2*context {
				break
			}
		}
		end = min(len(lines), end+context)
		oldCount, newCount := 0, 0
		for _, l := range lines[start:end] {
			if l.op != '+' {
				oldCount++
			}
			if l.op != '-' {
				newCount++
			}
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(oldNo, oldCount), hunkRange(newNo, newCount))
		for _, l := range lines[start:end] {
			b.WriteByte(l.op)
			b.WriteString(l.text)
			if !strings.HasSuffix(l.text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
		oldNo, newNo, i = oldNo+oldCount, newNo+newCount, end
	}
	return b.String()
}

// commonLines returns the lengths of the whole lines a and b begin with in
// common and, after those, end with in common.
func commonLines(a, b string) (prefix, suffix int) {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	prefix = strings.LastIndexByte(a[:n], '\n') + 1
	a, b = a[prefix:], b[prefix:]
	n = 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	// The common end must start a line on both sides.
	for n > 0 {
		ia, ib := len(a)-n, len(b)-n
		if (ia == 0 || a[ia-1] == '\n') && (ib == 0 || b[ib-1] == '\n') {
			break
		}
		n--
	}
	return prefix, n
}

// hunkRange is one side of a hunk header: the first line and the count,
// the count left out when it is 1; an empty side names the line before.
func hunkRange(before, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, count)
}

// similarity is the share of the larger side found unchanged, in percent,
// as git's "similarity index" line reports it (the figure is informative:
// git apply does not check it).
func similarity(old, new []byte) int {
	if bytes.Equal(old, new) {
		return 100
	}
	larger := max(len(old), len(new))
	if larger == 0 || isBinary(old) || isBinary(new) {
		return 0
	}
	same := 0
	for _, d := range lineDiff(string(old), string(new)) {
		if d.Type == diffmatchpatch.DiffEqual {
			same += len(d.Text)
		}
	}
	return same * 100 / larger
}

// writeBinaryLiteral writes one "literal" hunk of a git binary patch: the
// zlib-deflated data in lines of at most 52 bytes, each line a length
// letter then git's base-85 encoding, and a blank line. Neither go-git nor
// the standard library writes this format (encoding/ascii85 uses another
// alphabet), so it is written here.
func writeBinaryLiteral(b *strings.Builder, data []byte) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(data)
	w.Close()
	fmt.Fprintf(b, "literal %d\n", len(data))
	deflated := z.Bytes()
	for len(deflated) > 0 {
		n := min(len(deflated), 52)
		if n <= 26 {
			b.WriteByte(byte('A' + n - 1))
		} else {
			b.WriteByte(byte('a' + n - 27))
		}
		b.WriteString(encode85(deflated[:n]))
		b.WriteByte('\n')
		deflated = deflated[n:]
	}
	b.WriteByte('\n')
}

const alphabet85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// encode85 is git's base 85: each group of four bytes (the last padded
// with zeros) big-endian, as five digits, most significant first.
func encode85(data []byte) string {
	out := make([]byte, 0, (len(data)+3)/4*5)
	for i := 0; i < len(data); i += 4 {
		var acc uint32
		for k := 0; k < 4; k++ {
			acc <<= 8
			if i+k < len(data) {
				acc |= uint32(data[i+k])
			}
		}
		var group [5]byte
		for k := 4; k >= 0; k-- {
			group[k] = alphabet85[acc%85]
			acc /= 85
		}
		out = append(out, group[:]...)
	}
	return string(out)
}
