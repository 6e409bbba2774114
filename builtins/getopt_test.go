package builtins

import (
	"reflect"
	"testing"
)

func TestGetopt(t *testing.T) {
	set := Options{List: []Option{
		{Short: 'n', Long: "line-number"}, {Short: 'e', Long: "regexp", Arg: RequiredArg},
		{Short: 'r', Long: "recursive"}, {Long: "color", Arg: OptionalArg}, {Long: "count"},
	}}
	opts, ops, err := set.Parse([]string{"-rn", "pat", "-e", "x", "--regexp=y", "--col", "file", "--", "-n"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Opt{{Key: "recursive"}, {Key: "line-number"}, {Key: "regexp", Value: "x", Has: true}, {Key: "regexp", Value: "y", Has: true}, {Key: "color"}}
	if !reflect.DeepEqual(opts, want) || !reflect.DeepEqual(ops, []string{"pat", "file", "-n"}) {
		t.Fatalf("got %+v %q", opts, ops)
	}
	for args, msg := range map[string]string{
		"-k":        "invalid option -- 'k'",
		"-e":        "option requires an argument -- 'e'",
		"--frob":    "unrecognized option '--frob'",
		"--co":      "option '--co' is ambiguous; possibilities: '--color' '--count'",
		"--count=1": "option '--count' doesn't allow an argument",
		"--regexp":  "option '--regexp' requires an argument",
	} {
		_, _, err := set.Parse([]string{args})
		if err == nil || err.Error() != msg {
			t.Errorf("%s: got %v, want %q", args, err, msg)
		}
	}
}

func TestErrText(t *testing.T) {
	c := &Call{}
	_ = c
	if got := ErrText(&PathErrorForTest); got != "No such file or directory" {
		t.Errorf("got %q", got)
	}
}
