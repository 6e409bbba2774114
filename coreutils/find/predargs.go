package find

import (
	"errors"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/overlayfs"
)

// The arguments of the predicates: depths, numbers with their +/- sign,
// sizes, modes, times, dates, user and group names and file identities.

// nameOf is the base name -name matches: the last component, trailing
// slashes removed ("/" for the root).
func nameOf(p string) string {
	end := len(p)
	for end > 1 && p[end-1] == '/' {
		end--
	}
	p = p[:end]
	if p == "/" {
		return p
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

func parseDepth(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return math.MaxInt32, true
	}
	return n, true
}

// comparison of a numeric argument: +N, -N or N
const (
	cmpEQ = iota
	cmpGT
	cmpLT
)

// parseNumArg reads [+-]N; floats are allowed for the time tests.
func parseNumArg(s string, float bool) (int, float64, bool) {
	cmp := cmpEQ
	switch {
	case strings.HasPrefix(s, "+"):
		cmp, s = cmpGT, s[1:]
	case strings.HasPrefix(s, "-"):
		cmp, s = cmpLT, s[1:]
	}
	if s == "" {
		return 0, 0, false
	}
	if float {
		v, ok := procutil.ParseCFloat(s)
		if !ok || math.IsNaN(v) || strings.HasPrefix(strings.TrimLeft(s, " \t\n\v\f\r"), "+") ||
			strings.HasPrefix(strings.TrimLeft(s, " \t\n\v\f\r"), "-") {
			return 0, 0, false
		}
		return cmp, v, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, false
	}
	return cmp, v, true
}

func compareNum(cmp int, got, want float64) bool {
	switch cmp {
	case cmpGT:
		return got > want
	case cmpLT:
		return got < want
	}
	return got == want
}

// parseSize reads -size [+-]N[bcwkMG]; sizes round up to whole units.
func parseSize(s string) (func(*entry) bool, error) {
	if s == "" {
		return nil, perr("invalid null argument to -size")
	}
	cmp := cmpEQ
	num := s
	switch num[0] {
	case '+':
		cmp, num = cmpGT, num[1:]
	case '-':
		cmp, num = cmpLT, num[1:]
	}
	unit := int64(512)
	if n := len(num); n > 0 {
		switch c := num[n-1]; c {
		case 'b':
			num = num[:n-1]
		case 'c':
			unit, num = 1, num[:n-1]
		case 'w':
			unit, num = 2, num[:n-1]
		case 'k':
			unit, num = 1024, num[:n-1]
		case 'M':
			unit, num = 1<<20, num[:n-1]
		case 'G':
			unit, num = 1<<30, num[:n-1]
		default:
			if c < '0' || c > '9' {
				return nil, perr("invalid -size type `%c'", c)
			}
		}
	}
	if num == "" {
		return nil, perr("Invalid argument `%s' to -size", s)
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return nil, perr("Invalid argument `%s' to -size", s)
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return nil, perr("Invalid argument `%s' to -size", s)
	}
	return func(e *entry) bool {
		size := e.info.Size()
		units := (size + unit - 1) / unit
		switch cmp {
		case cmpGT:
			return units > n
		case cmpLT:
			return units < n
		}
		return units == n
	}, nil
}

func (f *finder) parsePerm(s string) (func(*entry) bool, error) {
	kind := byte(0)
	body := s
	if body != "" && (body[0] == '-' || body[0] == '/') {
		kind, body = body[0], body[1:]
	}
	ch, err := modes.Parse(body)
	if err != nil {
		return nil, perr("invalid mode %s", f.quote(s))
	}
	// The mode applied to 0, for files and for directories (a+X differs).
	vals := [2]uint32{ch.Apply(0, false, 0), ch.Apply(0, true, 0)}
	val := func(e *entry) uint32 {
		if e.info.IsDir() {
			return vals[1]
		}
		return vals[0]
	}
	switch kind {
	case '-':
		return func(e *entry) bool { v := val(e); return modes.Perm(e.info.Mode())&v == v }, nil
	case '/':
		if vals == [2]uint32{} {
			f.warnf("warning: you have specified a mode pattern %s (which is equivalent to /000). The meaning of -perm /000 has now been changed to be consistent with -perm -000; that is, while it used to match no files, it now matches all files.", s)
			return alwaysTrue, nil
		}
		return func(e *entry) bool { v := val(e); return v == 0 || modes.Perm(e.info.Mode())&v != 0 }, nil
	}
	return func(e *entry) bool { return modes.Perm(e.info.Mode()) == val(e) }, nil
}

func timeGetter(kind byte) func(*entry) time.Time {
	switch kind {
	case 'a':
		return (*entry).atime
	case 'c':
		return (*entry).ctime
	}
	return func(e *entry) time.Time { return e.info.ModTime() }
}

// parseTime builds -mtime N and friends. Ages are measured from the start
// of find (or of tomorrow with -daystart); the day tests count whole
// days as GNU does: +N means at least N+1 days, -N less than N days, N
// between N and N+1 days; the minute tests compare minutes exactly
// with N meaning (N-1, N].
func (f *finder) parseTime(name, arg string) (func(*entry) bool, bool) {
	cmp, v, ok := parseNumArg(arg, true)
	if !ok {
		return nil, false
	}
	get := timeGetter(name[1])
	unit := 86400.0
	origin := f.dayStart
	days := strings.HasSuffix(name, "time")
	if !days {
		unit = 60
	}
	n := v * unit
	return func(e *entry) bool {
		age := origin.Sub(get(e)).Seconds()
		if days {
			switch cmp {
			case cmpGT:
				return age >= n+unit
			case cmpLT:
				return age < n
			}
			return age >= n && age < n+unit
		}
		switch cmp {
		case cmpGT:
			return age > n
		case cmpLT:
			return age < n
		}
		return age > n-unit && age <= n
	}, true
}

// refStat stats the reference file of -newer and -samefile, following
// symlinks when -H or -L is in effect.
func (f *finder) refStat(name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	var err error
	if f.follow != followNever {
		fi, err = f.c.Stat(name)
		if err != nil && errors.Is(err, fs.ErrNotExist) {
			fi, err = f.c.Lstat(name)
		}
	} else {
		fi, err = f.c.Lstat(name)
	}
	if err != nil {
		return nil, perr("%s: %s", f.quote(name), builtins.ErrText(err))
	}
	return fi, nil
}

func (f *finder) parseNewerXY(name string, args []string) (*node, int, int, error) {
	x, y := name[6], name[7]
	valid := func(c byte) bool { return strings.IndexByte("aBcmt", c) >= 0 }
	if !valid(x) || !valid(y) || x == 't' {
		return nil, 0, 0, perr("invalid predicate `%s'", name)
	}
	if x == 'B' || y == 'B' {
		f.c.Errorf("This system does not provide a way to find the birth time of a file.")
		return nil, 0, 0, perr("invalid predicate `%s'", name)
	}
	if len(args) == 0 {
		return nil, 0, 0, perr("missing argument to `%s'", name)
	}
	var ref time.Time
	if y == 't' {
		t, ok := parseDate(args[0], f.now, f.loc)
		if !ok {
			return nil, 0, 0, perr("I cannot figure out how to interpret %s as a date or time", f.quote(args[0]))
		}
		ref = t
	} else {
		fi, err := f.refStat(args[0])
		if err != nil {
			return nil, 0, 0, err
		}
		e := &entry{info: fi}
		ref = timeGetter(y)(e)
	}
	get := timeGetter(x)
	return pred(name, func(e *entry) bool { return get(e).After(ref) }), 1, clsTest, nil
}

// parseDate reads the date forms scripts commonly give -newermt: ISO 8601
// dates and times, @SECONDS, and now/today/yesterday/tomorrow.
func parseDate(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		v, ok := procutil.ParseCFloat(s[1:])
		if !ok {
			return time.Time{}, false
		}
		sec, frac := math.Modf(v)
		return time.Unix(int64(sec), int64(frac*1e9)), true
	}
	local := now.In(loc)
	y, m, d := local.Date()
	switch strings.ToLower(s) {
	case "now":
		return now, true
	case "today":
		return time.Date(y, m, d, 0, 0, 0, 0, loc), true
	case "yesterday":
		return time.Date(y, m, d-1, 0, 0, 0, 0, loc), true
	case "tomorrow":
		return time.Date(y, m, d+1, 0, 0, 0, 0, loc), true
	}
	layouts := []string{
		"2006-01-02", "2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700",
		"2006/01/02", "2006/01/02 15:04", "2006/01/02 15:04:05", "01/02/2006", "20060102",
		"Jan 2 2006", "2 Jan 2006", "Jan 2 15:04:05 2006", "Mon Jan 2 15:04:05 2006", "Mon Jan 2 15:04:05 MST 2006",
	}
	for _, l := range layouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t, true
		}
	}
	for _, l := range []string{"15:04", "15:04:05"} {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, loc), true
		}
	}
	return time.Time{}, false
}

