package git

import (
	"path"
	"strconv"
	"strings"
)

// cfgEntry is one variable of a configuration file.
type cfgEntry struct {
	section string // lower case
	sub     string // as written ("" when none)
	key     string // lower case
	value   string
	noValue bool // "key" alone: boolean true
	line    int  // first line of the entry
	lineEnd int  // last line (continuations)
	scope   string
}

func (e *cfgEntry) name() string {
	if e.sub != "" {
		return e.section + "." + e.sub + "." + e.key
	}
	return e.section + "." + e.key
}

type cfgSection struct {
	section, sub string
	raw          string // the name as written: "Sect.Sub" (for --remove-section)
	line         int
}

// configFile is a parsed configuration file, kept as lines for editing.
type configFile struct {
	path     string
	scope    string
	lines    []string // with their "\n"
	entries  []cfgEntry
	sections []cfgSection
	bad      int // line number (1-based) of a syntax error, 0 if none
}

func parseConfig(data []byte, scope string) *configFile {
	cf := &configFile{scope: scope}
	for line := range strings.Lines(string(data)) {
		cf.lines = append(cf.lines, line)
	}
	cf.parse()
	return cf
}

func (cf *configFile) parse() {
	cf.entries = cf.entries[:0]
	cf.sections = cf.sections[:0]
	section, sub := "", ""
	for i := 0; i < len(cf.lines); i++ {
		line := strings.TrimRight(cf.lines[i], "\n")
		t := strings.TrimLeft(line, " \t")
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '[' {
			var raw string
			rest, ok := cf.parseHeader(t, &section, &sub, &raw)
			if !ok {
				if cf.bad == 0 {
					cf.bad = i + 1
				}
				continue
			}
			cf.sections = append(cf.sections, cfgSection{section, sub, raw, i})
			t = strings.TrimLeft(rest, " \t")
			if t == "" || t[0] == '#' || t[0] == ';' {
				continue
			}
		}
		if section == "" {
			if cf.bad == 0 {
				cf.bad = i + 1
			}
			continue
		}
		// name [= value]
		j := 0
		for j < len(t) && (isAlnum(t[j]) || t[j] == '-') {
			j++
		}
		if j == 0 {
			if cf.bad == 0 {
				cf.bad = i + 1
			}
			continue
		}
		e := cfgEntry{section: section, sub: sub, key: strings.ToLower(t[:j]), line: i, lineEnd: i, scope: cf.scope}
		rest := strings.TrimLeft(t[j:], " \t")
		if rest == "" || rest[0] == '#' || rest[0] == ';' {
			e.noValue = true
			cf.entries = append(cf.entries, e)
			continue
		}
		if rest[0] != '=' {
			if cf.bad == 0 {
				cf.bad = i + 1
			}
			continue
		}
		val, end := cf.parseValue(rest[1:], i)
		e.value = val
		e.lineEnd = end
		i = end
		cf.entries = append(cf.entries, e)
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (cf *configFile) parseHeader(t string, section, sub, raw *string) (string, bool) {
	end := -1
	inQuote := false
	for k := 1; k < len(t); k++ {
		c := t[k]
		if inQuote {
			if c == '\\' && k+1 < len(t) {
				k++
				continue
			}
			if c == '"' {
				inQuote = false
			}
			continue
		}
		if c == '"' {
			inQuote = true
			continue
		}
		if c == ']' {
			end = k
			break
		}
	}
	if end < 0 {
		return "", false
	}
	inner := t[1:end]
	if q := strings.IndexByte(inner, '"'); q >= 0 {
		name := strings.TrimSpace(inner[:q])
		quoted := inner[q:]
		if len(quoted) < 2 || quoted[len(quoted)-1] != '"' {
			return "", false
		}
		var b strings.Builder
		for k := 1; k < len(quoted)-1; k++ {
			if quoted[k] == '\\' && k+1 < len(quoted)-1 {
				k++
			}
			b.WriteByte(quoted[k])
		}
		*section = strings.ToLower(name)
		*sub = b.String()
		*raw = name + "." + b.String()
	} else {
		name := strings.TrimSpace(inner)
		*raw = name
		if dot := strings.IndexByte(name, '.'); dot >= 0 {
			*section = strings.ToLower(name[:dot])
			*sub = strings.ToLower(name[dot+1:])
		} else {
			*section = strings.ToLower(name)
			*sub = ""
		}
	}
	for k := 0; k < len(*section); k++ {
		c := (*section)[k]
		if !isAlnum(c) && c != '-' && c != '.' {
			return "", false
		}
	}
	return t[end+1:], true
}

// parseValue reads a value starting after '=', following continuation
// lines; it returns the value and the last line it used.
func (cf *configFile) parseValue(s string, line int) (string, int) {
	var b strings.Builder
	inQuote := false
	space := 0 // pending spaces outside quotes
	started := false
	for {
		for k := 0; k < len(s); k++ {
			c := s[k]
			if c == '\n' {
				break
			}
			if !inQuote && (c == ' ' || c == '\t') {
				if started {
					space++
				}
				continue
			}
			if !inQuote && (c == '#' || c == ';') {
				return b.String(), line
			}
			if space > 0 {
				b.WriteString(strings.Repeat(" ", space))
				space = 0
			}
			started = true
			switch c {
			case '"':
				inQuote = !inQuote
			case '\\':
				if k+1 >= len(s) || s[k+1] == '\n' {
					// continuation
					if line+1 < len(cf.lines) {
						line++
						s = cf.lines[line]
						k = -1
						continue
					}
					return b.String(), line
				}
				k++
				switch s[k] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'b':
					b.WriteByte('\b')
				default:
					b.WriteByte(s[k])
				}
			default:
				b.WriteByte(c)
			}
		}
		return b.String(), line
	}
}

// canonName lower-cases the section and key of "section[.sub].key" and
// checks it; it returns the parts.
func canonName(name string) (section, sub, key string, errMsg string) {
	first := strings.IndexByte(name, '.')
	last := strings.LastIndexByte(name, '.')
	if first < 0 {
		return "", "", "", "key does not contain a section: " + name
	}
	if last == len(name)-1 {
		return "", "", "", "key does not contain variable name: " + name
	}
	section = strings.ToLower(name[:first])
	key = strings.ToLower(name[last+1:])
	if last > first {
		sub = name[first+1 : last]
	}
	if section == "" {
		return "", "", "", "invalid key: " + name
	}
	for i := 0; i < len(key); i++ {
		if !isAlnum(key[i]) && key[i] != '-' {
			return "", "", "", "invalid key: " + name
		}
	}
	if !(key[0] >= 'a' && key[0] <= 'z') {
		return "", "", "", "invalid key: " + name
	}
	for i := 0; i < len(section); i++ {
		if !isAlnum(section[i]) && section[i] != '-' {
			return "", "", "", "invalid key: " + name
		}
	}
	return section, sub, key, ""
}

func (cf *configFile) matches(e *cfgEntry, section, sub, key string) bool {
	return e.section == section && e.sub == sub && e.key == key
}

func (cf *configFile) find(name string) []int {
	section, sub, key, msg := canonName(name)
	if msg != "" {
		return nil
	}
	var out []int
	for i := range cf.entries {
		if cf.matches(&cf.entries[i], section, sub, key) {
			out = append(out, i)
		}
	}
	return out
}

func (cf *configFile) get(name string) (string, bool) {
	idx := cf.find(name)
	if len(idx) == 0 {
		return "", false
	}
	e := cf.entries[idx[len(idx)-1]]
	if e.noValue {
		return "true", true
	}
	return e.value, true
}

// formatPair renders "\tkey = value\n" with git's quoting.
func formatPair(key, value string) string {
	quote := ""
	if strings.HasPrefix(value, " ") || strings.HasSuffix(value, " ") || strings.ContainsAny(value, ";#") {
		quote = `"`
	}
	var b strings.Builder
	b.WriteString("\t" + key + " = " + quote)
	for i := 0; i < len(value); i++ {
		switch c := value[i]; c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(quote + "\n")
	return b.String()
}

func formatSectionHeader(section, sub string) string {
	if sub == "" {
		return "[" + section + "]\n"
	}
	return "[" + section + " \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(sub) + "\"]\n"
}

// splitUserName splits a name as the user wrote it into the section text,
// subsection and variable name, keeping their case.
func splitUserName(name string) (section, sub, key string) {
	first := strings.IndexByte(name, '.')
	last := strings.LastIndexByte(name, '.')
	section = name[:first]
	key = name[last+1:]
	if last > first {
		sub = name[first+1 : last]
	}
	return
}

// add appends a variable: after the last variable of the last matching
// section, or in a new section at the end.
func (cf *configFile) add(name, value string) {
	section, sub, _, _ := canonName(name)
	uSection, _, uKey := splitUserName(name)
	pair := formatPair(uKey, value)
	hdr, end := -1, len(cf.lines)
	for si, s := range cf.sections {
		if s.section == section && s.sub == sub {
			hdr = s.line
			end = len(cf.lines)
			if si+1 < len(cf.sections) {
				end = cf.sections[si+1].line
			}
		}
	}
	if hdr >= 0 {
		insertAt := hdr + 1
		for _, e := range cf.entries {
			if e.line >= hdr && e.line < end {
				insertAt = e.lineEnd + 1
			}
		}
		cf.insertLines(insertAt, pair)
		return
	}
	if n := len(cf.lines); n > 0 && !strings.HasSuffix(cf.lines[n-1], "\n") {
		cf.lines[n-1] += "\n"
	}
	cf.lines = append(cf.lines, formatSectionHeader(uSection, sub), pair)
	cf.parse()
}

func (cf *configFile) insertLines(at int, text string) {
	if at > len(cf.lines) {
		at = len(cf.lines)
	}
	if at > 0 && !strings.HasSuffix(cf.lines[at-1], "\n") {
		cf.lines[at-1] += "\n"
	}
	lines := append([]string{}, cf.lines[:at]...)
	lines = append(lines, text)
	lines = append(lines, cf.lines[at:]...)
	cf.lines = lines
	cf.parse()
}

// replaceEntry rewrites entry i with a new value.
func (cf *configFile) replaceEntry(i int, name, value string) {
	e := cf.entries[i]
	_, _, uKey := splitUserName(name)
	lines := append([]string{}, cf.lines[:e.line]...)
	// Keep a section header sharing the line.
	first := cf.lines[e.line]
	if t := strings.TrimLeft(first, " \t"); strings.HasPrefix(t, "[") {
		if k := strings.IndexByte(first, ']'); k >= 0 {
			lines = append(lines, first[:k+1]+"\n")
		}
	}
	lines = append(lines, formatPair(uKey, value))
	lines = append(lines, cf.lines[e.lineEnd+1:]...)
	cf.lines = lines
	cf.parse()
}

// removeEntries deletes the given entries.
func (cf *configFile) removeEntries(idx []int) {
	drop := map[int]bool{}
	for _, i := range idx {
		e := cf.entries[i]
		for l := e.line; l <= e.lineEnd; l++ {
			drop[l] = true
		}
	}
	// A section left without variables (and without comments) goes too.
	for si, s := range cf.sections {
		end := len(cf.lines)
		if si+1 < len(cf.sections) {
			end = cf.sections[si+1].line
		}
		empty := true
		for l := s.line + 1; l < end; l++ {
			if !drop[l] && strings.TrimSpace(cf.lines[l]) != "" {
				empty = false
				break
			}
		}
		hdr := strings.TrimSpace(cf.lines[s.line])
		if empty && strings.HasSuffix(hdr, "]") && hasDropIn(drop, s.line+1, end) {
			drop[s.line] = true
		}
	}
	cf.dropLines(drop)
}

func hasDropIn(drop map[int]bool, from, to int) bool {
	for l := from; l < to; l++ {
		if drop[l] {
			return true
		}
	}
	return false
}

// set gives name a single value (replacing the one there is).
func (cf *configFile) set(name, value string) bool {
	idx := cf.find(name)
	switch len(idx) {
	case 0:
		cf.add(name, value)
	case 1:
		cf.replaceEntry(idx[0], name, value)
	default:
		return false
	}
	return true
}

// removeSection deletes every section named name ("sec" or "sec.sub",
// compared with the header as written, as git does).
func (cf *configFile) removeSection(name string) bool {
	found := false
	drop := map[int]bool{}
	for si, s := range cf.sections {
		if s.raw != name {
			continue
		}
		found = true
		end := len(cf.lines)
		if si+1 < len(cf.sections) {
			end = cf.sections[si+1].line
		}
		for l := s.line; l < end; l++ {
			drop[l] = true
		}
	}
	if !found {
		return false
	}
	cf.dropLines(drop)
	return true
}

// renameSection renames every section named old.
func (cf *configFile) renameSection(old, new string) bool {
	nsec, nsub := splitSectionNameKeep(new)
	found := false
	for _, s := range cf.sections {
		if s.raw == old {
			found = true
			line := cf.lines[s.line]
			k := strings.IndexByte(line, ']')
			rest := "\n"
			if k >= 0 {
				rest = line[k+1:]
			}
			cf.lines[s.line] = strings.TrimSuffix(formatSectionHeader(nsec, nsub), "\n") + rest
		}
	}
	if found {
		cf.parse()
	}
	return found
}

func splitSectionNameKeep(name string) (string, string) {
	if dot := strings.IndexByte(name, '.'); dot >= 0 {
		return name[:dot], name[dot+1:]
	}
	return name, ""
}

func (cf *configFile) bytes() []byte {
	return []byte(strings.Join(cf.lines, ""))
}

// configSet is the configuration in effect: system, global, local and
// command-line files, later ones winning.
type configSet struct {
	files []*configFile
	local *configFile
}

func (cs *configSet) get(name string) (string, bool) {
	for i := len(cs.files) - 1; i >= 0; i-- {
		if v, ok := cs.files[i].get(name); ok {
			return v, true
		}
	}
	return "", false
}

func (cs *configSet) getBool(name string, def bool) bool {
	v, ok := cs.get(name)
	if !ok {
		return def
	}
	switch parseBool(v) {
	case 1:
		return true
	case 0:
		return false
	}
	return def
}

// parseBool reads git's booleans: 1 true, 0 false, -1 neither.
func parseBool(v string) int {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1", "":
		return 1
	case "false", "no", "off", "0":
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n != 0 {
			return 1
		}
		return 0
	}
	return -1
}

// all lists every entry of every file in order.
func (cs *configSet) all() []cfgEntry {
	var out []cfgEntry
	for _, f := range cs.files {
		out = append(out, f.entries...)
	}
	return out
}

// loadConfig reads the configuration files for r (r may be nil outside a
// repository).
func (g *cmd) loadConfig(r *repo) *configSet {
	cs := &configSet{}
	fsys := g.c.FS
	if g.getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if data, err := readAll(fsys, "/etc/gitconfig"); err == nil {
			f := parseConfig(data, "system")
			f.path = "/etc/gitconfig"
			cs.files = append(cs.files, f)
		}
	}
	for _, p := range g.globalConfigPaths() {
		if data, err := readAll(fsys, p); err == nil {
			f := parseConfig(data, "global")
			f.path = p
			cs.files = append(cs.files, f)
		}
	}
	if r != nil {
		p := r.gitPath("config")
		data, _ := readAll(fsys, p)
		f := parseConfig(data, "local")
		f.path = p
		cs.files = append(cs.files, f)
		cs.local = f
		if f.bad != 0 {
			g.fatal("bad config line %d in file %s", f.bad, relConfigPath(r, p))
		}
	}
	if len(g.cfgCLI) > 0 {
		f := &configFile{scope: "command"}
		for _, kv := range g.cfgCLI {
			k, v, hasV := strings.Cut(kv, "=")
			section, sub, key, msg := canonName(k)
			if msg != "" {
				g.msg("error: %s", msg)
				g.fatal("unable to parse command-line config")
			}
			f.entries = append(f.entries, cfgEntry{section: section, sub: sub, key: key, value: v, noValue: !hasV, scope: "command"})
		}
		cs.files = append(cs.files, f)
	}
	return cs
}

