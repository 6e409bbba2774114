package bench

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MakeCorpus copies src (skipping testdata-heavy special files) into dst,
// adds the generated data files and the two symlinks every run needs, and
// commits it all as a git repository.
func MakeCorpus(src, dst string) error {
	if err := copyTree(src, dst); err != nil {
		return err
	}
	if err := writeData(filepath.Join(dst, "bench-data")); err != nil {
		return err
	}
	// A relative and a dangling symlink: find must not abort on either.
	os.Symlink("../README.vendor", filepath.Join(dst, "bench-data", "relative-link"))
	os.Symlink("no/such/target", filepath.Join(dst, "bench-data", "dangling-link"))
	return commitCorpus(dst)
}

// commitCorpus makes dst a git repository with everything in one commit.
func commitCorpus(dst string) error {
	git := func(args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir = dst
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
			"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := git("init", "-q", "-b", "main"); err != nil {
		return err
	}
	if err := git("add", "-A"); err != nil {
		return err
	}
	return git("commit", "-q", "-m", "corpus")
}

// MakeShapedCorpus writes the second corpus, of another shape than a
// source tree: many small files in deep directories and a few huge files,
// generated from a fixed seed, plus the data files and a git commit as
// MakeCorpus has them. Its top-level strings/ and net/ directories are what
// the copying ops expect.
func MakeShapedCorpus(dst string) error {
	rng := rand.New(rand.NewPCG(20, 20))
	words := strings.Fields("ctx err req resp buf data node tree walk path name size mode item list map key val")
	for i := 0; i < 40000; i++ {
		top := []string{"strings", "net", "pkg", "internal", "cmd", "docs"}[i%6]
		dir := top
		for d := 0; d < 2+int(rng.IntN(11)); d++ { // 3 to 13 levels
			dir = filepath.Join(dir, fmt.Sprintf("d%d", rng.IntN(4)))
		}
		ext := []string{".go", ".go", ".txt", ".md"}[rng.IntN(4)]
		var b strings.Builder
		if ext == ".go" {
			fmt.Fprintf(&b, "package p%d\n\n", i%97)
		}
		for l := 0; l < 5+rng.IntN(60); l++ {
			switch rng.IntN(9) {
			case 0:
				fmt.Fprintf(&b, "func F%d(ctx context.Context) error { return nil }\n", l)
			case 1:
				fmt.Fprintf(&b, "func (s *Server%d) Handle%s(w Writer) {}\n", l, strings.ToUpper(words[rng.IntN(len(words))][:1]))
			default:
				for k := 0; k < 3+rng.IntN(8); k++ {
					b.WriteString(words[rng.IntN(len(words))] + " ")
				}
				b.WriteString("\n")
			}
		}
		if err := os.MkdirAll(filepath.Join(dst, dir), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, dir, fmt.Sprintf("f%d%s", i, ext)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(dst, "huge"), 0o755); err != nil {
		return err
	}
	for h := 0; h < 3; h++ { // three 40 MB logs
		f, err := os.Create(filepath.Join(dst, "huge", fmt.Sprintf("log%d.txt", h)))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		for n := 0; n < 40<<20; {
			k, _ := fmt.Fprintf(w, "%08d level=%s svc=%s context.Context msg=%q\n", n, words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))])
			n += k
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if err := writeData(filepath.Join(dst, "bench-data")); err != nil {
		return err
	}
	return commitCorpus(dst)
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			if t, err := os.Readlink(p); err == nil {
				os.Symlink(t, target)
			}
			return nil
		case d.Type().IsRegular():
			in, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer in.Close()
			out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, in)
			out.Close()
			return err
		}
		return nil
	})
}

// writeData makes the JSONL, CSV and word files, from a fixed seed.
func writeData(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(10, 10))
	write := func(name string, lines int, line func(i int) string) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		for i := 0; i < lines; i++ {
			w.WriteString(line(i))
			w.WriteByte('\n')
		}
		if err := w.Flush(); err != nil {
			return err
		}
		return f.Close()
	}
	levels := []string{"debug", "info", "info", "warn", "error"}
	services := []string{"api", "auth", "billing", "search", "worker", "gateway"}
	if err := write("events.jsonl", 200000, func(i int) string {
		return fmt.Sprintf(`{"id":%d,"level":%q,"service":%q,"latency_ms":%d,"msg":"event %d"}`,
			i%50000, levels[rng.IntN(len(levels))], services[rng.IntN(len(services))], rng.IntN(5000), i)
	}); err != nil {
		return err
	}
	depts := []string{"eng", "ops", "sales", "support", "research", "legal", "finance"}
	if err := write("sales.csv", 300000, func(i int) string {
		if i == 0 {
			return "id,dept,amount"
		}
		return fmt.Sprintf("%d,%s,%d.%02d", i, depts[rng.IntN(len(depts))], rng.IntN(10000), rng.IntN(100))
	}); err != nil {
		return err
	}
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega")
	return write("words.txt", 500000, func(i int) string {
		return words[int(rng.ExpFloat64()*4)%len(words)]
	})
}
