package fileops

import (
	"context"
	"io/fs"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// RefuseRoot is --preserve-root for commands that change attributes
// recursively (chmod, chown, chgrp): it reports, with GNU's two lines,
// whether name is the root and must be left alone.
func RefuseRoot(c *builtins.Call, q quote.Quoter, name string) bool {
	if meta.Physical(c, c.Abs(name)) != "/" {
		return false
	}
	c.Errorf("it is dangerous to operate recursively on %s", q.AF("/"))
	c.Errorf("use --no-preserve-root to override this failsafe")
	return true
}

// WalkTree visits what lies below dir, each directory before its
// entries, in the directory's native order, as chmod -R and chown -R go:
// visit returns whether to descend into the entry (a directory). A
// directory that cannot be listed goes to readErr. The walk stops when
// ctx is done.
func WalkTree(ctx context.Context, c *builtins.Call, dir string, visit func(p string, fi fs.FileInfo) bool, readErr func(dir string, err error)) {
	entries, err := c.ReadDir(dir)
	if err != nil {
		readErr(dir, err)
		return
	}
	for i, e := range entries {
		if i&255 == 255 && ctx.Err() != nil {
			return
		}
		p := strings.TrimSuffix(dir, "/") + "/" + e.Name()
		if visit(p, e) {
			WalkTree(ctx, c, p, visit, readErr)
		}
	}
}

// LeadingDirs splits dir, less its trailing slashes, into the directories
// above it as the user wrote them ("a", "a//b" for "a//b/c/"), for mkdir
// -p and install -d, which create them one by one and name them so in
// messages. trimmed is dir without the trailing slashes; "" (dir is "/" or
// empty) leaves nothing to create.
func LeadingDirs(dir string) (parents []string, trimmed string) {
	trimmed = strings.TrimRight(dir, "/")
	for i := 1; i < len(trimmed); i++ {
		if trimmed[i] == '/' && trimmed[i-1] != '/' {
			parents = append(parents, trimmed[:i])
		}
	}
	return parents, trimmed
}
