package bashtool

import (
	"fmt"
	"path"
	"strings"

	"github.com/bashbox/bashbox/internal/lazyre"
	"mvdan.cc/sh/v3/syntax"
)

// The refusal messages of the credential-exfiltration denylist.
const (
	RefusedCredentialCommand    = "Refused: command pattern matches credential-exfiltration denylist."
	RefusedCredentialSubcommand = "Refused: chained subcommand matches credential-exfiltration denylist."
)

// RefusedError reports a command refused before any process started.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// CheckCommand applies the denylists to a command before it runs. It
// returns a *RefusedError when the command dumps the environment, reads
// credential files or .env files, or runs a privileged or destructive
// system command; nil otherwise.
//
// This is defence in depth against the cheap one-liners a prompt-injected
// model would try, not a boundary: the scrubbed environment, the sandbox
// and the closed network are. The command is checked as written and in a
// de-obfuscated form (empty quote pairs, quotes and backslash escapes
// removed), then each chained subcommand (;, &&, ||, |, &, newlines), then
// every simple command the shell parser finds, including those inside
// $(...), subshells and bash -c strings.
func CheckCommand(command string) error {
	return checkCommand(command, 0)
}

const maxNestedShellDepth = 3

func checkCommand(command string, depth int) error {
	whole := &RefusedError{RefusedCredentialCommand}
	chained := &RefusedError{RefusedCredentialSubcommand}
	if depth > 0 {
		whole = chained
	}
	forms := []string{command, deobfuscate(command)}
	for _, f := range forms {
		if credentialMatch(f) {
			return whole
		}
	}
	subs := splitSubcommands(command)
	for _, sub := range subs {
		for _, f := range []string{sub, deobfuscate(sub)} {
			if credentialMatch(f) {
				return chained
			}
		}
	}
	calls, nested := parsedCalls(command)
	for _, words := range calls {
		if credentialMatch(strings.Join(words, " ")) {
			return chained
		}
	}
	if depth < maxNestedShellDepth {
		for _, inner := range nested {
			if err := checkCommand(inner, depth+1); err != nil {
				return err
			}
		}
	}
	// Footguns, at command positions only.
	for _, sub := range subs {
		if name := footgun(shellWords(deobfuscate(sub))); name != "" {
			return footgunRefusal(name)
		}
	}
	for _, words := range calls {
		if name := footgun(words); name != "" {
			return footgunRefusal(name)
		}
	}
	return nil
}

func footgunRefusal(name string) error {
	return &RefusedError{fmt.Sprintf("Refused: %s is on the Bash tool's denylist of privileged or destructive system commands.", name)}
}

// deobfuscate collapses the cheapest obfuscations: empty quote pairs
// (e”nv), backslash escapes of ordinary characters (e\nv), and the
// quotes around words ("env"). The result is only matched, never run.
func deobfuscate(s string) string {
	s = strings.ReplaceAll(s, "''", "")
	s = strings.ReplaceAll(s, `""`, "")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] != '\n':
			i++
			b.WriteByte(s[i])
		case c == '\'' || c == '"':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// splitSubcommands splits at top-level ;, &&, ||, |, |&, & and newlines,
// leaving quoted text and redirections like 2>&1 intact.
func splitSubcommands(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, t)
		}
		cur.Reset()
	}
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			cur.WriteByte(c)
			if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
			cur.WriteByte(c)
		case '\\':
			cur.WriteByte(c)
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
		case ';', '\n':
			flush()
		case '|':
			flush()
			if i+1 < len(s) && (s[i+1] == '|' || s[i+1] == '&') {
				i++
			}
		case '&':
			prev := byte(0)
			if i > 0 {
				prev = s[i-1]
			}
			switch {
			case prev == '>' || prev == '<' || (i+1 < len(s) && s[i+1] == '>'):
				cur.WriteByte(c) // 2>&1, &>file
			case i+1 < len(s) && s[i+1] == '&':
				i++
				flush()
			default:
				flush()
			}
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// shellWords splits a (de-obfuscated) simple command into words loosely:
// at blanks, with redirection operators as their own words.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			flush()
		case '<', '>':
			flush()
			out = append(out, string(c))
		case '(', ')', '{', '}', '`':
			// Grouping and substitution marks are not part of a command name.
			if cur.Len() == 0 || c == ')' || c == '`' {
				flush()
				continue
			}
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

var assignmentRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=`)

// commandOf finds the command word, skipping keywords, assignments and
// wrappers that run another command (env A=1 cmd, nohup cmd, xargs cmd,
// sudo cmd, ...). It returns the index of the command word (or -1) and the
// names of the wrappers passed.
func commandOf(words []string) (int, []string) {
	var wrappers []string
	i := 0
	for i < len(words) {
		w := words[i]
		name := path.Base(w)
		switch {
		case w == "!" || isKeyword(w):
			i++
		case assignmentRe().MatchString(w):
			i++
		case name == "env":
			j := i + 1
			for j < len(words) && (strings.HasPrefix(words[j], "-") || assignmentRe().MatchString(words[j])) {
				if words[j] == "-u" || words[j] == "-C" || words[j] == "-S" {
					j++
				}
				j++
			}
			if j >= len(words) {
				return i, wrappers // env on its own: the command is env
			}
			wrappers = append(wrappers, name)
			i = j
		case name == "sudo" || name == "doas":
			wrappers = append(wrappers, name)
			i = skipOptions(words, i+1, "ugCDhprT")
		case name == "command" || name == "builtin" || name == "nohup" || name == "time" || name == "exec" || name == "setsid":
			wrappers = append(wrappers, name)
			i = skipOptions(words, i+1, "a")
		case name == "nice" || name == "ionice" || name == "stdbuf" || name == "chronic":
			wrappers = append(wrappers, name)
			i = skipOptions(words, i+1, "nco")
		case name == "timeout":
			wrappers = append(wrappers, name)
			i = skipOptions(words, i+1, "sk") + 1 // the duration
		case name == "xargs":
			wrappers = append(wrappers, name)
			i = skipOptions(words, i+1, "IinPLsdaE")
		default:
			return i, wrappers
		}
	}
	return -1, wrappers
}

// skipOptions skips words starting with '-' from i; an option letter in
// withArg consumes the next word when given alone (-n 5).
func skipOptions(words []string, i int, withArg string) int {
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		w := words[i]
		i++
		if w == "--" {
			break
		}
		if len(w) == 2 && strings.ContainsRune(withArg, rune(w[1])) {
			i++
		}
	}
	return i
}

func isKeyword(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case", "esac", "{", "}", "(", ")", "!", "function":
		return true
	}
	return false
}

// footguns are refused at command positions.
var footguns = map[string]bool{
	"sudo": true, "su": true, "doas": true, "shutdown": true, "reboot": true, "halt": true,
	"poweroff": true, "chroot": true, "mount": true, "umount": true,
}

// footgun returns the denied command name at a command position, if any.
func footgun(words []string) string {
	idx, wrappers := commandOf(words)
	for _, w := range wrappers {
		if footguns[w] {
			return w
		}
	}
	if idx < 0 {
		return ""
	}
	name := path.Base(words[idx])
	if footguns[name] || name == "mkfs" || strings.HasPrefix(name, "mkfs.") {
		return name
	}
	if name == "systemctl" || name == "init" || name == "telinit" {
		for _, a := range words[idx+1:] {
			switch a {
			case "reboot", "poweroff", "halt", "kexec", "0", "6":
				return name + " " + a
			}
		}
	}
	return ""
}

// Credential files: reading, copying, encoding or sending any of these is
// refused. Public keys (.pub) are fine and are removed before matching.
var (
	credentialPathRe = lazyre.New(`(?i)(` +
		`\.aws(/|$|[\s'"` + "`" + `;|&)])|` +
		`\.ssh/(id_|identity|\*)|` +
		`(^|[^\w.])[._]netrc\b|\.npmrc\b|\.pypirc\b|\.yarnrc|\.pgpass\b|\.my\.cnf\b|` +
		`\.kube(/|$|[\s'"])|\.docker/config\.json|\.git-credentials|\.config/gh(/|$|\s)|` +
		`\.gnupg|\.config/gcloud|\.gcloud\b|\.azure(/|$|\s)|\.vault-token|\.terraform\.d/credentials|` +
		`\.password-store|\.config/bashbox|/etc/(shadow|gshadow|sudoers|master\.passwd)\b|` +
		`/proc/[^/\s]*/environ|/proc/[^/\s]*/task/[^/\s]*/environ` +
		`)`)
	publicKeyRe   = lazyre.New(`\.ssh/id_[\w.-]*\.pub\b`)
	indirectionRe = lazyre.New(`\$\{!`)
	varRefRe      = lazyre.New(`\$\{?[#]?([A-Za-z_][A-Za-z0-9_]*)`)
	psEnvRe       = lazyre.New(`(?i)\b(get-childitem|gci|dir|ls|get-item|gi)\s+env:|\$env:([A-Za-z_][A-Za-z0-9_]*)|\[environment\]::getenvironmentvariables`)
	awkEnvironRe  = lazyre.New(`\bENVIRON\b`)
	keychainRe    = lazyre.New(`\bsecurity\s+(find-generic-password|find-internet-password|dump-keychain|export|find-certificate\s+.*-p)`)
	// Code in interpreter one-liners that reads the environment or the
	// usual credential locations.
	oneLinerSecretRe = lazyre.New(`(?i)(os\.environ|\bgetenv\b|process\.env|\bENV\[|%ENV|\$ENV\{|Deno\.env|Bun\.env|\.ssh\b|\.aws\b|\.gnupg|\.kube\b|\.netrc|\.npmrc|\.pypirc|\.docker\b|gcloud|\.azure\b|credentials|id_rsa|id_ed25519|id_ecdsa|id_dsa|(^|[^\w.])\.env\b|/proc/)`)
)

var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "pypy": true, "pypy3": true,
	"node": true, "nodejs": true, "deno": true, "bun": true, "perl": true, "ruby": true,
	"php": true, "lua": true, "luajit": true, "Rscript": true, "osascript": true, "jshell": true,
}

