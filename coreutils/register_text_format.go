package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerTextFormat adds: column nl fold fmt expand unexpand rev tac split od xxd hexdump strings.
func registerTextFormat(r *builtins.Registry) {
}
