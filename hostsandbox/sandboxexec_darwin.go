//go:build darwin

package hostsandbox

const sandboxExecSupportedOS = true
