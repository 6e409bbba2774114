// Package sqlite3 implements the sqlite3 command-line shell over a pure-Go
// SQLite (github.com/ncruces/go-sqlite3, SQLite compiled to Go, so it has
// no cgo and starts nothing before the first database is opened). The
// command line, output modes, dot-commands and messages follow the shell of
// SQLite 3.40 (Debian 12's sqlite3).
//
// Database files open through the sandbox filesystem by a VFS of the
// call's own (vfs.go): a read-only volume's database is read from the
// volume and written in the overlay, and no statement reaches the host.
package sqlite3

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	sqlite "github.com/ncruces/go-sqlite3"

	"github.com/bashbox/bashbox/builtins"
)

const usage = `Usage: %s [OPTIONS] FILENAME [SQL]
FILENAME is the name of an SQLite database. A new database is created
if the file does not previously exist.
OPTIONS include:
   -ascii               set output mode to 'ascii'
   -bail                stop after hitting an error
   -batch               force batch I/O
   -box                 set output mode to 'box'
   -column              set output mode to 'column'
   -cmd COMMAND         run "COMMAND" before reading stdin
   -csv                 set output mode to 'csv'
   -echo                print inputs before execution
   -init FILENAME       read/process named file
   -[no]header          turn headers on or off
   -help                show this message
   -json                set output mode to 'json'
   -line                set output mode to 'line'
   -list                set output mode to 'list'
   -markdown            set output mode to 'markdown'
   -newline SEP         set output row separator. Default: '\n'
   -nullvalue TEXT      set text string for NULL values. Default ''
   -quote               set output mode to 'quote'
   -readonly            open the database read-only
   -separator SEP       set output column separator. Default: '|'
   -table               set output mode to 'table'
   -tabs                set output mode to 'tabs'
   -version             show SQLite version
`

// shell is one run of the command: sqlite3's ShellState.
type shell struct {
	ctx       context.Context
	c         *builtins.Call
	out       *bufio.Writer
	vfs       *sandboxVFS
	file      string // database operand ("" or ":memory:" for memory)
	db        *sqlite.Conn
	readonly  bool
	mode      mode
	headers   bool
	headerSet bool // .headers or -header given: .mode column keeps it
	colSep    string
	rowSep    string
	null      string
	bail      bool
	echo      bool
	widths    []int
	wrap      int  // columnar modes cut values at this width (.mode sets 60)
	dead      bool // the database could not be opened: the shell stops
}

// Run is the sqlite3 command.
func Run(ctx context.Context, c *builtins.Call) (status int) {
	s := &shell{ctx: ctx, c: c, out: bufio.NewWriterSize(c.Stdout, 64<<10), mode: modeList, colSep: "|", rowSep: "\n"}
	defer s.close()
	defer func() {
		// The library panics when SQLite runs out of memory (the heap
		// limit): the connection is closed and the shell stops.
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok || !strings.Contains(err.Error(), "out of memory") {
				panic(r)
			}
			s.db = nil
			s.errorf("Error: out of memory\n")
			status = 1
		}
	}()
	status = s.main()
	if err := s.out.Flush(); err != nil && status == 0 {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		return 1
	}
	return status
}

func (s *shell) close() {
	if s.db != nil {
		s.db.Close()
	}
	if s.vfs != nil {
		s.vfs.unregister()
	}
}

func (s *shell) errorf(format string, args ...any) {
	s.out.Flush()
	fmt.Fprintf(s.c.Stderr, format, args...)
}

