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
