package sqlite3

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	sqlite "github.com/ncruces/go-sqlite3"
)

// quit is what a dot-command returns to end the shell (.quit, .exit).
const quit = -1

// dotArgs splits a dot-command line as the shell does: white space
// separates arguments, quotes group them.
func dotArgs(line string) []string {
	var args []string
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		if i >= len(line) {
			break
		}
		switch q := line[i]; q {
		case '"', '\'':
			j := i + 1
			for j < len(line) && line[j] != q {
				if q == '"' && line[j] == '\\' && j+1 < len(line) {
					j++
				}
				j++
			}
			arg := line[i+1 : min(j, len(line))]
			if q == '"' {
				arg = unescape(arg)
			}
			args = append(args, arg)
			i = j + 1
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
				j++
			}
			args = append(args, line[i:j])
			i = j
		}
	}
	return args
}

// dot runs a dot-command: 0 on success, 1 on error, quit to stop.
func (s *shell) dot(line string) int {
	args := dotArgs(strings.TrimPrefix(line, "."))
	if len(args) == 0 {
		return 0
	}
	name := args[0]
	bad := func() int {
		s.errorf("Error: unknown command or invalid arguments:  \"%s\". Enter \".help\" for help\n", name)
		return 1
	}
	switch {
	case name == "quit" || name == "q" && len(args) == 1:
		return quit
	case name == "exit":
		if len(args) > 1 {
			n, _ := strconv.Atoi(args[1])
			if n != 0 {
				return n
			}
		}
		return quit
	case name == "headers" || name == "header":
		if len(args) != 2 {
			s.errorf("Usage: .headers on|off\n")
			return 1
		}
		s.headers, s.headerSet = boolArg(args[1]), true
	case name == "mode":
		if len(args) == 1 {
			fmt.Fprintf(s.out, "current output mode: %s", s.mode)
			if s.columnar() {
				fmt.Fprintf(s.out, " --wrap %d --wordwrap off --noquote", s.wrap)
			}
			fmt.Fprintln(s.out)
			return 0
		}
		m, ok := modeNames[args[1]]
		if !ok {
			s.errorf("Error: mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl\n")
			return 1
		}
		s.setMode(m)
		switch {
		case m == modeCSV:
			s.rowSep = "\r\n"
		case s.columnar():
			s.wrap = 60
			if m == modeColumn && !s.headerSet {
				s.headers = true
			}
		}
	case name == "separator":
		if len(args) < 2 || len(args) > 3 {
			s.errorf("Usage: .separator COL ?ROW?\n")
			return 1
		}
		s.colSep = unescape(args[1])
		if len(args) == 3 {
			s.rowSep = unescape(args[2])
		}
	case name == "nullvalue":
		if len(args) != 2 {
			s.errorf("Usage: .nullvalue STRING\n")
			return 1
		}
		s.null = unescape(args[1])
	case name == "bail":
		if len(args) != 2 {
			s.errorf("Usage: .bail on|off\n")
			return 1
		}
		s.bail = boolArg(args[1])
	case name == "echo":
		if len(args) != 2 {
			s.errorf("Usage: .echo on|off\n")
			return 1
		}
		s.echo = boolArg(args[1])
	case name == "print":
		fmt.Fprintf(s.out, "%s\n", strings.Join(args[1:], " "))
	case name == "width":
		s.widths = s.widths[:0]
		for _, a := range args[1:] {
			n, _ := strconv.Atoi(a)
			s.widths = append(s.widths, n)
		}
	case name == "read":
		if len(args) != 2 {
			s.errorf("Usage: .read FILE\n")
			return 1
		}
		return s.readFile(args[1])
	case name == "open":
		return s.open(args[1:])
	case name == "tables":
		return s.tables(args[1:], "table")
	case name == "indexes" || name == "indices":
		return s.tables(args[1:], "index")
	case name == "schema":
		return s.schema(args[1:])
	case name == "databases":
		return s.databases()
	case name == "dump":
		return s.dump(args[1:])
	case name == "show":
		s.show()
	case name == "help":
		fmt.Fprint(s.out, dotHelp)
	default:
		return bad()
	}
	return 0
}

func boolArg(v string) bool {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return true
	}
	n, err := strconv.Atoi(v)
	return err == nil && n != 0
}

const dotHelp = `.bail on|off             Stop after hitting an error.  Default OFF
.databases               List names and files of attached databases
.dump ?OBJECTS?          Render database content as SQL
.echo on|off             Turn command echo on or off
.exit ?CODE?             Exit this program with return-code CODE
.headers on|off          Turn display of headers on or off
.help ?-all? ?PATTERN?   Show help text for PATTERN
.indexes ?TABLE?         Show names of indexes
.mode MODE ?OPTIONS?     Set output mode
.nullvalue STRING        Use STRING in place of NULL values
.open ?OPTIONS? ?FILE?   Close existing database and reopen FILE
.print STRING...         Print literal STRING
.quit                    Exit this program
.read FILE               Read input from FILE or command output
.schema ?PATTERN?        Show the CREATE statements matching PATTERN
.separator COL ?ROW?     Change the column and row separators
.show                    Show the current values for various settings
.tables ?TABLE?          List names of tables matching LIKE pattern TABLE
.width NUM1 NUM2 ...     Set minimum column widths for columnar output
`