func relConfigPath(r *repo, p string) string {
	if r.work != "" && strings.HasPrefix(p, r.work+"/") {
		return p[len(r.work)+1:]
	}
	return p
}

// globalWritePath is the file "git config --global" reads and writes:
// $GIT_CONFIG_GLOBAL, else ~/.gitconfig, unless only the XDG file exists.
func (g *cmd) globalWritePath() string {
	paths := g.globalConfigPaths()
	if len(paths) == 0 {
		return ""
	}
	last := paths[len(paths)-1]
	if len(paths) > 1 {
		if _, err := g.c.FS.Stat(last); err != nil {
			if _, err := g.c.FS.Stat(paths[0]); err == nil {
				return paths[0]
			}
		}
	}
	return last
}

// globalConfigPaths are the per-user configuration files, in reading
// order.
func (g *cmd) globalConfigPaths() []string {
	if p, ok := g.c.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		if p == "" || p == "/dev/null" {
			return nil
		}
		return []string{g.abs(p)}
	}
	home := g.getenv("HOME")
	var out []string
	if x := g.getenv("XDG_CONFIG_HOME"); x != "" {
		out = append(out, path.Join(x, "git/config"))
	} else if home != "" {
		out = append(out, path.Join(home, ".config/git/config"))
	}
	if home != "" {
		out = append(out, path.Join(home, ".gitconfig"))
	}
	return out
}

// dropLines removes the lines marked in drop and parses what is left.
func (cf *configFile) dropLines(drop map[int]bool) {
	var lines []string
	for i, l := range cf.lines {
		if !drop[i] {
			lines = append(lines, l)
		}
	}
	cf.lines = lines
	cf.parse()
}
