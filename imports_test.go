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
		eachSource(t, fset, root, func(p string, f *ast.File) error {
			// The test-helper packages run the real tools to compare
			// against; TestTestHelpersStayInTests keeps them out of
			// the commands.
			if strings.Contains(p, "cmdtest") || strings.Contains(p, "gnutest") {
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

// TestEngineDoesNotTouchTheHost enforces the shell engine's boundary
// (interp and its subpackages): no host process, user database, raw system
// call or reflection, nothing of the upstream runner, and from os only the
// identifiers below. Everything a script names goes through the guest
// namespace; this test makes that true by construction.
func TestEngineDoesNotTouchTheHost(t *testing.T) {
	forbidden := map[string]string{
		"mvdan.cc/sh/v3/interp": "the upstream runner", "mvdan.cc/sh/v3/expand": "the upstream expander",
		"os/exec": "host processes", "os/user": "the host's user database", "syscall": "raw system calls",
		"golang.org/x/sys/unix": "raw system calls", "unsafe": "memory tricks", "reflect": "reaching into dependencies",
		"net": "the network", "os/signal": "host signals", "plugin": "host code",
	}
	// The allowlist of os identifiers: open flags for the namespace's
	// OpenFile, nothing that acts on the host.
	allowedOS := map[string]bool{
		"O_RDONLY": true, "O_WRONLY": true, "O_RDWR": true, "O_CREATE": true, "O_TRUNC": true,
		"O_APPEND": true, "O_EXCL": true,
	}
	fset := token.NewFileSet()
	checked := 0
	eachSource(t, fset, "interp", func(p string, f *ast.File) error {
		checked++
		osName := ""
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if why, bad := forbidden[path]; bad {
				t.Errorf("%s imports %s (%s)", p, path, why)
			}
			if path == "os" {
				osName = "os"
				if imp.Name != nil {
					osName = imp.Name.Name
				}
			}
		}
		if osName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == osName && !allowedOS[sel.Sel.Name] {
					t.Errorf("%s: uses os.%s", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if checked < 10 {
		t.Fatalf("only %d engine files checked", checked)
	}
}

// TestNoUpstreamRunner: nothing in the module imports the upstream
// runner or expander; only its parser (and pattern, which we do not use).
func TestNoUpstreamRunner(t *testing.T) {
	fset := token.NewFileSet()
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return nil
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "mvdan.cc/sh/v3/") && path != "mvdan.cc/sh/v3/syntax" && path != "mvdan.cc/sh/v3/pattern" {
				t.Errorf("%s imports %s", p, path)
			}
		}
		return nil
	})
}

// eachSource parses every non-test Go file under root and hands it to fn.
func eachSource(t *testing.T, fset *token.FileSet, root string, fn func(p string, f *ast.File) error) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
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
		return fn(p, f)
	})
}

// TestTestHelpersStayInTests: cmdtest and gnutest may run host programs
// (the real tools a command is compared with), so only _test.go files may
// import them; a command that did would reach the host.
func TestTestHelpersStayInTests(t *testing.T) {
	fset := token.NewFileSet()
	for _, root := range []string{"coreutils", "builtins", "interp", "overlayfs", "volumes"} {
		eachSource(t, fset, root, func(p string, f *ast.File) error {
			if strings.Contains(p, "cmdtest") || strings.Contains(p, "gnutest") {
				return nil
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasSuffix(path, "/cmdtest") || strings.HasSuffix(path, "/gnutest") {
					t.Errorf("%s imports the test helper %s", p, path)
				}
			}
			return nil
		})
	}
}
