package datetime

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestAgainstGNUDate(t *testing.T) {
	if _, err := exec.LookPath("date"); err != nil {
		t.Skip("no date")
	}
	inputs := []string{
		"2024-01-02 03:04:05", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+02:00", "2024-01-02 03:04:05.5 +0200",
		"2024-01-02", "2024-1-2", "2024-01-02 03:04", "2024-01-02 3pm", "2024/01/02", "01/02/2024", "1/2/24",
		"Jan 2 2024", "January 2, 2024", "2 Jan 2024", "2 January 2024 10:00", "Jan 2 2024 10:30:15",
		"@0", "@1704164645", "@1704164645.25", "2024-01-02 03:04:05 UTC", "2024-01-02 03:04:05 EST",
		"2024-01-02 +1 day", "2024-01-31 +1 month", "2024-01-02 -2 hours", "2024-01-02 10:00 +3 minutes",
		"2024-02-29 +1 year", "20240102", "2024-01-02 1030", "12:00:00 2024-01-02",
		"2024-01-02 next day", "2024-01-02 last week",
		"2024-01-02 monday", "2024-01-02 next friday", "2024-01-02 last sunday", "2024-01-02 3 days ago",
		"2024-01-02 12:30am", "2024-01-02 12:30pm", "2024-01-02 tomorrow", "2024-01-02 yesterday",
	}
	bad := []string{"foo", "2024-02-30", "2024-01-02 25:00", "2024-13-01", "1 blah", "2024-01-02 13pm", "noon"}
	for _, in := range inputs {
		cmd := exec.Command("date", "-u", "-d", in, "+%Y-%m-%d %H:%M:%S.%N")
		cmd.Env = []string{"TZ=UTC", "LANG=C"}
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("GNU date rejects %q", in)
			continue
		}
		got, err := Parse(in, time.Now(), time.UTC)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if g, w := got.UTC().Format("2006-01-02 15:04:05.000000000"), strings.TrimSpace(string(out)); g != w {
			t.Errorf("%q: got %s want %s", in, g, w)
		}
	}
	for _, in := range bad {
		if _, err := Parse(in, time.Now(), time.UTC); err == nil {
			t.Errorf("%q: accepted", in)
		}
	}
}

func TestRelativeToNow(t *testing.T) {
	now := time.Date(2026, 11, 23, 11, 42, 29, 5, time.UTC) // a Monday
	cases := map[string]string{
		"now":              "2026-11-23 11:42:29",
		"yesterday":        "2026-11-22 11:42:29",
		"tomorrow":         "2026-11-24 11:42:29",
		"1 hour ago":       "2026-11-23 10:42:29",
		"+2 days":          "2026-11-25 11:42:29",
		"2 days ago 10:00": "2026-11-21 10:00:00",
		"next monday":      "2026-11-30 00:00:00",
		"monday":           "2026-11-23 00:00:00",
		"last monday":      "2026-11-16 00:00:00",
		"12:30":            "2026-11-23 12:30:00",
		"Jan 2":            "2026-01-02 00:00:00",
		"today":            "2026-11-23 11:42:29",
		"3 weeks":          "2026-12-14 11:42:29",
		"last year":        "2025-11-23 11:42:29",
	}
	for in, want := range cases {
		got, err := Parse(in, now, time.UTC)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if g := got.Format("2006-01-02 15:04:05"); g != want {
			t.Errorf("%q: got %s want %s", in, g, want)
		}
	}
	loc := time.FixedZone("X", 9*3600)
	got, _ := Parse("2024-01-02 03:04:05", now, loc)
	if got.UTC().Format(time.DateTime) != "2024-01-01 18:04:05" {
		t.Errorf("zone: %s", got.UTC())
	}
}
