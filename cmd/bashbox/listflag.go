package main

import (
	"encoding/csv"
	"strings"

	"github.com/spf13/pflag"
)

// listFlag is a repeatable string-list flag with the semantics of pflag's
// StringSlice (split: each value is a comma-separated CSV record) or
// StringArray (each value one element): the first use replaces the
// default, later uses append. pflag renders every flag's default through
// its String method at registration, and its list values do that with a
// CSV writer and a 4 KiB buffer each: a measurable part of the lean
// front's start-up for five flags that a run rarely gives. The type names
// are pflag's, so usage text reads the same.
type listFlag struct {
	v       *[]string
	split   bool
	changed bool
}

// listVar registers a listFlag for v, empty by default.
func listVar(fs *pflag.FlagSet, v *[]string, name, short string, split bool, usage string) {
	*v = nil
	fs.VarP(&listFlag{v: v, split: split}, name, short, usage)
	// pflag's usage omits an empty list default ("[]") only for its own
	// list types; an empty DefValue is omitted for any.
	fs.Lookup(name).DefValue = ""
}

func (l *listFlag) Set(s string) error {
	vals := []string{s}
	if l.split {
		vals = []string{}
		if s != "" {
			var err error
			if vals, err = csv.NewReader(strings.NewReader(s)).Read(); err != nil {
				return err
			}
		}
	}
	if l.changed {
		vals = append(*l.v, vals...)
	}
	*l.v, l.changed = vals, true
	return nil
}

func (l *listFlag) Type() string {
	if l.split {
		return "stringSlice"
	}
	return "stringArray"
}

func (l *listFlag) String() string {
	if len(*l.v) == 0 {
		return "[]"
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(*l.v)
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}
