package cal

import "testing"

func TestDates(t *testing.T) {
	if got := weekday(jdn(2024, 3, 1)); got != 5 {
		t.Errorf("2024-03-01 weekday %d, want 5 (Friday)", got)
	}
	if jdn(1752, 9, 14)-jdn(1752, 9, 2) != 1 {
		t.Error("the 1752 reform should drop 3..13 September")
	}
	if got := len(days(1752, 9)); got != 19 {
		t.Errorf("September 1752 has %d days, want 19", got)
	}
	if m, d := easter(2024); m != 3 || d != 31 {
		t.Errorf("easter 2024 = %d/%d", m, d)
	}
	if m, d := orthodoxEaster(2024); m != 5 || d != 5 {
		t.Errorf("orthodox easter 2024 = %d/%d", m, d)
	}
	if w := isoWeek(jdn(2024, 12, 30)); w != 1 {
		t.Errorf("2024-12-30 ISO week %d, want 1", w)
	}
}
