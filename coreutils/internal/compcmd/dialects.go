package compcmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/codec"
)

// Bzip2 speaks as bzip2 1.0.8.
var Bzip2 = &Dialect{
	Format:   codec.Bzip2,
	Suffixes: [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}},
	Help: `bzip2, a block-sorting file compressor.  Version 1.0.8 (bashbox).

   usage: %s [flags and input files in any order]

   -h --help           print this message
   -d --decompress     force decompression
   -z --compress       force compression
   -k --keep           keep (don't delete) input files
   -f --force          overwrite existing output files
   -t --test           test compressed file integrity
   -c --stdout         output to standard out
   -q --quiet          suppress noncritical error messages
   -v --verbose        be verbose (a 2nd -v gives more)
   -s --small          use less memory (at most 2500k)
   -1 .. -9            set block size to 100k .. 900k
   --fast              alias for -1
   --best              alias for -9

   If no file names are given, bzip2 compresses or decompresses
   from standard input to standard output.
`,
	Flags: []builtins.Option{{Short: 's', Long: "small"}, {Short: 'L', Long: "license"}, {Long: "repetitive-fast"}, {Long: "repetitive-best"}},
	OpenFailed: func(name string, err error) (string, int) {
		return fmt.Sprintf("Can't open input file %s: %s.", name, builtins.ErrText(err)), 1
	},
	IsDir: func(name string) (string, int) { return fmt.Sprintf("Input file %s is a directory.", name), 1 },
	HasSuffix: func(name string) (string, int) {
		for _, s := range []string{".bz2", ".bz", ".tbz2", ".tbz"} {
			if strings.HasSuffix(name, s) {
				return fmt.Sprintf("Input file %s already has %s suffix.", name, s), 1
			}
		}
		return "", 1
	},
	UnknownSuffix: func(name string) (string, int) {
		return fmt.Sprintf("Can't guess original name for %s -- using %s.out", name, name), 0
	},
	OutputExists: func(out string) (string, int) { return fmt.Sprintf("Output file %s already exists.", out), 1 },
	NotFormat:    func(name string) (string, int) { return fmt.Sprintf("%s is not a bzip2 file.", name), 2 },
	Corrupt: func(name string, err error) (string, int) {
		if err == io.ErrUnexpectedEOF {
			return fmt.Sprintf("%s: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.", name), 2
		}
		return fmt.Sprintf("%s: Data integrity error when decompressing.", name), 2
	},
}

// Xz speaks as xz 5.4.
var Xz = &Dialect{
	Format:      codec.Xz,
	Suffixes:    [][2]string{{".xz", ""}, {".txz", ".tar"}},
	FormatFirst: true,
	Help: `Usage: %s [OPTION]... [FILE]...
Compress or decompress FILEs in the .xz format.

  -z, --compress      force compression
  -d, --decompress    force decompression
  -t, --test          test compressed file integrity
  -k, --keep          keep (don't delete) input files
  -f, --force         force overwrite of output file and (de)compress links
  -c, --stdout        write to standard output and don't delete input files
  -0 ... -9           compression preset; default is 6
  -e, --extreme       try to improve compression ratio by using more CPU time
  -T, --threads=NUM   use at most NUM threads; the default is 1
  -q, --quiet         suppress warnings; specify twice to suppress errors too
  -v, --verbose       be verbose; specify twice for even more verbose
  -h, --help          display this short help and exit
  -V, --version       display the version number and exit

With no FILE, or when FILE is -, read standard input.
`,
	Flags:      []builtins.Option{{Short: 'e', Long: "extreme"}, {Long: "no-sparse"}, {Long: "no-warn"}},
	ArgOptions: []builtins.Option{{Short: 'T', Long: "threads", Arg: builtins.RequiredArg}, {Short: 'M', Long: "memlimit", Arg: builtins.RequiredArg}, {Short: 'F', Long: "format", Arg: builtins.RequiredArg}},
	OpenFailed: func(name string, err error) (string, int) {
		return fmt.Sprintf("%s: %s", name, builtins.ErrText(err)), 1
	},
	IsDir: func(name string) (string, int) { return name + ": Is a directory, skipping", 2 },
	HasSuffix: func(name string) (string, int) {
		s := ".xz"
		if strings.HasSuffix(name, ".txz") {
			s = ".txz"
		}
		return fmt.Sprintf("%s: File already has `%s' suffix, skipping", name, s), 2
	},
	UnknownSuffix: func(name string) (string, int) {
		return name + ": Filename has an unknown suffix, skipping", 2
	},
	OutputExists: func(out string) (string, int) { return out + ": File exists", 1 },
	NotFormat:    func(name string) (string, int) { return name + ": File format not recognized", 1 },
	Corrupt: func(name string, err error) (string, int) {
		switch {
		case err == io.ErrUnexpectedEOF:
			return name + ": Unexpected end of input", 1
		case err == codec.ErrMemLimit:
			return name + ": Memory usage limit reached", 1
		}
		return name + ": Compressed data is corrupt", 1
	},
}