var oneLinerFlags = map[string]bool{"-c": true, "-e": true, "-E": true, "--eval": true, "-r": true, "-p": true, "--print": true, "eval": true, "-x": true}

// readers are commands that print, copy, encode or send a file's bytes.
var readers = map[string]bool{
	"cat": true, "tac": true, "nl": true, "less": true, "more": true, "most": true, "head": true, "tail": true,
	"bat": true, "batcat": true, "view": true, "strings": true, "xxd": true, "od": true, "hexdump": true, "hd": true,
	"base64": true, "base32": true, "basenc": true, "uuencode": true, "openssl": true, "gpg": true,
	"sed": true, "awk": true, "gawk": true, "mawk": true, "nawk": true, "grep": true, "egrep": true, "fgrep": true,
	"rg": true, "ag": true, "ack": true, "cut": true, "sort": true, "uniq": true, "paste": true, "column": true,
	"jq": true, "yq": true, "tee": true, "dd": true, "cp": true, "scp": true, "rsync": true, "curl": true,
	"wget": true, "nc": true, "ncat": true, "socat": true, "zip": true, "tar": true, "gzip": true, "xz": true,
	"bzip2": true, "diff": true, "cmp": true, "comm": true, "fold": true, "fmt": true, "pr": true, "rev": true,
	"iconv": true, "split": true, "vim": true, "vi": true, "nvim": true, "emacs": true, "nano": true, "ed": true,
}

// safeEnvSuffixes mark .env files meant to be committed.
var safeEnvSuffixes = map[string]bool{"example": true, "sample": true, "template": true, "dist": true, "defaults": true, "schema": true, "tmpl": true, "tpl": true}

func isDotEnvFile(w string) bool {
	w = strings.TrimPrefix(w, "@")
	w = strings.TrimPrefix(w, "if=")
	w = strings.TrimPrefix(w, "<")
	base := path.Base(w)
	if base == ".env" {
		return true
	}
	if rest, ok := strings.CutPrefix(base, ".env."); ok && rest != "" {
		last := rest[strings.LastIndex(rest, ".")+1:]
		return !safeEnvSuffixes[strings.ToLower(last)] && !safeEnvSuffixes[strings.ToLower(rest)]
	}
	return false
}

