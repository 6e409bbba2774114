package bench

// LoopOps are shell loops timed against bash itself (not /bin/sh): the
// language features agents use in loops, each run as one script from the
// corpus root (any directory will do). Every op prints a result, so the
// outputs of bash and bashbox are compared too.
var LoopOps = []Op{
	{Name: "loop_read_prefix", Script: `i=0; while [ $i -lt 20000 ]; do echo "src/pkg$i/file$i.go"; i=$((i+1)); done > "$TMPDIR/l"
n=0; while read -r x; do y=${x#*/}; y=${y##*/}; n=$((n+${#y})); done < "$TMPDIR/l"; echo $n`},
	{Name: "loop_read_suffix", Script: `i=0; while [ $i -lt 20000 ]; do echo "src/pkg$i/file$i.go"; i=$((i+1)); done > "$TMPDIR/l"
n=0; while read -r x; do y=${x%.go}; y=${y%%/*}; n=$((n+${#y})); done < "$TMPDIR/l"; echo $n`},
	{Name: "loop_replace", Script: `s=""; for ((i=0; i<20000; i++)); do z="hello-world-$i"; s=${z//o/0}; s=${s/#hell/H}; done; echo "$s"`},
	{Name: "loop_test", Script: `c=0; for ((i=0; i<40000; i++)); do w="dEf$i"; if [[ $w == dEf* && -n $w && $i -ge 0 ]]; then c=$((c+1)); fi; done; echo $c`},
	{Name: "loop_arith", Script: `s=0; for ((i=0; i<50000; i++)); do s=$(( (s + i * 7) % 1000003 )); ((s++)); done; echo $s`},
	{Name: "loop_func", Script: `f() { local a=$1; r=$((a*2)); }; s=0; for ((i=0; i<20000; i++)); do f $i; s=$((s+r)); done; echo $s`},
	{Name: "loop_concat", Script: `s=""; for ((i=0; i<20000; i++)); do s+="x$i,"; done; echo ${#s}`},
	{Name: "loop_array", Script: `a=(); for ((i=0; i<20000; i++)); do a+=("item$i"); done; echo ${#a[@]} ${a[19999]}`},
}
