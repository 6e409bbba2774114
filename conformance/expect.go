package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// ID names a case stably across edits of its file: the file and the
// "CMD: title" line, without the line number.
func (c Case) ID() string { return c.File + ": " + c.Command + ": " + c.Title }

// ParseExpected reads the list of expected differences: one case ID per
// line; blank lines and lines starting with # (the reason, written above
// the entry) are skipped.
func ParseExpected(data []byte) (map[string]bool, error) {
	ids := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if ids[line] {
			return nil, fmt.Errorf("line %d: %s is listed twice", n, line)
		}
		ids[line] = true
	}
	return ids, sc.Err()
}

// Gate compares results with the expected differences and returns what
// breaks the gate: a failure not listed, a listed case that passes (the
// list only shrinks: remove it), and, when every case ran (complete), a
// listed case that does not exist.
func Gate(results []Result, expected map[string]bool, complete bool) []string {
	var problems []string
	seen := map[string]bool{}
	for _, r := range results {
		id := r.Case.ID()
		seen[id] = true
		switch {
		case !r.Pass && !expected[id]:
			problems = append(problems, "new failure: "+id)
		case r.Pass && expected[id]:
			problems = append(problems, "unexpected pass (remove it from the expected differences): "+id)
		}
	}
	if complete {
		for id := range expected {
			if !seen[id] {
				problems = append(problems, "no such case (remove it from the expected differences): "+id)
			}
		}
	}
	sort.Strings(problems)
	return problems
}