func (s *shell) open(args []string) int {
	file := ""
	readonly := false
	for _, a := range args {
		switch a {
		case "--readonly", "-readonly":
			readonly = true
		case "--new", "-new":
		default:
			file = a
		}
	}
	if s.db != nil {
		s.db.Close()
		s.db = nil
	}
	s.file, s.readonly = file, readonly
	if err := s.openDB(); err != nil {
		return 1
	}
	return 0
}

// query runs sql and returns its rows as text (NULL as "").
func (s *shell) query(sql string, args ...any) ([][]string, error) {
	if err := s.openDB(); err != nil {
		return nil, err
	}
	stmt, _, err := s.db.Prepare(sql)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	for i, a := range args {
		stmt.BindText(i+1, fmt.Sprint(a))
	}
	var rows [][]string
	for stmt.Step() {
		r := make([]string, stmt.ColumnCount())
		for i := range r {
			r[i] = stmt.ColumnText(i)
		}
		rows = append(rows, r)
	}
	return rows, stmt.Err()
}

// schemas lists the attached databases: main, then temp, then the others.
func (s *shell) schemas() ([][]string, error) {
	return s.query("PRAGMA database_list")
}

// tables prints the names of tables and views (or indexes) in columns, as
// .tables and .indexes do.
func (s *shell) tables(args []string, kind string) int {
	dbs, err := s.schemas()
	if err != nil {
		s.errorf("Error: %s\n", errText(err))
		return 1
	}
	pattern := "%"
	if len(args) > 0 {
		pattern = args[0]
	}
	var names []string
	for _, db := range dbs {
		schema := db[1]
		where := "type IN ('table','view')"
		if kind == "index" {
			where = "type='index'"
			if len(args) > 0 {
				where += " AND tbl_name LIKE ?1"
			}
		} else {
			where += " AND name LIKE ?1"
		}
		q := fmt.Sprintf("SELECT name FROM %s.sqlite_schema WHERE %s ORDER BY 1", sqlite.QuoteIdentifier(schema), where)
		if kind == "index" && len(args) == 0 {
			q = strings.Replace(q, "?1", "'%'", 1)
		}
		rows, err := s.query(q, pattern)
		if err != nil {
			s.errorf("Error: %s\n", errText(err))
			return 1
		}
		for _, r := range rows {
			if kind == "table" && strings.HasPrefix(r[0], "sqlite_") {
				continue
			}
			if schema != "main" && kind != "index" {
				names = append(names, schema+"."+r[0])
			} else {
				names = append(names, r[0])
			}
		}
	}
	sort.Strings(names)
	s.printInColumns(names)
	return 0
}

// printInColumns lays names out down then across in 80 columns.
func (s *shell) printInColumns(names []string) {
	if len(names) == 0 {
		return
	}
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	perLine := max(1, 80/(width+2))
	rows := (len(names) + perLine - 1) / perLine
	for i := 0; i < rows; i++ {
		for j := i; j < len(names); j += rows {
			sp := ""
			if j >= rows {
				sp = "  "
			}
			fmt.Fprintf(s.out, "%s%-*s", sp, width, names[j])
		}
		s.out.WriteString("\n")
	}
}

// schema prints the CREATE statements (.schema).
func (s *shell) schema(args []string) int {
	var pattern string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			pattern = a
		}
	}
	dbs, err := s.schemas()
	if err != nil {
		s.errorf("Error: %s\n", errText(err))
		return 1
	}
	for _, db := range dbs {
		q := fmt.Sprintf("SELECT sql, type, name FROM %s.sqlite_schema WHERE type!='meta' AND sql IS NOT NULL", sqlite.QuoteIdentifier(db[1]))
		var rows [][]string
		if pattern != "" {
			rows, err = s.query(q+" AND (lower(tbl_name) LIKE lower(?1) OR lower(name) LIKE lower(?1)) ORDER BY rowid", pattern)
		} else {
			rows, err = s.query(q + " ORDER BY rowid")
		}
		if err != nil {
			s.errorf("Error: %s\n", errText(err))
			return 1
		}
		for _, r := range rows {
			sql := r[0]
			if r[1] == "view" {
				if cols := s.viewColumns(db[1], r[2]); cols != "" {
					sql += "\n/* " + cols + " */"
				}
			}
			s.schemaLine(sql, ";\n")
		}
	}
	return 0
}