// Lzma speaks as xz 5.4 in its lzma mode (lzma, unlzma, lzcat): the
// legacy .lzma format, with xz's messages.
var Lzma = func() *Dialect {
	d := *Xz
	d.Format = codec.Lzma
	d.Suffixes = [][2]string{{".lzma", ""}, {".tlz", ".tar"}}
	d.Help = strings.Replace(Xz.Help, "in the .xz format", "in the .lzma format", 1)
	d.HasSuffix = func(name string) (string, int) {
		s := ".lzma"
		if strings.HasSuffix(name, ".tlz") {
			s = ".tlz"
		}
		return fmt.Sprintf("%s: File already has `%s' suffix, skipping", name, s), 2
	}
	return &d
}()

// Zstd speaks as zstd 1.5.
var Zstd = &Dialect{
	Format:        codec.Zstd,
	Suffixes:      [][2]string{{".zst", ""}, {".tzst", ".tar"}},
	KeepByDefault: true,
	NameFirst:     true,
	CatForces:     true,
	Help: `Compress or decompress the INPUT file(s); reads from STDIN if INPUT is ` + "`-'" + ` or not provided.

Usage: %s [OPTIONS...] [INPUT... | -] [-o OUTPUT]

Options:
  -o OUTPUT                     Write output to a single file, OUTPUT.
  -k, --keep                    Preserve INPUT file(s). [Default]
  --rm                          Remove INPUT file(s) after successful (de)compression.
  -#                            Desired compression level, where ` + "`#`" + ` is a number between 1 and 19;
                                lower numbers provide faster compression, higher numbers yield
                                better compression ratios. [Default: 3]
  -d, --decompress              Perform decompression.
  -f, --force                   Disable input and output checks.
  -c, --stdout                  Write to STDOUT (even if it is a console) and keep the INPUT file(s).
  -t, --test                    Test compressed file integrity.
  -q, --quiet                   Suppress warnings; pass twice to suppress errors.
  -v, --verbose                 Increase verbosity level.
  -h                            Display short usage and exit.
  -V, --version                 Display the program version and exit.
`,
	Flags:      []builtins.Option{{Long: "rm"}, {Long: "ultra"}, {Long: "no-progress"}, {Short: 'D'}},
	ArgOptions: []builtins.Option{{Short: 'o', Long: "output", Arg: builtins.RequiredArg}, {Short: 'T', Long: "threads", Arg: builtins.RequiredArg}},
	OpenFailed: func(name string, err error) (string, int) {
		return fmt.Sprintf("\x00zstd: can't stat %s : %s -- ignored \n", name, builtins.ErrText(err)), 1
	},
	IsDir: func(name string) (string, int) {
		return fmt.Sprintf("\x00zstd: %s is a directory -- ignored \n", name), 1
	},
	HasSuffix: func(name string) (string, int) {
		return fmt.Sprintf("\x00zstd: %s already has .zst suffix -- ignored \n", name), 1
	},
	UnknownSuffix: func(name string) (string, int) {
		return fmt.Sprintf("\x00zstd: %s: unknown suffix (.zst/.tzst/.gz/.tgz/.lzma/.xz/.txz/.lz4/.tlz4 expected). Can't derive the output file name. Specify it with -o dstFileName. Ignoring.\n", name), 1
	},
	OutputExists: func(out string) (string, int) {
		return fmt.Sprintf("\x00zstd: %s already exists; not overwritten  \n", out), 1
	},
	NotFormat: func(name string) (string, int) { return fmt.Sprintf("\x00zstd: %s: unsupported format \n", name), 1 },
	Corrupt: func(name string, err error) (string, int) {
		return fmt.Sprintf("\x00zstd: %s: Decoding error (36) : %s \n", name, err), 1
	},
	Decompressed: func(name string, size int64) string {
		return fmt.Sprintf("%-20s: %d bytes \n", name, size)
	},
}
