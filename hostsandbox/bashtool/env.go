package bashtool

import (
	"sort"
	"strings"
)

// defaultEnvAllow are the host variables a command sees by default: what
// tools need to find things, format text and reach the network through a
// proxy, never credentials. Names ending in * are prefixes.
var defaultEnvAllow = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_*", "TZ",
	"TERM", "TMPDIR", "TMP", "TEMP",
	"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
	"CI", "NO_COLOR", "FORCE_COLOR", "COLORTERM",
	// Windows: cmd.exe and common runtimes fail without these.
	"SYSTEMROOT", "SystemRoot", "COMSPEC", "ComSpec", "WINDIR", "windir", "APPDATA", "LOCALAPPDATA",
	"USERPROFILE", "PATHEXT", "PROGRAMDATA", "ProgramData", "PROGRAMFILES", "ProgramFiles",
	"HOMEDRIVE", "HOMEPATH", "USERNAME", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", "OS",
}

// nonInteractiveDefaults keep tools from waiting for a terminal that is
// not there. An operator-passed host value wins.
var nonInteractiveDefaults = [][2]string{
	{"PAGER", "cat"}, {"GIT_PAGER", "cat"}, {"GIT_TERMINAL_PROMPT", "0"}, {"GIT_EDITOR", "true"},
}

// secretWords mark a variable name as secret-shaped when they appear as
// one of its _-separated words; secretFragments when they appear anywhere.
var (
	secretWords = map[string]bool{
		"TOKEN": true, "TOKENS": true, "SECRET": true, "SECRETS": true, "PASSWORD": true, "PASSWD": true,
		"PASS": true, "PASSPHRASE": true, "PWD_HASH": true, "APIKEY": true, "CREDENTIAL": true,
		"CREDENTIALS": true, "CREDS": true, "AUTH": true, "COOKIE": true, "DSN": true, "PAT": true,
		"PRIVATE": true, "SIGNATURE": true, "SALT": true,
	}
	secretFragments = []string{"API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL"}
)

// SecretShaped reports whether a variable name looks like it holds a
// credential: *_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD, *_KEY and the like.
func SecretShaped(name string) bool {
	up := strings.ToUpper(name)
	for _, f := range secretFragments {
		if strings.Contains(up, f) {
			return true
		}
	}
	words := strings.Split(up, "_")
	for _, w := range words {
		if secretWords[w] {
			return true
		}
	}
	// FOO_KEY, STRIPE_KEY: a trailing KEY word is a key, not a keyboard.
	return len(words) > 1 && words[len(words)-1] == "KEY"
}

// envAllowList is the merged default and operator allowlist.
type envAllowList struct {
	exact    map[string]bool // names listed exactly (operator or default)
	operator map[string]bool // names the operator listed exactly
	prefixes []string
}

func newEnvAllowList(operator []string) envAllowList {
	l := envAllowList{exact: map[string]bool{}, operator: map[string]bool{}}
	add := func(name string, byOperator bool) {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
		case strings.HasSuffix(name, "*"):
			l.prefixes = append(l.prefixes, strings.TrimSuffix(name, "*"))
		default:
			l.exact[name] = true
			if byOperator {
				l.operator[name] = true
			}
		}
	}
	for _, n := range defaultEnvAllow {
		add(n, false)
	}
	for _, n := range operator {
		add(n, true)
	}
	return l
}

// allows reports whether the host variable name may reach commands. A
// secret-shaped name passes only when the operator named it exactly.
func (l envAllowList) allows(name string) bool {
	if SecretShaped(name) {
		return l.operator[name]
	}
	if l.exact[name] {
		return true
	}
	for _, p := range l.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// BuildEnv returns the command environment built from scratch: the host
// variables (from hostEnv, NAME=VALUE strings) that the default allowlist
// or the operator's list admits, plus the non-interactive defaults. The
// operator's list extends the defaults and never shrinks them; entries
// ending in * are prefixes, which never admit secret-shaped names.
func BuildEnv(hostEnv []string, operatorAllow []string) [][2]string {
	allow := newEnvAllowList(operatorAllow)
	vals := map[string]string{}
	for _, kv := range hostEnv {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if allow.allows(name) {
			vals[name] = val
		}
	}
	for _, d := range nonInteractiveDefaults {
		if _, set := vals[d[0]]; !set {
			vals[d[0]] = d[1]
		}
	}
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([][2]string, 0, len(names))
	for _, n := range names {
		out = append(out, [2]string{n, vals[n]})
	}
	return out
}
