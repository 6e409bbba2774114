//go:build !darwin

package hostsandbox

const sandboxExecSupportedOS = false
