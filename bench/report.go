package bench

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

func (r *Report) ratio(name string) float64 {
	if len(r.Runners) < 2 || r.Totals[r.Runners[0]] == 0 {
		return 0
	}
	return r.Totals[name] / r.Totals[r.Runners[0]]
}

// geoMean is the geometric mean of name's per-op ratios to the first
// runner, over the ops both timed.
func (r *Report) geoMean(name string) float64 {
	if len(r.Runners) < 2 {
		return 0
	}
	var sum float64
	n := 0
	for _, op := range r.Ops {
		base, t := op.Medians[r.Runners[0]], op.Medians[name]
		if base > 0 && t > 0 {
			sum += math.Log(t / base)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Exp(sum / float64(n))
}

// WriteTable prints the terminal table.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "%-18s", "op")
	for _, n := range r.Runners {
		fmt.Fprintf(w, " %12s", trim(n, 12))
	}
	fmt.Fprintf(w, " %8s %8s  %s\n", "ratio", "cpu", "identical")
	for _, op := range r.Ops {
		fmt.Fprintf(w, "%-18s", op.Name)
		for _, n := range r.Runners {
			fmt.Fprintf(w, " %10.1fms", op.Medians[n])
		}
		fmt.Fprintf(w, " %7.2fx %7.2fx  %s\n", op.Ratio, op.CPURatio, identical(r, op))
	}
	fmt.Fprintf(w, "%-18s", "TOTAL")
	for _, n := range r.Runners {
		fmt.Fprintf(w, " %10.1fms", r.Totals[n])
	}
	if len(r.Runners) > 1 {
		fmt.Fprintf(w, " %7.2fx", r.ratio(r.Runners[1]))
		fmt.Fprintf(w, "\n%-18s %*s %7.2fx", "GEOMEAN", 13*len(r.Runners)-1, "(of the per-op ratios)", r.GeoMeans[r.Runners[1]])
	}
	fmt.Fprintln(w)
	if r.Startup != nil {
		fmt.Fprintln(w, r.Startup.text())
	}
	if r.StartupCold != nil {
		fmt.Fprintln(w, r.StartupCold.text())
	}
	if r.Memory != nil {
		r.Memory.writeText(w, r.Runners)
	}
}

func identical(r *Report, op OpResult) string {
	var parts []string
	for _, n := range r.Runners[1:] {
		if op.Identical[n] {
			parts = append(parts, "yes")
		} else {
			parts = append(parts, "NO ("+n+")")
		}
	}
	return strings.Join(parts, ", ")
}

func trim(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// Markdown renders the report as a markdown document.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# bashbox bench\n\nCorpus `%s`, %d repetitions after a warm-up, interleaved; median wall time per op. %s, %s.\n\n",
		r.Corpus, r.Reps, r.Machine, r.Started.UTC().Format("2006-01-02 15:04 MST"))
	r.writeMarkdownTable(&b)
	var diffs []string
	for _, op := range r.Ops {
		for _, n := range r.Runners[1:] {
			if !op.Identical[n] {
				diffs = append(diffs, fmt.Sprintf("### %s (%s)\n\n%s:\n```\n%s```\n%s:\n```\n%s```\n", op.Name, n, r.Runners[0], clip(op.Outputs[r.Runners[0]]), n, clip(op.Outputs[n])))
			}
		}
	}
	if len(diffs) > 0 {
		b.WriteString("\n## Differing outputs\n\n" + strings.Join(diffs, "\n"))
	}
	return b.String()
}

// writeMarkdownTable writes the per-op table with the total row.
func (r *Report) writeMarkdownTable(b *strings.Builder) {
	b.WriteString("| op |")
	for _, n := range r.Runners {
		fmt.Fprintf(b, " %s (ms) |", n)
	}
	b.WriteString(" ratio | identical |\n|---|")
	for range r.Runners {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---|\n")
	for _, op := range r.Ops {
		fmt.Fprintf(b, "| %s |", op.Name)
		for _, n := range r.Runners {
			fmt.Fprintf(b, " %.1f |", op.Medians[n])
		}
		fmt.Fprintf(b, " %.2fx | %s |\n", op.Ratio, identical(r, op))
	}
	b.WriteString("| **total** |")
	for _, n := range r.Runners {
		fmt.Fprintf(b, " %.1f |", r.Totals[n])
	}
	if len(r.Runners) > 1 {
		fmt.Fprintf(b, " %.2fx | |\n", r.ratio(r.Runners[1]))
		b.WriteString("| **geometric mean of the ratios** |")
		for range r.Runners {
			b.WriteString(" |")
		}
		fmt.Fprintf(b, " %.2fx | |\n", r.GeoMeans[r.Runners[1]])
	}
	if r.Startup != nil {
		fmt.Fprintf(b, "\nStart-up against bash itself: %s.\n", strings.TrimPrefix(r.Startup.text(), "start-up: "))
	}
	if r.StartupCold != nil {
		fmt.Fprintf(b, "\nStart-up without a daemon: %s.\n", strings.TrimPrefix(r.StartupCold.text(), "start-up: "))
	}
	if r.Memory != nil {
		r.Memory.writeMarkdown(b, r.Runners)
	}
}

// ReadmeSection is the README's benchmark summary: the table, with when,
// where and by which command it was measured, so a pasted copy says what
// it stands for. command is the bench command line that produced r.
func (r *Report) ReadmeSection(command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %s with `%s` (corpus: %d ops, median of %d interleaved repetitions after a warm-up; times in ms; ratio = bashbox / %s, below 1 is faster):\n\n",
		r.Started.UTC().Format("2006-01-02"), r.Machine, command, len(r.Ops), r.Reps, firstOr(r.Runners, "host shell"))
	r.writeMarkdownTable(&b)
	return b.String()
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}

func clip(s string) string {
	if len(s) > 2000 {
		s = s[:2000] + "\n...\n"
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// JSON renders the report as JSON.
func (r *Report) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// SVG draws the bashbox/sh ratio per op as horizontal bars, with the 1.0
// line marked: left of it bashbox is faster.
func (r *Report) SVG() string {
	const left, width, row = 150, 500, 22
	max := 2.0
	for _, op := range r.Ops {
		if op.Ratio > max {
			max = op.Ratio
		}
	}
	h := row*(len(r.Ops)+1) + 50
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", left+width+80, h)
	fmt.Fprintf(&b, `<text x="10" y="18" font-size="14">bashbox / %s wall time per op (lower is faster)</text>`+"\n", html.EscapeString(r.Runners[0]))
	x1 := left + int(float64(width)/max)
	for i, op := range r.Ops {
		y := 30 + i*row
		w := int(op.Ratio / max * width)
		color := "#2e7d32"
		if op.Ratio > 1 {
			color = "#c62828"
		}
		if len(r.Runners) > 1 && !op.Identical[r.Runners[1]] {
			color = "#9e9e9e"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-6, y+14, html.EscapeString(op.Name))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", left, y+3, w, row-6, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%.2fx</text>`+"\n", left+w+4, y+14, op.Ratio)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="26" x2="%d" y2="%d" stroke="#000" stroke-dasharray="4 3"/>`+"\n", x1, x1, 30+len(r.Ops)*row)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">1.0x</text>`+"\n", x1, 44+len(r.Ops)*row)
	b.WriteString("</svg>\n")
	return b.String()
}
