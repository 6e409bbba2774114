package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerText adds: cat head tail wc sort uniq cut tr tee seq comm join paste.
func registerText(r *builtins.Registry) {
}
