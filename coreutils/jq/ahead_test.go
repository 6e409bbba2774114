package jq

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// aheadInput is over aheadMin: records whose key orders change, nested
// objects, repeated keys, escapes, blank lines, then tail.
func aheadInput(tail string) string {
	var b strings.Builder
	for i := 0; b.Len() < aheadMin+aheadMin/4; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `{"b":%d,"a":{"y":1,"x":[%d,{"q":true,"p":null}]}}`+"\n", i, i)
		case 1:
			fmt.Fprintf(&b, `{"a":%d,"b":"s\u00e9\n%d","a":%d}`+"\n\n", i, i, i+1)
		case 2:
			fmt.Fprintf(&b, `[%d, {"z":1,"y":2}, "x"]`, i)
		case 3:
			fmt.Fprintf(&b, `{"b":%d,"a":{"y":1,"x":[]}} %d`+"\n", i, i)
		default:
			fmt.Fprintf(&b, `{"c":{},"b":%d,"a":%d}`+"\n", i, i)
		}
	}
	return b.String() + tail
}

type aheadRun struct {
	out, errOut string
	code        int
}

func runWorkers(ctx context.Context, workers int, stdin string, args ...string) aheadRun {
	var out, errOut bytes.Buffer
	c := &builtins.Call{Args: append([]string{"jq"}, args...), Stdin: strings.NewReader(stdin),
		Stdout: &out, Stderr: &errOut, Dir: "/work", FS: (&cmdtest.Env{}).NewFS(), Workers: workers}
	code := Run(ctx, c)
	return aheadRun{out.String(), errOut.String(), code}
}

// Decoding ahead changes nothing jq prints: the same filters over the same
// big input give the same output, messages and status with one goroutine
// and with a second decoding ahead.
func TestAheadMatchesInline(t *testing.T) {
	// A big value hands the rest of its source back to be decoded in line.
	var big strings.Builder
	big.WriteString(`{"z":0`)
	for i := 0; big.Len() < 2*batchBytes; i++ {
		fmt.Fprintf(&big, `,"k%d":{"b":%d,"a":[%d]}`, i, i, i)
	}
	big.WriteString("}\n")
	for _, tail := range []string{"", `{"a": tru}` + "\n1\n", `{"a":1,` + "\n", big.String() + aheadInput(big.String())} {
		in := aheadInput(tail)
		for _, filter := range []string{
			".",
			"{b, a} | .c = 1",
			"keys_unsorted",
			"to_entries | from_entries",
			"[., input_line_number]",
			"[., input]",
			"if type == \"object\" and .b == 3 then error(\"at three\") else . end",
			"select(type == \"array\") | .[1] + {w: 0}",
		} {
			inline := runWorkers(context.Background(), 1, in, "-c", filter)
			ahead := runWorkers(context.Background(), 2, in, "-c", filter)
			if inline != ahead {
				t.Errorf("tail %q, %s: inline and ahead differ:\ninline: %d %q %.300q\nahead:  %d %q %.300q",
					tail, filter, inline.code, inline.errOut, inline.out, ahead.code, ahead.errOut, ahead.out)
			}
			if n := strings.Count(inline.out, "\n"); n < 200 {
				t.Errorf("%s: only %d lines out: the test reads too little", filter, n)
			}
		}
		for _, args := range [][]string{{"-n", "[inputs] | length"}, {"-s", "map(type) | unique"}, {"-c", "--stream", "."}, {"-n", "first(inputs)"}} {
			inline := runWorkers(context.Background(), 1, in, args...)
			ahead := runWorkers(context.Background(), 2, in, args...)
			if inline != ahead {
				t.Errorf("tail %q, %q: inline and ahead differ:\ninline: %d %q %.300q\nahead:  %d %q %.300q",
					tail, args, inline.code, inline.errOut, inline.out, ahead.code, ahead.errOut, ahead.out)
			}
		}
	}
}

// TM-RES-004: the goroutine that decodes ahead ends with its call: when the input is
// all read, when the filter stops early (first, limit, halt), and when
// the call is cancelled while the filter is busy.
func TestAheadEndsWithItsCall(t *testing.T) {
	in := aheadInput("")
	base := runtime.NumGoroutine()
	for _, args := range [][]string{
		{"-c", "."},
		{"-n", "first(inputs)"},
		{"-n", "[limit(2; inputs)]"},
		{"-n", "input | halt"},
		{"-n", "input | halt_error"},
	} {
		r := runWorkers(context.Background(), 2, in, args...)
		if r.code != 0 && r.code != 5 {
			t.Errorf("%q: exit %d %q", args, r.code, r.errOut)
		}
		cmdtest.Settled(t, base, fmt.Sprint(args))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := runWorkers(ctx, 2, in, "[range(1e12)] | length")
	if r.code != 130 || time.Since(start) > 5*time.Second {
		t.Errorf("cancelled: exit %d after %v, %q", r.code, time.Since(start), r.errOut)
	}
	cmdtest.Settled(t, base, "cancelled")
}

// TM-RES-006: a value of more than batchBytes ends the helper's work: the values
// before it are handed over, then the offset where the big one starts,
// and nothing after it has been decoded.
func TestAheadHandsBigValuesBack(t *testing.T) {
	small := aheadInput("")
	bigVal := `[` + strings.Repeat(`"xxxxxxxxxxxxxxx",`, 2*batchBytes/18) + `0]`
	data := []byte(small + bigVal + "\n" + small)
	a := startAhead(context.Background(), data)
	defer a.close()
	o := newKeyOrder()
	n := 0
	for {
		it, resume, ok := a.next(o)
		if !ok {
			if resume != len(small) {
				t.Fatalf("resumes at %d, want %d (after %d values)", resume, len(small), n)
			}
			break
		}
		if it.err != nil {
			t.Fatal(it.err)
		}
		n++
	}
	want := 0
	for d := (&decoder{data: []byte(small), order: newKeyOrder()}); d.more(); want++ {
		if _, err := d.next(); err != nil {
			t.Fatal(err)
		}
	}
	if n != want {
		t.Errorf("%d values before the big one, want %d", n, want)
	}
}

// A panic in the helper is raised again in the command's goroutine, where
// the dispatcher turns it into the call's error, when next meets the end
// of the helper's batches: it must not read as the end of the input.
func TestAheadPanicReachesTheCommand(t *testing.T) {
	a := newAhead()
	a.g.Go(func() {
		defer close(a.batches)
		panic("decoder broke")
	})
	defer func() {
		if p := recover(); p != "decoder broke" {
			t.Fatalf("recovered %v, want the helper's panic", p)
		}
	}()
	a.next(newKeyOrder())
	t.Fatal("next returned after the helper panicked")
}