// lookupID resolves a user or group name (or number) of the sandbox:
// root is 0 and the sandbox user (and group) "user" is 1000; names in the
// guest's /etc/passwd and /etc/group count too.
func (f *finder) lookupID(name string, group bool) (int, bool) {
	if name != "" && strings.Trim(name, "0123456789") == "" {
		n, err := strconv.Atoi(name)
		return n, err == nil
	}
	switch name {
	case "root":
		return 0, true
	case sandboxUser:
		return sandboxID, true
	}
	db := "/etc/passwd"
	if group {
		db = "/etc/group"
	}
	fh, err := f.c.FS.Open(db)
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := fh.Read(buf)
		b.Write(buf[:n])
		if err != nil || b.Len() > 1<<20 {
			break
		}
	}
	for _, line := range strings.Split(b.String(), "\n") {
		fields := strings.Split(line, ":")
		if len(fields) >= 3 && fields[0] == name {
			n, err := strconv.Atoi(fields[2])
			return n, err == nil
		}
	}
	return 0, false
}

func (f *finder) parseSamefile(name string) (func(*entry) bool, error) {
	ref, err := f.refStat(name)
	if err != nil {
		return nil, err
	}
	if id, ok := overlayfs.Identity(ref); ok {
		return func(e *entry) bool {
			got, ok := overlayfs.Identity(e.info)
			return ok && got == id
		}, nil
	}
	var refPath string
	if f.follow != followNever {
		refPath, err = procutil.Realpath(f.c, name)
	} else {
		refPath, err = f.physNoFollow(f.c.Abs(name))
	}
	if err != nil {
		return nil, perr("%s: %s", f.quote(name), builtins.ErrText(err))
	}
	return func(e *entry) bool {
		if e.info.Size() != ref.Size() || e.info.Mode() != ref.Mode() {
			return false
		}
		var p string
		var err error
		if e.info.Mode()&modeSymlink != 0 {
			p, err = f.physNoFollow(e.absPath())
		} else {
			p, err = procutil.Realpath(f.c, e.absPath())
		}
		return err == nil && p == refPath
	}, nil
}

// physNoFollow resolves the directory part of abs, keeping its last
// component (the identity of a symlink itself).
func (f *finder) physNoFollow(abs string) (string, error) {
	dir, base := abs, ""
	if i := strings.LastIndexByte(strings.TrimRight(abs, "/"), '/'); i >= 0 {
		dir, base = abs[:i+1], strings.TrimRight(abs[i+1:], "/")
	}
	if dir == "" {
		dir = "/"
	}
	sub := *f.c
	sub.Dir = "/"
	p, err := procutil.Realpath(&sub, dir)
	if err != nil {
		return "", err
	}
	return joinAbs(p, base), nil
}

// xtype is -xtype: the type of what a symlink points to (the link itself
// under -L, whose entries are already followed).
func (f *finder) xtype(e *entry, set *[256]bool) bool {
	if f.follow == followAll {
		return set[typeChar(e.lst.Mode())]
	}
	if e.info.Mode()&modeSymlink == 0 {
		return set[typeChar(e.info.Mode())]
	}
	fi, err := f.target(e)
	switch {
	case err == nil:
		return set[typeChar(fi.Mode())]
	case errors.Is(err, fs.ErrNotExist):
		return set['l']
	}
	f.fileError(e.path, err)
	return false
}
