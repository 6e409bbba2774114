package interp

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// environ is the explicit environment a script starts with. Passing an
// explicit one matters: interp.Env(nil) would copy the host's.
type environ struct {
	names []string
	vars  map[string]expand.Variable
}

func newEnviron(exported []string, shellVars map[string]string) *environ {
	n := len(shellVars) + len(exported)
	e := &environ{vars: make(map[string]expand.Variable, n), names: make([]string, 0, n)}
	for name, val := range shellVars {
		e.set(name, expand.Variable{Set: true, Kind: expand.String, Str: val})
	}
	for _, kv := range exported {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		e.set(name, expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: val})
	}
	return e
}

func (e *environ) set(name string, v expand.Variable) {
	if _, ok := e.vars[name]; !ok {
		e.names = append(e.names, name)
	}
	e.vars[name] = v
}

func (e *environ) Get(name string) expand.Variable { return e.vars[name] }

func (e *environ) Each(f func(name string, vr expand.Variable) bool) {
	for _, n := range e.names {
		if !f(n, e.vars[n]) {
			return
		}
	}
}

// exportedPairs lists the exported variables of env as NAME=VALUE.
func exportedPairs(env expand.Environ) []string { return pairs(env, true) }

// setPairs lists every set variable of env, exported or not, as
// NAME=VALUE (arrays with their first element's value).
func setPairs(env expand.Environ) []string { return pairs(env, false) }

// alwaysExported are the variables bash exports from its start and keeps
// exported across cd; the upstream runner sets them unexported (and cd
// resets the flag), so commands would not see them.
var alwaysExported = map[string]bool{"PWD": true, "OLDPWD": true}

func pairs(env expand.Environ, exportedOnly bool) []string {
	var out []string
	env.Each(func(name string, vr expand.Variable) bool {
		switch {
		case !vr.IsSet() || exportedOnly && (!(vr.Exported || alwaysExported[name]) || vr.Kind != expand.String):
		case vr.Kind == expand.String:
			out = append(out, name+"="+vr.Str)
		default:
			out = append(out, name+"="+vr.String())
		}
		return true
	})
	return out
}

// variableBytes estimates the memory held by a script's variables.
func variableBytes(env expand.Environ) int64 {
	var n int64
	env.Each(func(name string, vr expand.Variable) bool {
		n += int64(len(name) + len(vr.Str))
		for _, s := range vr.List {
			n += int64(len(s))
		}
		for k, v := range vr.Map {
			n += int64(len(k) + len(v))
		}
		return true
	})
	return n
}
