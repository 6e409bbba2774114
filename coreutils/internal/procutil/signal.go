package procutil

import (
	"strconv"
	"strings"
)

var signalNames = []string{
	1: "HUP", 2: "INT", 3: "QUIT", 4: "ILL", 5: "TRAP", 6: "ABRT", 7: "BUS", 8: "FPE",
	9: "KILL", 10: "USR1", 11: "SEGV", 12: "USR2", 13: "PIPE", 14: "ALRM", 15: "TERM",
	16: "STKFLT", 17: "CHLD", 18: "CONT", 19: "STOP", 20: "TSTP", 21: "TTIN", 22: "TTOU",
	23: "URG", 24: "XCPU", 25: "XFSZ", 26: "VTALRM", 27: "PROF", 28: "WINCH", 29: "IO",
	30: "PWR", 31: "SYS",
}

const (
	sigRTMin = 34
	sigRTMax = 64
)

// ParseSignal reads a Linux signal name (with or without "SIG", any
// case, "RTMIN+n", "RTMAX-n") or number (0 to 64).
func ParseSignal(s string) (*Signal, bool) {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		n, err := strconv.Atoi(s)
		if err != nil || n > sigRTMax {
			return nil, false
		}
		return &Signal{Num: n, Name: SignalName(n)}, true
	}
	name := strings.ToUpper(s)
	name = strings.TrimPrefix(name, "SIG")
	alias := map[string]int{"IOT": 6, "CLD": 17, "POLL": 29}
	if n, ok := alias[name]; ok {
		return &Signal{Num: n, Name: SignalName(n)}, true
	}
	for n, sn := range signalNames {
		if sn != "" && sn == name {
			return &Signal{Num: n, Name: sn}, true
		}
	}
	for _, base := range []struct {
		prefix string
		num    int
		sign   int
	}{{"RTMIN", sigRTMin, 1}, {"RTMAX", sigRTMax, -1}} {
		rest, ok := strings.CutPrefix(name, base.prefix)
		if !ok {
			continue
		}
		off := 0
		if rest != "" {
			if (base.sign > 0 && rest[0] != '+') || (base.sign < 0 && rest[0] != '-') {
				return nil, false
			}
			var err error
			off, err = strconv.Atoi(rest[1:])
			if err != nil || off < 0 {
				return nil, false
			}
		}
		n := base.num + base.sign*off
		if n < sigRTMin || n > sigRTMax {
			return nil, false
		}
		return &Signal{Num: n, Name: SignalName(n)}, true
	}
	return nil, false
}

// SignalName is the name of signal n without "SIG", as sig2str gives it.
func SignalName(n int) string {
	switch {
	case n > 0 && n < len(signalNames):
		return signalNames[n]
	case n == sigRTMin:
		return "RTMIN"
	case n == sigRTMax:
		return "RTMAX"
	case n > sigRTMin && n < sigRTMax:
		if n-sigRTMin <= (sigRTMax-sigRTMin)/2 {
			return "RTMIN+" + strconv.Itoa(n-sigRTMin)
		}
		return "RTMAX-" + strconv.Itoa(sigRTMax-n)
	}
	return strconv.Itoa(n)
}
