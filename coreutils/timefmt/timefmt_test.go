package timefmt

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestAgainstDate(t *testing.T) {
	if _, err := exec.LookPath("date"); err != nil {
		t.Skip("no date")
	}
	format := "%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %N %p %P %q %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %:z %::z %:::z %Z %% " +
		"%-d %_d %02e %^a %#b %10N %3N %-m %_H %5Y %-5d %^B %#Z %E %Oq"
	for _, tz := range []string{"UTC", "Asia/Tokyo", "America/New_York", "EST5EDT", "CET-1CEST", "<+03>-3", "garbage", "Foo/Bar"} {
		for _, epoch := range []int64{0, 1704164645, 1720000000, -86400 * 400} {
			frac, nsec := ".123456789", 123456789
			if epoch < 0 {
				frac, nsec = "", 0
			}
			cmd := exec.Command("date", "-d", "@"+itoa(epoch)+frac, "+"+format)
			cmd.Env = []string{"TZ=" + tz, "LANG=C"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			loc := LoadTZ(tz)
			got := Strftime(time.Unix(epoch, int64(nsec)).In(loc), format)
			if want := strings.TrimSuffix(string(out), "\n"); got != want {
				t.Errorf("TZ=%s @%d:\ngot  %q\nwant %q", tz, epoch, got, want)
			}
		}
	}
}

func itoa(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