// credentialMatch reports whether one form of a command (or subcommand)
// dumps the environment or reads credentials.
func credentialMatch(s string) bool {
	if strings.TrimSpace(s) == "" {
		return false
	}
	if credentialPathRe().MatchString(publicKeyRe().ReplaceAllString(s, "")) {
		return true
	}
	if indirectionRe().MatchString(s) || awkEnvironRe().MatchString(s) || keychainRe().MatchString(s) {
		return true
	}
	for _, m := range varRefRe().FindAllStringSubmatch(s, -1) {
		if SecretShaped(m[1]) {
			return true
		}
	}
	for _, m := range psEnvRe().FindAllStringSubmatch(s, -1) {
		if m[2] == "" || SecretShaped(m[2]) {
			return true
		}
	}
	words := shellWords(s)
	idx, _ := commandOf(words)
	if idx >= 0 && environmentDump(words[idx:]) {
		return true
	}
	// Interpreter one-liners reading secrets.
	for i, w := range words {
		if interpreters[interpreterName(w)] {
			for _, a := range words[i+1:] {
				if oneLinerFlags[a] || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "ce") && len(a) <= 4) {
					if oneLinerSecretRe().MatchString(s) {
						return true
					}
					break
				}
			}
		}
	}
	// .env files: read by a reader, redirected in, or sent with @file.
	reader := idx >= 0 && readers[path.Base(words[idx])]
	lastSource := len(words)
	if idx >= 0 {
		switch path.Base(words[idx]) {
		case "cp", "scp", "rsync":
			lastSource = len(words) - 1 // the last argument is the destination
		}
	}
	for i, w := range words {
		if !isDotEnvFile(w) {
			continue
		}
		if reader && i > idx && i < lastSource {
			return true
		}
		if strings.HasPrefix(w, "@") || strings.HasPrefix(w, "if=") || (i > 0 && words[i-1] == "<") {
			return true
		}
	}
	return false
}

// interpreterName maps python3.12 to python3 and /usr/bin/node to node.
func interpreterName(w string) string {
	name := path.Base(w)
	if strings.HasPrefix(name, "python") {
		if i := strings.IndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
	}
	return name
}

// environmentDump reports whether words (starting at the command word)
// print the whole environment or shell variables.
func environmentDump(words []string) bool {
	name := path.Base(words[0])
	args := words[1:]
	// Redirections and what follows them are not arguments.
	for i, a := range args {
		if a == ">" || a == "<" {
			args = args[:i]
			break
		}
	}
	switch name {
	case "env", "printenv":
		return true
	case "set", "export", "readonly":
		return len(args) == 0 || (len(args) == 1 && args[0] == "-p")
	case "declare", "typeset":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				return SecretShaped(a)
			}
		}
		return true
	case "compgen":
		for i, a := range args {
			if a == "-e" || a == "-v" || (a == "-A" && i+1 < len(args) && (args[i+1] == "variable" || args[i+1] == "export")) {
				return true
			}
		}
	case "ps":
		// BSD-style "e" (ps e, ps auxe, ps eww) prints each process's environment.
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && strings.Contains(a, "e") && strings.Trim(a, "auxwe") == "" {
				return true
			}
		}
	}
	return false
}

// parsedCalls returns the words of every simple command the shell parser
// finds (literal parts resolved, so quoting tricks disappear), and the
// scripts given to nested shells (bash -c, sh -c, eval). A command that
// does not parse yields nothing here; the string checks still apply.
func parsedCalls(command string) (calls [][]string, nested []string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, nil
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		words := make([]string, 0, len(call.Args))
		for _, w := range call.Args {
			words = append(words, wordText(w))
		}
		calls = append(calls, words)
		idx, _ := commandOf(words)
		if idx < 0 {
			return true
		}
		switch path.Base(words[idx]) {
		case "bash", "sh", "zsh", "dash", "ksh", "ash", "busybox":
			for i := idx + 1; i < len(words)-1; i++ {
				if strings.HasPrefix(words[i], "-") && strings.Contains(words[i], "c") {
					nested = append(nested, words[i+1])
					break
				}
			}
		case "eval":
			nested = append(nested, strings.Join(words[idx+1:], " "))
		}
		return true
	})
	return calls, nested
}

// wordText renders a word with its literal parts resolved and expansions
// kept as $NAME / ${!NAME} / $(...) markers for the pattern checks.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	var parts func([]syntax.WordPart, bool)
	parts = func(ps []syntax.WordPart, quoted bool) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(unescapeLit(p.Value, quoted))
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts, true)
			case *syntax.ParamExp:
				b.WriteString("${")
				if p.Excl {
					b.WriteString("!")
				}
				if p.Param != nil {
					b.WriteString(p.Param.Value)
				}
				b.WriteString("}")
			case *syntax.CmdSubst:
				b.WriteString("$(...)")
			default:
				b.WriteString("?")
			}
		}
	}
	parts(w.Parts, false)
	return b.String()
}

// unescapeLit removes the backslashes the shell would: before any
// character outside quotes, before $ ` " \ and newline inside double quotes.
func unescapeLit(s string, inDouble bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!inDouble || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
