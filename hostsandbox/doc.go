// Package hostsandbox runs real host processes inside the strongest OS
// sandbox the machine offers, and refuses to run them at all when there is
// none. It is the boundary of the classic Bash tool (package bashtool, the
// `bashbox bash` command) and of bashbox's operator-named fallback
// commands: unlike the in-process sandbox, the commands here are real
// processes, so the operating system is what confines them.
//
// A Manifest says what a command may see: the paths it may read and write,
// whether it has the network (NetworkMode), how strict its system call
// filter is (SyscallPolicy), its resource limits. Select picks the Backend
// that enforces it, in order of strength:
//
//   - Docker, only when BASHBOX_SANDBOX=docker (one fresh container per
//     command);
//   - bubblewrap on Linux, with Landlock and a seccomp filter applied
//     inside it by the bashbox binary re-executed as a helper (ServeHelper
//     must run first thing in main);
//   - sandbox-exec on macOS, AppContainer on Windows;
//   - none: fail closed, unless the operator sets
//     BASHBOX_ALLOW_NO_SANDBOX=1.
//
// Inspect reports which backends and layers work on this machine (the
// `bashbox doctor` command). README.md in this directory lists the threats
// each layer defends against and how.
package hostsandbox
