// Package uname implements uname and arch for the sandbox, which reports a
// fixed system so that scripts behave the same on every host:
//
//	kernel name      Linux
//	node name        bashbox
//	kernel release   6.1.0-bashbox
//	kernel version   #1 SMP PREEMPT_DYNAMIC bashbox
//	machine          x86_64
//	processor        unknown (left out of -a, as GNU does)
//	hardware         unknown (left out of -a)
//	operating system GNU/Linux
package uname

import (
	"context"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// The sandbox's system identification.
const (
	KernelName    = "Linux"
	NodeName      = "bashbox"
	KernelRelease = "6.1.0-bashbox"
	KernelVersion = "#1 SMP PREEMPT_DYNAMIC bashbox"
	Machine       = "x86_64"
	Processor     = "unknown"
	Platform      = "unknown"
	OS            = "GNU/Linux"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "all"}, {Short: 's', Long: "kernel-name"}, {Short: 'n', Long: "nodename"},
	{Short: 'r', Long: "kernel-release"}, {Short: 'v', Long: "kernel-version"},
	{Short: 'm', Long: "machine"}, {Short: 'p', Long: "processor"},
	{Short: 'i', Long: "hardware-platform"}, {Short: 'o', Long: "operating-system"},
	{Long: "release"}, {Long: "sysname"},
}}

const (
	fKernel = 1 << iota
	fNode
	fRelease
	fVersion
	fMachine
	fProcessor
	fPlatform
	fOS
)

// Run prints the selected system information.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, code, done := utilcmd.Parse(c, options, helpText(c), 1)
	if done {
		return code
	}
	sel := 0
	for _, o := range opts {
		switch o.Key {
		case "all":
			sel = -1
		case "kernel-name", "sysname":
			sel |= fKernel
		case "nodename":
			sel |= fNode
		case "kernel-release", "release":
			sel |= fRelease
		case "kernel-version":
			sel |= fVersion
		case "machine":
			sel |= fMachine
		case "processor":
			sel |= fProcessor
		case "hardware-platform":
			sel |= fPlatform
		case "operating-system":
			sel |= fOS
		}
	}
	if len(operands) > 0 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[0]))
		return c.TryHelp(1)
	}
	if sel == 0 {
		sel = fKernel
	}
	var parts []string
	add := func(f int, v string) {
		if sel&f != 0 {
			parts = append(parts, v)
		}
	}
	add(fKernel, KernelName)
	add(fNode, NodeName)
	add(fRelease, KernelRelease)
	add(fVersion, KernelVersion)
	add(fMachine, Machine)
	if sel != -1 {
		add(fProcessor, Processor)
		add(fPlatform, Platform)
	}
	add(fOS, OS)
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString(strings.Join(parts, " ") + "\n")
	return out.Finish(c, 0)
}

func helpText(c *builtins.Call) string {
	name := c.Name()
	return "Usage: " + name + " [OPTION]...\n" +
		"Print certain system information.  With no OPTION, same as -s.\n\n" +
		"  -a, --all                print all information, in the following order,\n" +
		"                             except omit -p and -i if unknown:\n" +
		"  -s, --kernel-name        print the kernel name\n" +
		"  -n, --nodename           print the network node hostname\n" +
		"  -r, --kernel-release     print the kernel release\n" +
		"  -v, --kernel-version     print the kernel version\n" +
		"  -m, --machine            print the machine hardware name\n" +
		"  -p, --processor          print the processor type (non-portable)\n" +
		"  -i, --hardware-platform  print the hardware platform (non-portable)\n" +
		"  -o, --operating-system   print the operating system\n" +
		utilcmd.Trailer()
}

// Arch is arch(1): uname -m.
func Arch(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [OPTION]...\nPrint machine architecture.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 0, 0, 1); !ok {
		return st
	}
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString(Machine + "\n")
	return out.Finish(c, 0)
}
