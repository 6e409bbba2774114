package main

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"
)

// TestListFlagIsPflags: listFlag parses and describes itself as pflag's
// StringSlice and StringArray do, so swapping them changed nothing users
// see.
func TestListFlagIsPflags(t *testing.T) {
	args := [][]string{
		nil,
		{"--x", "a"},
		{"--x", "a,b", "--x", "c"},
		{"--x", `"a,b",c`, "--x="},
		{"--x=", "--x", "d"},
		{"--x", `"unterminated`},
		{"-x", "a b", "-x", ""},
	}
	for _, split := range []bool{true, false} {
		for _, a := range args {
			var ours, theirs []string
			ofs := pflag.NewFlagSet("ours", pflag.ContinueOnError)
			listVar(ofs, &ours, "x", "x", split, "the list")
			tfs := pflag.NewFlagSet("theirs", pflag.ContinueOnError)
			if split {
				tfs.StringSliceVarP(&theirs, "x", "x", nil, "the list")
			} else {
				tfs.StringArrayVarP(&theirs, "x", "x", nil, "the list")
			}
			oerr, terr := ofs.Parse(a), tfs.Parse(a)
			if (oerr == nil) != (terr == nil) || !reflect.DeepEqual(ours, theirs) {
				t.Errorf("split=%v %q: ours %q (%v), pflag's %q (%v)", split, a, ours, oerr, theirs, terr)
			}
			if o, p := ofs.Lookup("x").Value.String(), tfs.Lookup("x").Value.String(); o != p {
				t.Errorf("split=%v %q: String() %q, pflag's %q", split, a, o, p)
			}
			if o, p := ofs.FlagUsages(), tfs.FlagUsages(); o != p {
				t.Errorf("split=%v: usage\n%s\npflag's\n%s", split, o, p)
			}
		}
	}
}
