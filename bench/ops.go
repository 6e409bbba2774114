// Package bench is the exp10-style benchmark: a set of operations an agent
// runs on a repository, timed through the host shell with the machine's
// GNU tools and through bashbox, interleaved, with their outputs compared.
package bench

// Op is one operation: a POSIX sh script run from the corpus root. $TMPDIR
// is a scratch directory of the run.
type Op struct {
	Name   string
	Script string
	// Launches, when set, makes the op a start-up measurement: each runner
	// starts a fresh process (the host shell, or the bashbox CLI) that many
	// times in a row and the time of all of them is the op's time. The
	// in-process runner cannot show what an agent pays per tool call.
	Launches int
}

// Ops is the exp10 set.
var Ops = []Op{
	{Name: "git_clone", Script: `git clone -q . "$TMPDIR/clone" && cd "$TMPDIR/clone" && git log --oneline | wc -l && ls | wc -l`},
	{Name: "count_all_files", Script: `find . -type f | wc -l`},
	{Name: "count_go_files", Script: `find . -name '*.go' -type f | wc -l`},
	{Name: "count_funcs", Script: `grep -r -c '^func ' --include='*.go' . | awk -F: '{s += $NF} END {print s}'`},
	{Name: "count_funcs_xargs", Script: `find . -name '*.go' -type f | xargs grep -c '^func ' | awk -F: '{s += $NF} END {print s}'`},
	{Name: "total_loc", Script: `find . -name '*.go' -type f -print0 | xargs -0 cat | wc -l`},
	{Name: "grep_literal", Script: `grep -r -n 'context.Context' --include='*.go' . | wc -l`},
	{Name: "grep_regex", Script: `grep -r -E -c 'func \([a-z]+ \*?[A-Z][a-zA-Z]*\) [A-Z]' --include='*.go' . | grep -v ':0$' | sort | tail -5`},
	{Name: "large_files", Script: `find . -type f -size +100k | sort`},
	{Name: "dir_depth", Script: `find . -type d | awk -F/ '{ if (NF > m) m = NF } END { print m - 1 }'`},
	{Name: "sed_rewrite", Script: `mkdir -p "$TMPDIR/rw" && cp -r strings "$TMPDIR/rw/" && find "$TMPDIR/rw" -name '*.go' -exec sed -i 's/func /FUNC /' {} + && grep -r -c '^FUNC ' "$TMPDIR/rw" | awk -F: '{s += $NF} END {print s}'`},
	{Name: "jq_filter", Script: `jq -c 'select(.level == "error") | {id, svc: .service}' bench-data/events.jsonl | sort | uniq | wc -l`},
	{Name: "awk_groupby", Script: `awk -F, 'NR > 1 { n[$2]++; s[$2] += $3 } END { for (k in n) printf "%s %d %.2f\n", k, n[k], s[k] / n[k] }' bench-data/sales.csv | sort`},
	{Name: "sort_uniq", Script: `cat bench-data/words.txt | sort | uniq -c | sort -rn | head -n 10`},
	{Name: "loop_heavy", Script: `i=0; s=0; while [ $i -lt 100000 ]; do s=$(( (s + i * 7) % 1000003 )); x="item$i"; x=${x#item}; i=$((i + 1)); done; echo "$s $x"`},
	{Name: "many_small_cmds", Script: `i=0; while [ $i -lt 1000 ]; do basename "/a/b/file$i.txt" .txt; dirname "/a/b/c$i"; echo "$i"; i=$((i + 1)); done | wc -l`},
	{Name: "startup", Script: `true`, Launches: 20},
	{Name: "cleanup", Script: `mkdir -p "$TMPDIR/del" && cp -r net "$TMPDIR/del/" && rm -rf "$TMPDIR/del/net" && ls -A "$TMPDIR/del" | wc -l`},
}

// QuickOps is the subset `--quick` runs.
var QuickOps = []string{"count_all_files", "count_go_files", "count_funcs", "count_funcs_xargs", "total_loc", "grep_literal", "grep_regex", "large_files", "dir_depth", "jq_filter", "awk_groupby", "sort_uniq", "loop_heavy", "many_small_cmds", "startup"}