func (s *shell) main() int {
	args := s.c.Args[1:]
	var cmds, sqls []string
	var init string
	haveFile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if !haveFile {
				s.file, haveFile = a, true
			} else {
				sqls = append(sqls, a)
			}
			continue
		}
		opt := strings.TrimPrefix(a, "-")
		opt = strings.TrimPrefix(opt, "-")
		needArg := func() (string, bool) {
			if i+1 >= len(args) {
				s.errorf("%s: Error: missing argument to %s\n", s.c.Name(), a)
				return "", false
			}
			i++
			return args[i], true
		}
		switch opt {
		case "cmd", "init", "separator", "newline", "nullvalue":
			v, ok := needArg()
			if !ok {
				return 1
			}
			switch opt {
			case "cmd":
				cmds = append(cmds, v)
			case "init":
				init = v
			case "separator":
				s.colSep = unescape(v)
			case "newline":
				s.rowSep = unescape(v)
			case "nullvalue":
				s.null = unescape(v)
			}
		case "header":
			s.headers, s.headerSet = true, true
		case "noheader":
			s.headers, s.headerSet = false, true
		case "bail":
			s.bail = true
		case "echo":
			s.echo = true
		case "readonly":
			s.readonly = true
		case "batch", "interactive", "safe", "nofollow", "stats":
		case "version":
			return s.version()
		case "help":
			// The shell writes this to standard error; the sandbox's
			// commands all answer --help on standard output.
			fmt.Fprintf(s.out, usage, s.c.Name())
			return 0
		default:
			m, ok := modeOption[opt]
			if !ok {
				s.errorf("%s: Error: unknown option: %s\nUse -help for a list of options.\n", s.c.Name(), a)
				return 1
			}
			s.setMode(m)
		}
	}
	if init != "" {
		if rc := s.readFile(init); rc != 0 && s.bail {
			return rc
		}
	}
	for _, cmd := range cmds {
		if strings.HasPrefix(cmd, ".") {
			rc := s.dot(cmd)
			if rc == quit {
				return 0
			}
			if rc != 0 && s.bail {
				return rc
			}
			continue
		}
		if rc, msg := s.execute(cmd); msg != "" || rc != 0 {
			if rc == openFailed {
				return 1
			}
			if msg == "" {
				msg = "unable to process SQL \"" + cmd + "\""
			}
			s.errorf("Error: %s\n", msg)
			if s.bail {
				return max(rc, 1)
			}
		}
	}
	if len(sqls) > 0 {
		for _, q := range sqls {
			if strings.HasPrefix(q, ".") {
				rc := s.dot(q)
				if rc == quit {
					return 0
				}
				if rc != 0 {
					return rc
				}
				continue
			}
			if rc, msg := s.execute(q); msg != "" || rc != 0 {
				if rc == openFailed {
					return 1
				}
				if msg == "" {
					msg = "unable to process SQL: " + q
				}
				s.errorf("Error: %s\n", msg)
				return max(rc, 1)
			}
		}
		return 0
	}
	return s.process(s.c.Stdin)
}

func (s *shell) version() int {
	if err := s.openDB(); err != nil {
		return 1
	}
	var v, id string
	if stmt, _, err := s.db.Prepare("select sqlite_version(), sqlite_source_id()"); err == nil {
		if stmt.Step() {
			v, id = stmt.ColumnText(0), stmt.ColumnText(1)
		}
		stmt.Close()
	}
	fmt.Fprintf(s.out, "%s %s\n", v, id)
	return 0
}

// openDB opens the database on first use, as the shell does.
func (s *shell) openDB() error {
	if s.db != nil {
		return nil
	}
	if s.vfs == nil {
		s.vfs = registerVFS(s.c)
	}
	name := s.file
	var uri string
	switch name {
	case "", ":memory:":
		uri = "file::memory:?vfs=" + s.vfs.name
	default:
		uri = s.vfs.uri(name, s.readonly)
	}
	flags := sqlite.OPEN_READWRITE | sqlite.OPEN_CREATE | sqlite.OPEN_URI
	if s.readonly {
		flags = sqlite.OPEN_READONLY | sqlite.OPEN_URI
	}
	db, err := sqlite.OpenFlags(uri, flags)
	if err != nil {
		shown := name
		if shown == "" {
			shown = ":memory:"
		}
		s.errorf("Error: unable to open database \"%s\": %s\n", shown, errText(err))
		s.dead = true
		return err
	}
	if err := guard(db); err != nil {
		db.Close()
		s.errorf("Error: %s\n", errText(err))
		return err
	}
	// Debian's SQLite is built to accept double-quoted string literals,
	// as SQLite is by default; this one is not.
	db.Config(sqlite.DBCONFIG_DQS_DML, true)
	db.Config(sqlite.DBCONFIG_DQS_DDL, true)
	db.SetInterrupt(s.ctx)
	s.db = db
	return nil
}

