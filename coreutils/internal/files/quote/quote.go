// Package quote is the old home of coreutils/internal/quote, kept for the
// packages that still import it (internal/digest, internal/basenc, tar,
// mkfifo, sync).
//
// Deprecated: use coreutils/internal/quote, whose Quoter follows the
// call's locale.
package quote

import "github.com/bashbox/bashbox/coreutils/internal/quote"

// Style is a GNU quoting style.
type Style = quote.Style

const (
	Literal           = quote.Literal
	Shell             = quote.Shell
	ShellAlways       = quote.ShellAlways
	ShellEscape       = quote.ShellEscape
	ShellEscapeAlways = quote.ShellEscapeAlways
	C                 = quote.C
	Escape            = quote.Escape
	Locale            = quote.Locale
	CLocale           = quote.CLocale
)

var utf8Quoter = quote.Quoter{UTF8: true}

// AF quotes a file name for a diagnostic as quoteaf does, in a UTF-8
// locale.
func AF(s string) string { return utf8Quoter.AF(s) }

// Quote renders s in style, in a UTF-8 locale.
func Quote(s string, style Style) string { return utf8Quoter.Quote(s, style) }

// Q quotes s as quote() does.
func Q(s string, utf8Locale bool) string { return quote.Quoter{UTF8: utf8Locale}.Q(s) }

// UTF8Locale reports whether the locale the environment selects uses
// UTF-8.
func UTF8Locale(getenv func(string) string) bool { return quote.UTF8Locale(getenv) }
