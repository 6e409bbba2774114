package argmatch

import "github.com/bashbox/bashbox/builtins"

// GetWhen is the WHEN of an option whose argument is optional, such as
// --color[=WHEN]: Always when none is given. Like Get, it prints the failure
// itself and ok is false then.
func GetWhen(c *builtins.Call, o builtins.Opt, option string, status int) (when int, ok bool) {
	if !o.Has {
		return Always, true
	}
	return Get(c, o.Value, option, WhenChoices, status)
}
