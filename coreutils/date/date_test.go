package date

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNU(t *testing.T) {
	f := map[string]string{"dates": "@0\n2024-01-01 12:00\nbad\n@86400\n"}
	var cases []cmdtest.GNUCase
	for _, args := range [][]string{
		{"-u", "-d", "@0"}, {"-d", "@1700000000"}, {"-u", "-d", "2024-01-02 03:04:05", "+%F %T %z"},
		{"-d", "2024-01-02T03:04:05+02:00", "+%F %T"}, {"-d", "2024-03-10 +2 days", "+%F"}, {"-d", "2024-01-31 +1 month", "+%F"},
		{"-d", "2024-03-10 next monday", "+%F %a"}, {"-d", "Jan 2 2024", "+%F"}, {"-d", "12/31/1999 23:59", "+%F %R"},
		{"-d", "@1700000000", "+%a %A %b %B %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %p %P %q %r %R %s %S %T %u %U %V %w %W %x %X %y %Y %z %:z %::z %Z %%"},
		{"-d", "@1700000000", "+%-d|%_H|%05d|%-j|%3j|%10A|%-10A|%^a|%#a|%#Z|%^B|%_5m|%e|%-e|%0e|%8Y"},
		{"-d", "@1700000000.123456789", "+%N %3N %6N %s"}, {"-d", "@1700000000", "-I"}, {"-d", "@1700000000", "-Ihours"},
		{"-d", "@1700000000", "-Iseconds"}, {"-d", "@1700000000.5", "-Ins"}, {"-d", "@1700000000", "-R"},
		{"-d", "@1700000000", "--rfc-3339=seconds"}, {"-d", "@1700000000.25", "--rfc-3339=ns"}, {"-f", "dates", "+%F"},
		{"-d", "foo"}, {"-d", "2024-13-01"}, {"-d", "@0", "x"}, {"-d", "@0", "+%s", "x"}, {"-R", "-I", "-d", "@0"},
		{"--iso-8601=foo"}, {"--rfc-3339=x"}, {"--frob"}, {"-r", "nope"}, {"-f", "nope"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: f, Args: append([]string{"date"}, args...)})
	}
	cases = append(cases,
		cmdtest.GNUCase{Env: []string{"TZ=America/New_York"}, Args: []string{"date", "-d", "@1700000000"}},
		cmdtest.GNUCase{Env: []string{"TZ=Europe/Paris"}, Args: []string{"date", "-d", "2024-07-01 12:00", "+%F %T %Z %z"}},
		cmdtest.GNUCase{Env: []string{"TZ=Asia/Kolkata"}, Args: []string{"date", "-d", "@0", "+%T %Z %:z"}},
	)
	gnutest.Check(t, Run, cases)
}
