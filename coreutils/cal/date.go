package cal

// The calendar is Julian up to 2 September 1752 and Gregorian from the
// next day, 14 September 1752, as Debian's ncal does by default.

// jdn is the Julian day number of a date, Julian or Gregorian by the
// reform.
func jdn(y, m, d int) int {
	if gregorian(y, m, d) {
		a := (14 - m) / 12
		yy := y + 4800 - a
		return jdnJulian(y, m, d) - yy/100 + yy/400 + 38
	}
	return jdnJulian(y, m, d)
}

func gregorian(y, m, d int) bool {
	return y > 1752 || y == 1752 && (m > 9 || m == 9 && d >= 14)
}

func leap(y int) bool {
	if y <= 1752 {
		return y%4 == 0
	}
	return y%4 == 0 && (y%100 != 0 || y%400 == 0)
}

func monthDays(y, m int) int {
	switch m {
	case 2:
		if leap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// days lists the days that exist in a month (1752 lost 3..13 September).
func days(y, m int) []int {
	var out []int
	for d := 1; d <= monthDays(y, m); d++ {
		if y == 1752 && m == 9 && d > 2 && d < 14 {
			continue
		}
		out = append(out, d)
	}
	return out
}

// weekday is 0 for Sunday.
func weekday(j int) int { return (j + 1) % 7 }

// isoWeek is the ISO 8601 week number of the day with Julian day j.
func isoWeek(j int) int {
	// The Thursday of j's week decides the year.
	wd := (weekday(j) + 6) % 7 // Monday 0
	thu := j - wd + 3
	y := yearOf(thu)
	return (thu-jdn(y, 1, 1))/7 + 1
}

// yearOf is the year of Julian day j (Gregorian years; only used for
// week numbers).
func yearOf(j int) int {
	y, _, _ := gregorianDate(j)
	return y
}

// easter is the Gregorian Easter Sunday of year y (the anonymous
// Gregorian algorithm).
func easter(y int) (int, int) {
	a := y % 19
	b, c := y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return month, day
}

// orthodoxEaster is the Julian-computus Easter of year y as a Gregorian
// date.
func orthodoxEaster(y int) (int, int) {
	a, b, c := y%4, y%7, y%19
	d := (19*c + 15) % 30
	e := (2*a + 4*b - d + 34) % 7
	month := (d + e + 114) / 31
	day := (d+e+114)%31 + 1
	return gregorianOf(jdnJulian(y, month, day))
}

func jdnJulian(y, m, d int) int {
	a := (14 - m) / 12
	yy := y + 4800 - a
	mm := m + 12*a - 3
	return d + (153*mm+2)/5 + 365*yy + yy/4 - 32083
}

func gregorianOf(j int) (int, int) {
	_, m, d := gregorianDate(j)
	return m, d
}

// gregorianDate is the Gregorian year, month and day of Julian day j.
func gregorianDate(j int) (int, int, int) {
	a := j + 32044
	b := (4*a + 3) / 146097
	c := a - 146097*b/4
	d := (4*c + 3) / 1461
	e := c - 1461*d/4
	m := (5*e + 2) / 153
	return 100*b + d - 4800 + m/10, m + 3 - 12*(m/10), e - (153*m+2)/5 + 1
}
