package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// exitUsage is the status of every usage error: a bad flag, a bad value, a
// missing volume directory. Nothing has run when it is returned.
const exitUsage = 2

// usageError prints "bashbox: MESSAGE" and the hint of fs's command and
// returns exitUsage.
func usageError(stderr io.Writer, fs *pflag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(stderr, "bashbox: "+format+"\n", args...)
	fmt.Fprintf(stderr, "Try '%s --help' for more information.\n", fs.Name())
	return exitUsage
}

// flagErrorText rewords the flag library's errors without its Go-flavoured
// details (strconv.ParseInt, time: missing unit ...).
func flagErrorText(err error) string {
	var invalid *pflag.InvalidValueError
	var missing *pflag.ValueRequiredError
	var unknown *pflag.NotExistError
	switch {
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return fmt.Sprintf("invalid value %q for %s: %s", invalid.GetValue(), flagName(f), wantText(f.Value.Type()))
	case errors.As(err, &missing):
		if s := missing.GetSpecifiedShortnames(); s != "" {
			return fmt.Sprintf("option -%s needs an argument", s)
		}
		return fmt.Sprintf("option --%s needs an argument", missing.GetSpecifiedName())
	case errors.As(err, &unknown):
		if s := unknown.GetSpecifiedShortnames(); s != "" {
			return fmt.Sprintf("unknown option -%s", s)
		}
		return fmt.Sprintf("unknown option --%s", unknown.GetSpecifiedName())
	}
	return err.Error()
}

func flagName(f *pflag.Flag) string { return "--" + f.Name }

// wantText says what a flag of the given pflag type accepts.
func wantText(typ string) string {
	switch typ {
	case "duration":
		return "want a duration with a unit, e.g. 30s, 1m30s or 500ms"
	case "int", "int64", "int32", "uint", "uint64":
		return "want a whole number"
	case "bool":
		return "want true or false"
	}
	return "not a valid " + typ
}

// isBudget says whether a flag is a budget: --timeout and the --max-*
// family, whatever their type.
func isBudget(name string) bool { return name == "timeout" || strings.HasPrefix(name, "max-") }

// checkBudgets refuses a budget flag given as zero or negative (a budget
// that stops everything, or nothing, is a typo), and a size budget that is
// not a size.
func checkBudgets(fs *pflag.FlagSet, parseSize func(string) (int64, error)) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err == nil && f.Name == "workers" {
			// Not a budget: 0 is a choice (the commands pick).
			if n, _ := strconv.Atoi(f.Value.String()); n < 0 {
				err = fmt.Errorf("invalid value %q for %s: want 0 (one per CPU, up to 4) or more", f.Value.String(), flagName(f))
			}
		}
		if err != nil || !isBudget(f.Name) {
			return
		}
		val := f.Value.String()
		var positive bool
		switch f.Value.Type() {
		case "duration":
			d, _ := time.ParseDuration(val)
			positive = d > 0
		case "int", "int64", "int32":
			n, _ := strconv.ParseInt(val, 10, 64)
			positive = n > 0
		case "string":
			n, perr := parseSize(val)
			if perr != nil {
				err = fmt.Errorf("invalid value %q for %s: want a size in bytes, e.g. 1048576, 512KiB, 10MiB or 1GB", val, flagName(f))
				return
			}
			positive = n > 0
		default:
			return
		}
		if !positive {
			err = fmt.Errorf("invalid value %q for %s: a budget must be positive", val, flagName(f))
		}
	})
	return err
}
