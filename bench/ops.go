// Package bench is the exp10-style benchmark: a set of operations an agent
// runs on a repository, timed through the host shell with the machine's
// GNU tools and through bashbox, interleaved, with their outputs compared.
package bench

// Op is one operation: a POSIX sh script run from the corpus root. $TMPDIR
// is a scratch directory of the run.
type Op struct {
	Name   string
	Script string
}

// Ops is the exp10 set.
var Ops = []Op{
	{"git_clone", `git clone -q . "$TMPDIR/clone" && cd "$TMPDIR/clone" && git log --oneline | wc -l && ls | wc -l`},
	{"count_all_files", `find . -type f | wc -l`},
	{"count_go_files", `find . -name '*.go' -type f | wc -l`},
	{"count_funcs", `grep -r -c '^func ' --include='*.go' . | awk -F: '{s += $NF} END {print s}'`},
	{"total_loc", `find . -name '*.go' -type f -print0 | xargs -0 cat | wc -l`},
	{"grep_literal", `grep -r -n 'context.Context' --include='*.go' . | wc -l`},
	{"grep_regex", `grep -r -E -c 'func \([a-z]+ \*?[A-Z][a-zA-Z]*\) [A-Z]' --include='*.go' . | grep -v ':0$' | sort | tail -5`},
	{"large_files", `find . -type f -size +100k | sort`},
	{"dir_depth", `find . -type d | awk -F/ '{ if (NF > m) m = NF } END { print m - 1 }'`},
	{"sed_rewrite", `mkdir -p "$TMPDIR/rw" && cp -r strings "$TMPDIR/rw/" && find "$TMPDIR/rw" -name '*.go' -exec sed -i 's/func /FUNC /' {} + && grep -r -c '^FUNC ' "$TMPDIR/rw" | awk -F: '{s += $NF} END {print s}'`},
	{"jq_filter", `jq -c 'select(.level == "error") | {id, svc: .service}' bench-data/events.jsonl | sort | uniq | wc -l`},
	{"awk_groupby", `awk -F, 'NR > 1 { n[$2]++; s[$2] += $3 } END { for (k in n) printf "%s %d %.2f\n", k, n[k], s[k] / n[k] }' bench-data/sales.csv | sort`},
	{"sort_uniq", `cat bench-data/words.txt | sort | uniq -c | sort -rn | head -n 10`},
	{"loop_heavy", `i=0; s=0; while [ $i -lt 100000 ]; do s=$(( (s + i * 7) % 1000003 )); x="item$i"; x=${x#item}; i=$((i + 1)); done; echo "$s $x"`},
	{"many_small_cmds", `i=0; while [ $i -lt 1000 ]; do basename "/a/b/file$i.txt" .txt; dirname "/a/b/c$i"; echo "$i"; i=$((i + 1)); done | wc -l`},
	{"cleanup", `mkdir -p "$TMPDIR/del" && cp -r net "$TMPDIR/del/" && rm -rf "$TMPDIR/del/net" && ls -A "$TMPDIR/del" | wc -l`},
}

// QuickOps is the subset `--quick` runs.
var QuickOps = []string{"count_all_files", "count_go_files", "count_funcs", "total_loc", "grep_literal", "grep_regex", "large_files", "dir_depth", "jq_filter", "awk_groupby", "sort_uniq", "loop_heavy", "many_small_cmds"}
