package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/dd"
	"github.com/bashbox/bashbox/coreutils/gunzip"
	"github.com/bashbox/bashbox/coreutils/gzip"
	"github.com/bashbox/bashbox/coreutils/tar"
	"github.com/bashbox/bashbox/coreutils/unzip"
	"github.com/bashbox/bashbox/coreutils/zcat"
	"github.com/bashbox/bashbox/coreutils/zip"
)

// registerArchive adds: tar gzip gunzip zcat zip unzip dd.
func registerArchive(r *builtins.Registry) {
	r.Register("tar", tar.Run)
	r.Register("gzip", gzip.Run)
	r.Register("gunzip", gunzip.Run)
	r.Register("zcat", zcat.Run)
	r.Register("zip", zip.Run)
	r.Register("unzip", unzip.Run)
	r.Register("dd", dd.Run)
}