// viewColumns is the comment .schema adds after a view: its name and
// columns, "v(a,b)".
func (s *shell) viewColumns(schema, view string) string {
	rows, err := s.query(fmt.Sprintf("PRAGMA %s.table_info=%s", sqlite.QuoteIdentifier(schema), quoteSQL(view)))
	if err != nil || len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	if schema != "main" {
		b.WriteString(identifier(schema) + ".")
	}
	b.WriteString(identifier(view))
	for i, r := range rows {
		if i == 0 {
			b.WriteByte('(')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(identifier(r[1]))
	}
	b.WriteByte(')')
	return b.String()
}

// identifier quotes a name that is not a plain identifier.
func identifier(name string) string {
	plain := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for i := 0; i < len(name) && plain; i++ {
		plain = idChar(name[i]) && name[i] != '$' && name[i] < 0x80
	}
	if plain {
		return name
	}
	return sqlite.QuoteIdentifier(name)
}

// schemaLine prints one CREATE statement as the shell's printSchemaLine.
func (s *shell) schemaLine(sql, tail string) {
	if strings.Contains(sql, "/*") || strings.Contains(sql, "--") {
		for _, term := range []string{"", "*/", "\n"} {
			if complete(sql + term + ";") {
				sql += term
				break
			}
		}
	}
	if rest, ok := strings.CutPrefix(sql, "CREATE TABLE "); ok && (strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, `"`)) {
		fmt.Fprintf(s.out, "CREATE TABLE IF NOT EXISTS %s%s", rest, tail)
		return
	}
	fmt.Fprintf(s.out, "%s%s", sql, tail)
}

func (s *shell) databases() int {
	dbs, err := s.schemas()
	if err != nil {
		s.errorf("Error: %s\n", errText(err))
		return 1
	}
	for _, db := range dbs {
		access := "r/w"
		if ro, _ := s.query("PRAGMA " + sqlite.QuoteIdentifier(db[1]) + ".query_only"); s.readonly || len(ro) > 0 && ro[0][0] == "1" {
			access = "r/o"
		}
		file := db[2]
		if file == "" {
			file = `""`
		}
		fmt.Fprintf(s.out, "%s: %s %s\n", db[1], file, access)
	}
	return 0
}

func (s *shell) show() {
	fmt.Fprintf(s.out, "%12s: %s\n", "echo", onOff(s.echo))
	fmt.Fprintf(s.out, "%12s: %s\n", "headers", onOff(s.headers))
	fmt.Fprintf(s.out, "%12s: %s\n", "mode", s.mode)
	fmt.Fprintf(s.out, "%12s: %s\n", "nullvalue", strconv.Quote(s.null))
	fmt.Fprintf(s.out, "%12s: %s\n", "colseparator", strconv.Quote(s.colSep))
	fmt.Fprintf(s.out, "%12s: %s\n", "rowseparator", strconv.Quote(s.rowSep))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// dump renders the main database as SQL (.dump ?TABLE?).
func (s *shell) dump(args []string) int {
	q := "SELECT name, type, sql FROM sqlite_schema WHERE sql IS NOT NULL AND type=='table' AND name!='sqlite_sequence'"
	if len(args) > 0 {
		q += " AND tbl_name LIKE ?1"
	}
	tables, err := s.query(q+" ORDER BY tbl_name='sqlite_sequence', rowid", strings.Join(args, ""))
	if err != nil {
		s.errorf("Error: %s\n", errText(err))
		return 1
	}
	fmt.Fprint(s.out, "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
	for _, t := range tables {
		name, sql := t[0], t[2]
		if strings.HasPrefix(name, "sqlite_") {
			continue
		}
		s.schemaLine(sql, ";\n")
		if err := s.dumpRows(name); err != nil {
			s.errorf("Error: %s\n", errText(err))
			return 1
		}
	}
	q = "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND type IN ('index','trigger','view')"
	if len(args) > 0 {
		q += " AND tbl_name LIKE ?1"
	}
	rest, err := s.query(q+" ORDER BY rowid", strings.Join(args, ""))
	if err != nil {
		s.errorf("Error: %s\n", errText(err))
		return 1
	}
	for _, r := range rest {
		s.schemaLine(r[0], ";\n")
	}
	fmt.Fprint(s.out, "COMMIT;\n")
	return 0
}

func (s *shell) dumpRows(table string) error {
	stmt, _, err := s.db.Prepare("SELECT * FROM " + sqlite.QuoteIdentifier(table))
	if err != nil {
		return err
	}
	defer stmt.Close()
	n := stmt.ColumnCount()
	quoted := table
	if strings.ContainsAny(table, " \"'-.") || table == "" {
		quoted = sqlite.QuoteIdentifier(table)
	}
	for stmt.Step() {
		r := s.row(stmt, n)
		vals := make([]string, n)
		for i, c := range r {
			vals[i] = literal(c)
		}
		fmt.Fprintf(s.out, "INSERT INTO %s VALUES(%s);\n", quoted, strings.Join(vals, ","))
	}
	return stmt.Err()
}
