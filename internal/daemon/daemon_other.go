//go:build !unix

// Package daemon serves bashbox runs to the native launcher over a Unix
// socket; it exists on Unix systems only.
package daemon
