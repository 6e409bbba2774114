package rg

import (
	"sort"
	"sync"
)

// fileTypes are ripgrep 13's definitions of the common types (rg --type-list),
// built on first use: a map literal this size is code run at every start
// of the binary otherwise.
var fileTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"asciidoc": {"*.adoc", "*.asc", "*.asciidoc"},
		"asm":      {"*.S", "*.asm", "*.s"},
		"bazel":    {"*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"},
		"c":        {"*.[chH]", "*.[chH].in", "*.cats"},
		"clojure":  {"*.clj", "*.cljc", "*.cljs", "*.cljx"},
		"cmake":    {"*.cmake", "CMakeLists.txt"},
		"config":   {"*.cfg", "*.conf", "*.config", "*.ini"},
		"cpp":      {"*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"},
		"crystal":  {"*.cr", "Projectfile"},
		"cs":       {"*.cs"},
		"csharp":   {"*.cs"},
		"css":      {"*.css", "*.scss"},
		"csv":      {"*.csv"},
		"cython":   {"*.pxd", "*.pxi", "*.pyx"},
		"d":        {"*.d"},
		"dart":     {"*.dart"},
		"diff":     {"*.diff", "*.patch"},
		"docker":   {"*Dockerfile*"},
		"elixir":   {"*.eex", "*.ex", "*.exs"},
		"elm":      {"*.elm"},
		"erlang":   {"*.erl", "*.hrl"},
		"fish":     {"*.fish"},
		"fortran":  {"*.F", "*.F77", "*.F90", "*.F95", "*.f", "*.f77", "*.f90", "*.f95", "*.pfo"},
		"fsharp":   {"*.fs", "*.fsi", "*.fsx"},
		"gn":       {"*.gn", "*.gni"},
		"go":       {"*.go"},
		"gradle":   {"*.gradle"},
		"groovy":   {"*.gradle", "*.groovy"},
		"h":        {"*.h", "*.hpp"},
		"haskell":  {"*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"},
		"hs":       {"*.hs", "*.lhs"},
		"html":     {"*.ejs", "*.htm", "*.html"},
		"java":     {"*.java", "*.jsp", "*.jspx", "*.properties"},
		"jinja":    {"*.j2", "*.jinja", "*.jinja2"},
		"jl":       {"*.jl"},
		"js":       {"*.js", "*.jsx", "*.vue"},
		"json":     {"*.json", "composer.lock"},
		"jsonl":    {"*.jsonl"},
		"julia":    {"*.jl"},
		"jupyter":  {"*.ipynb", "*.jpynb"},
		"kotlin":   {"*.kt", "*.kts"},
		"less":     {"*.less"},
		"lisp":     {"*.el", "*.jl", "*.lisp", "*.lsp", "*.sc", "*.scm"},
		"lock":     {"*.lock", "package-lock.json"},
		"log":      {"*.log"},
		"lua":      {"*.lua"},
		"make":     {"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"},
		"markdown": {"*.markdown", "*.md", "*.mdown", "*.mkdn"},
		"md":       {"*.markdown", "*.md", "*.mdown", "*.mkdn"},
		"meson":    {"meson.build", "meson_options.txt"},
		"ml":       {"*.ml"},
		"nim":      {"*.nim", "*.nimble", "*.nimf", "*.nims"},
		"nix":      {"*.nix"},
		"objc":     {"*.h", "*.m"},
		"ocaml":    {"*.ml", "*.mli", "*.mll", "*.mly"},
		"perl":     {"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"},
		"php":      {"*.php", "*.php3", "*.php4", "*.php5", "*.phtml"},
		"pod":      {"*.pod"},
		"protobuf": {"*.proto"},
		"ps":       {"*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"},
		"py":       {"*.py"},
		"r":        {"*.R", "*.Rmd", "*.Rnw", "*.r"},
		"rst":      {"*.rst"},
		"ruby":     {"*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"},
		"rust":     {"*.rs"},
		"sass":     {"*.sass", "*.scss"},
		"scala":    {"*.sbt", "*.scala"},
		"sh":       {"*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
		"sql":      {"*.psql", "*.sql"},
		"swift":    {"*.swift"},
		"tex":      {"*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"},
		"tf":       {"*.tf"},
		"toml":     {"*.toml", "Cargo.lock"},
		"ts":       {"*.ts", "*.tsx"},
		"txt":      {"*.txt"},
		"vala":     {"*.vala"},
		"verilog":  {"*.sv", "*.svh", "*.v", "*.vh"},
		"vhdl":     {"*.vhd", "*.vhdl"},
		"vim":      {"*.vim"},
		"xml":      {"*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"},
		"yaml":     {"*.yaml", "*.yml"},
		"zig":      {"*.zig"},
		"zsh":      {"*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
	}
})

func typeNames() []string {
	names := make([]string, 0, len(fileTypes()))
	for n := range fileTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
