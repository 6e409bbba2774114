// Package getconf implements glibc's getconf for the sandbox's fixed
// configuration: 2 processors, 4096-byte pages, Linux x86_64 limits.
package getconf

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/nproc"
)

type variable struct {
	name, value string
}

// system holds the variables that take no path, in getconf -a order.
var system = []variable{
	{"ARG_MAX", "2097152"}, {"_POSIX_ARG_MAX", "2097152"},
	{"BC_BASE_MAX", "99"}, {"BC_DIM_MAX", "2048"}, {"BC_SCALE_MAX", "99"}, {"BC_STRING_MAX", "1000"},
	{"CHAR_BIT", "8"}, {"CHAR_MAX", "127"}, {"CHAR_MIN", "-128"},
	{"CHILD_MAX", "63704"}, {"CLK_TCK", "100"}, {"COLL_WEIGHTS_MAX", "255"},
	{"EXPR_NEST_MAX", "32"}, {"HOST_NAME_MAX", "64"},
	{"INT_MAX", "2147483647"}, {"INT_MIN", "-2147483648"},
	{"IOV_MAX", "1024"}, {"LINE_MAX", "2048"}, {"LOGIN_NAME_MAX", "256"},
	{"LONG_BIT", "64"}, {"MB_LEN_MAX", "16"}, {"MQ_PRIO_MAX", "32768"},
	{"NGROUPS_MAX", "65536"}, {"NL_ARGMAX", "4096"}, {"NL_TEXTMAX", "2147483647"},
	{"NZERO", "20"}, {"OPEN_MAX", "1024"}, {"PAGESIZE", "4096"}, {"PAGE_SIZE", "4096"},
	{"PATH", "/bin:/usr/bin"}, {"RE_DUP_MAX", "32767"}, {"RTSIG_MAX", "32"},
	{"SCHAR_MAX", "127"}, {"SCHAR_MIN", "-128"}, {"SEM_VALUE_MAX", "2147483647"},
	{"SHRT_MAX", "32767"}, {"SHRT_MIN", "-32768"}, {"SSIZE_MAX", "32767"},
	{"STREAM_MAX", "16"}, {"SYMLOOP_MAX", "undefined"}, {"TTY_NAME_MAX", "32"},
	{"TZNAME_MAX", "undefined"}, {"UCHAR_MAX", "255"}, {"UINT_MAX", "4294967295"},
	{"ULONG_MAX", "18446744073709551615"}, {"USHRT_MAX", "65535"}, {"WORD_BIT", "32"},
	{"ATEXIT_MAX", "2147483647"}, {"DELAYTIMER_MAX", "2147483647"},
	{"_NPROCESSORS_CONF", fmt.Sprint(nproc.Processors)}, {"_NPROCESSORS_ONLN", fmt.Sprint(nproc.Processors)},
	{"_POSIX_VERSION", "200809"}, {"POSIX2_VERSION", "200809"}, {"_XOPEN_VERSION", "700"},
	{"_POSIX_THREADS", "200809"}, {"POSIX2_LINE_MAX", "2048"}, {"_POSIX2_LINE_MAX", "2048"},
	{"GNU_LIBC_VERSION", "glibc 2.36"}, {"GNU_LIBPTHREAD_VERSION", "NPTL 2.36"},
}

// pathVars need a path operand.
var pathVars = []variable{
	{"LINK_MAX", "65000"}, {"_POSIX_LINK_MAX", "65000"}, {"MAX_CANON", "255"}, {"_POSIX_MAX_CANON", "255"},
	{"MAX_INPUT", "255"}, {"_POSIX_MAX_INPUT", "255"}, {"NAME_MAX", "255"}, {"_POSIX_NAME_MAX", "255"},
	{"PATH_MAX", "4096"}, {"_POSIX_PATH_MAX", "4096"}, {"PIPE_BUF", "4096"}, {"_POSIX_PIPE_BUF", "4096"},
	{"FILESIZEBITS", "64"}, {"SYMLINK_MAX", "undefined"}, {"POSIX_ALLOC_SIZE_MIN", "4096"},
	{"_POSIX_CHOWN_RESTRICTED", "1"}, {"_POSIX_NO_TRUNC", "1"}, {"_POSIX_VDISABLE", "0"},
}

const usage = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n"

func lookup(list []variable, name string) (string, bool) {
	for _, v := range list {
		if v.name == name {
			return v.value, true
		}
	}
	return "", false
}

// Run prints a configuration value, or all of them with -a.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	fail := func() int {
		fmt.Fprint(c.Stderr, usage)
		return 2
	}
	if len(args) > 0 {
		switch args[0] {
		case "--help", "-h", "-?":
			return textfmt.Help(c, "Usage: getconf [-v SPEC] VAR\n  or:  getconf [-v SPEC] PATH_VAR PATH\n\n"+
				"Get the configuration value for variable VAR, or for variable PATH_VAR\n"+
				"for path PATH.  If SPEC is given, give values for compilation\n"+
				"environment SPEC.\n\n")
		case "--version", "-V":
			return c.Version()
		}
	}
	if len(args) >= 1 && len(args[0]) > 2 && args[0][:2] == "-v" {
		args = args[1:]
	} else if len(args) >= 1 && args[0] == "-v" {
		if len(args) < 2 {
			return fail()
		}
		args = args[2:]
	}
	out := textfmt.NewOutput(c.Stdout)
	if len(args) >= 1 && args[0] == "-a" {
		if len(args) > 2 {
			return fail()
		}
		for _, v := range pathVars {
			fmt.Fprintf(out, "%-35s%s\n", v.name, blankUndefined(v.value))
		}
		for _, v := range system {
			fmt.Fprintf(out, "%-35s%s\n", v.name, blankUndefined(v.value))
		}
		return out.Finish(c, 0)
	}
	switch len(args) {
	case 1:
		if v, ok := lookup(system, args[0]); ok {
			out.WriteString(v + "\n")
			return out.Finish(c, 0)
		}
		if _, ok := lookup(pathVars, args[0]); ok {
			return fail()
		}
	case 2:
		if v, ok := lookup(pathVars, args[0]); ok {
			out.WriteString(v + "\n")
			return out.Finish(c, 0)
		}
		if _, ok := lookup(system, args[0]); ok {
			return fail()
		}
	default:
		return fail()
	}
	c.Errorf("Unrecognized variable `%s'", args[0])
	return 2
}

func blankUndefined(v string) string {
	if v == "undefined" {
		return ""
	}
	return v
}
