package conformance

import (
	"slices"
	"testing"
)

func TestGate(t *testing.T) {
	pass := func(title string) Result {
		return Result{Case: Case{File: "a.cases", Command: "cat", Title: title}, Pass: true}
	}
	fail := func(title string) Result { r := pass(title); r.Pass = false; return r }
	expected, err := ParseExpected([]byte("# a known gap\na.cases: cat: known\n\na.cases: cat: fixed\na.cases: cat: gone\n"))
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{pass("ok"), fail("known"), pass("fixed"), fail("new")}
	got := Gate(results, expected, true)
	want := []string{
		"new failure: a.cases: cat: new",
		"no such case (remove it from the expected differences): a.cases: cat: gone",
		"unexpected pass (remove it from the expected differences): a.cases: cat: fixed",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Gate = %q, want %q", got, want)
	}
	// A partial run (-run) cannot tell a stale entry from one not run.
	if got := Gate([]Result{fail("known")}, expected, false); len(got) != 0 {
		t.Fatalf("partial run: %q", got)
	}
	if _, err := ParseExpected([]byte("x\nx\n")); err == nil {
		t.Fatal("a duplicate entry was accepted")
	}
}