// heapLimit bounds the memory SQLite allocates for one connection.
const heapLimit = 256 << 20

// guard refuses statements that would open a file by another VFS than the
// call's: ATTACH (and VACUUM INTO, which attaches) of a URI file name,
// whose vfs= parameter could name the library's host VFS. It sets a heap
// limit that statements may not raise.
func guard(db *sqlite.Conn) error {
	if err := db.Exec(fmt.Sprintf("PRAGMA hard_heap_limit=%d", heapLimit)); err != nil {
		return err
	}
	return db.SetAuthorizer(func(action sqlite.AuthorizerActionCode, name3rd, _, _, _ string) sqlite.AuthorizerReturnCode {
		switch {
		case action == sqlite.AUTH_ATTACH && len(name3rd) >= 5 && strings.EqualFold(name3rd[:5], "file:"):
			return sqlite.AUTH_DENY
		case action == sqlite.AUTH_PRAGMA && (strings.EqualFold(name3rd, "hard_heap_limit") || strings.EqualFold(name3rd, "soft_heap_limit")):
			return sqlite.AUTH_DENY
		}
		return sqlite.AUTH_OK
	})
}

// process reads SQL and dot-commands from r, as the shell reads its
// standard input: statements run when a line completes them.
func (s *shell) process(r io.Reader) int {
	br := bufio.NewReader(r)
	var sql strings.Builder
	lineno, start, errs := 0, 0, 0
	for {
		if s.ctx.Err() != nil {
			return 1
		}
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			break
		}
		lineno++
		line = strings.TrimSuffix(line, "\n")
		if sql.Len() == 0 {
			trimmed := strings.TrimLeft(line, " \t\r\f\v")
			if trimmed == "" {
				continue
			}
			if strings.HasPrefix(trimmed, ".") {
				if s.echo {
					fmt.Fprintf(s.out, "%s\n", line)
				}
				rc := s.dot(trimmed)
				if rc == quit || s.dead {
					break
				}
				if rc != 0 {
					errs++
					if s.bail {
						break
					}
				}
				continue
			}
			start = lineno
			sql.WriteString(trimmed)
		} else {
			sql.WriteString("\n")
			sql.WriteString(line)
		}
		if endsWithSemicolon(sql.String()) && complete(sql.String()) {
			failed := s.runLine(sql.String(), start)
			sql.Reset()
			if s.dead {
				return 1
			}
			if failed {
				errs++
				if s.bail {
					break
				}
			}
		}
	}
	if strings.TrimSpace(sql.String()) != "" {
		if s.runLine(sql.String(), start) {
			errs++
		}
	}
	if errs > 0 {
		return 1
	}
	return 0
}

// runLine runs statements read from input and reports an error with the
// line it started on.
func (s *shell) runLine(sql string, line int) bool {
	if s.echo {
		fmt.Fprintf(s.out, "%s\n", sql)
	}
	rc, msg := s.execute(sql)
	if msg == "" && rc == 0 || rc == openFailed {
		return rc != 0
	}
	kind, tail := "Error", msg
	if t, ok := strings.CutPrefix(msg, "in prepare, "); ok {
		kind, tail = "Parse error", t
	} else if t, ok := strings.CutPrefix(msg, "stepping, "); ok {
		kind, tail = "Runtime error", t
	}
	s.errorf("%s near line %d: %s\n", kind, line, tail)
	return true
}

// readFile runs the SQL and dot-commands of a file (.read, -init).
func (s *shell) readFile(name string) int {
	f, err := s.c.Open(name)
	if err != nil {
		s.errorf("Error: cannot open \"%s\"\n", name)
		return 1
	}
	defer f.Close()
	return s.process(f)
}

// unescape resolves the backslash escapes the shell accepts in separators
// and other arguments.
func unescape(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		ch := v[i]
		if ch != '\\' || i+1 == len(v) {
			b.WriteByte(ch)
			continue
		}
		i++
		switch v[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		case '"':
			b.WriteByte('"')
		case '\'':
			b.WriteByte('\'')
		default:
			b.WriteByte('\\')
			b.WriteByte(v[i])
		}
	}
	return b.String()
}
