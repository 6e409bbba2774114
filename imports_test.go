package bashbox_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var errnoName = regexp.MustCompile(`^(E[A-Z0-9]+|Errno)$`)

// TestCommandsDoNotTouchTheHost enforces that command code reaches files
// only through the filesystem it is given: no process, network or raw
// system calls, and no os function that acts on the host.
func TestCommandsDoNotTouchTheHost(t *testing.T) {
	forbiddenImports := map[string]bool{
		"os/exec": true, "net": true, "net/http": true, "unsafe": true,
		"os/signal": true, "os/user": true, "plugin": true, "golang.org/x/sys/unix": true,
	}
	// os identifiers commands may use: constants, types and errors.
	allowedOS := map[string]bool{
		"O_RDONLY": true, "O_WRONLY": true, "O_RDWR": true, "O_CREATE": true, "O_TRUNC": true,
		"O_APPEND": true, "O_EXCL": true, "O_SYNC": true, "FileMode": true, "FileInfo": true,
		"PathError": true, "LinkError": true, "SyscallError": true, "ErrNotExist": true, "ErrExist": true,
		"ErrPermission": true, "ErrClosed": true, "ErrInvalid": true, "ErrDeadlineExceeded": true,
		"IsNotExist": true, "IsExist": true, "IsPermission": true, "ModeDir": true, "ModeSymlink": true,
		"ModePerm": true, "ModeType": true, "ModeNamedPipe": true, "ModeSocket": true, "ModeDevice": true,
		"ModeCharDevice": true, "ModeSetuid": true, "ModeSetgid": true, "ModeSticky": true, "ModeIrregular": true,
		"ModeAppend": true, "ModeExclusive": true, "ModeTemporary": true, "DevNull": true, "PathSeparator": true,
	}
	fset := token.NewFileSet()
	checked := 0
	for _, root := range []string{"coreutils", "builtins"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.Contains(p, "cmdtest") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(string(src), "//go:build ignore") {
				return nil // a generator run by go generate, never built into bashbox
			}
			f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			checked++
			osName, sysName := "", ""
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if forbiddenImports[path] && !(root == "builtins" && path == "syscall") {
					t.Errorf("%s imports %s", p, path)
				}
				if path == "os" {
					osName = "os"
					if imp.Name != nil {
						osName = imp.Name.Name
					}
				}
				if path == "syscall" {
					sysName = "syscall"
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				if osName != "" && id.Name == osName && !allowedOS[sel.Sel.Name] {
					t.Errorf("%s: uses os.%s, which acts on the host", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				// syscall is allowed for error numbers only (errors.Is(err, syscall.EXDEV)).
				if sysName != "" && id.Name == sysName && !errnoName.MatchString(sel.Sel.Name) {
					t.Errorf("%s: uses syscall.%s; only error numbers are allowed", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
			return nil
		})
	}
	if checked == 0 {
		t.Fatal("no command source checked")
	}
}
