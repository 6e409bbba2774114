package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/bunzip2"
	"github.com/bashbox/bashbox/coreutils/bzcat"
	"github.com/bashbox/bashbox/coreutils/bzip2"
	"github.com/bashbox/bashbox/coreutils/lzma"
	"github.com/bashbox/bashbox/coreutils/unxz"
	"github.com/bashbox/bashbox/coreutils/unzstd"
	"github.com/bashbox/bashbox/coreutils/xz"
	"github.com/bashbox/bashbox/coreutils/xzcat"
	"github.com/bashbox/bashbox/coreutils/zstd"
	"github.com/bashbox/bashbox/coreutils/zstdcat"
)

// registerCompress adds: bzip2 bunzip2 bzcat xz unxz xzcat zstd unzstd
// zstdcat lzma unlzma lzcat.
func registerCompress(r *builtins.Registry) {
	r.Register("bzip2", bzip2.Run)
	r.Register("bunzip2", bunzip2.Run)
	r.Register("bzcat", bzcat.Run)
	r.Register("xz", xz.Run)
	r.Register("unxz", unxz.Run)
	r.Register("xzcat", xzcat.Run)
	r.Register("zstd", zstd.Run)
	r.Register("unzstd", unzstd.Run)
	r.Register("zstdcat", zstdcat.Run)
	r.Register("lzma", lzma.Run)
	r.Register("unlzma", lzma.RunUnlzma)
	r.Register("lzcat", lzma.RunLzcat)
}
