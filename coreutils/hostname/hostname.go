// Package hostname implements hostname (Debian's hostname package) for the
// sandbox, whose host name is always "bashbox" with no DNS domain and the
// loopback address 127.0.0.1. Setting the name is refused as for a
// non-root user.
package hostname

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

// Name is the sandbox's host name.
const Name = "bashbox"

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "alias"}, {Short: 'A', Long: "all-fqdns"}, {Short: 'b', Long: "boot"},
	{Short: 'd', Long: "domain"}, {Short: 'f', Long: "fqdn"}, {Long: "long"},
	{Short: 'F', Long: "file", Arg: builtins.RequiredArg}, {Short: 'i', Long: "ip-address"},
	{Short: 'I', Long: "all-ip-addresses"}, {Short: 's', Long: "short"},
	{Short: 'y', Long: "yp"}, {Long: "nis"},
	{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
}}

const usage = `Usage: hostname [-b] {hostname|-F file}         set host name (from file)
       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name
       hostname                                 display host name

       {yp,nis,}domainname {nisdomain|-F file}  set NIS domain name (from file)
       {yp,nis,}domainname                      display NIS domain name

       dnsdomainname                            display dns domain name

       hostname -V|--version|-h|--help          print info and exit

Program name:
       {yp,nis,}domainname=hostname -y
       dnsdomainname=hostname -d

Program options:
    -a, --alias            alias names
    -A, --all-fqdns        all long host names (FQDNs)
    -b, --boot             set default hostname if none available
    -d, --domain           DNS domain name
    -f, --fqdn, --long     long host name (FQDN)
    -F, --file             read host name or NIS domain name from given file
    -i, --ip-address       addresses for the host name
    -I, --all-ip-addresses all addresses for the host
    -s, --short            short host name
    -y, --yp, --nis        NIS/YP domain name

Description:
   This command can get or set the host name or the NIS domain name. You can
   also get the DNS domain or the FQDN (fully qualified domain name).
   Unless you are using bind or NIS for host lookups you can change the
   FQDN (Fully Qualified Domain Name) and the DNS domain name (which is
   part of the FQDN) in the /etc/hosts file.
`

// Run prints the host name in the requested form.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		fmt.Fprint(c.Stdout, usage)
		return 255
	}
	form, set := "", len(operands) > 0
	for _, o := range opts {
		switch o.Key {
		case "help":
			fmt.Fprint(c.Stdout, usage)
			return 0
		case "version":
			return c.Version()
		case "file":
			set = true
		case "boot":
		default:
			form = o.Key
		}
	}
	// A name to set and a form to display are exclusive, as are two names.
	if len(operands) > 1 || len(operands) == 1 && form != "" {
		fmt.Fprint(c.Stderr, usage)
		return 255
	}
	if set && form == "" {
		c.Errorf("you must be root to change the host name")
		return 1
	}
	out := textfmt.NewOutput(c.Stdout)
	switch form {
	case "", "short", "fqdn", "long", "alias", "all-fqdns":
		if form == "alias" {
			out.WriteString("\n")
		} else if form == "all-fqdns" {
			out.WriteString(Name + " \n")
		} else {
			out.WriteString(Name + "\n")
		}
	case "domain":
		// No DNS domain: GNU prints nothing at all.
	case "ip-address":
		out.WriteString("127.0.0.1\n")
	case "all-ip-addresses":
		out.WriteString("\n")
	case "yp", "nis":
		// Debian's hostname prints this on standard output.
		out.WriteString(c.Name() + ": Local domain name not set\n")
		return out.Finish(c, 1)
	}
	return out.Finish(c, 0)
}
