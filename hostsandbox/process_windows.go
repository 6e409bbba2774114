//go:build windows

package hostsandbox

import (
	"io/fs"
	"os"
	"os/exec"
	"strings"
)

// Windows has no process groups; the no-sandbox backend kills only the
// direct child there (AppContainer uses a job object instead).
func setProcessGroup(*exec.Cmd) {}

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func waitAndSweep(cmd *exec.Cmd, exited func()) error {
	err := cmd.Wait()
	exited()
	return err
}

func exitCodeOf(st *os.ProcessState) int {
	if st == nil {
		return -1
	}
	return st.ExitCode()
}

func executableNames(path string) []string {
	if strings.Contains(path[strings.LastIndexAny(path, `\/`)+1:], ".") {
		return []string{path}
	}
	return []string{path + ".exe", path + ".cmd", path + ".bat", path}
}

func isExecutable(fs.FileInfo) bool { return true }
