package bashtool

import (
	"strings"

	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/internal/lazyre"
)

// EnvAllowNetwork, set to 1 or true (any case) in bashbox's environment,
// gives commands the host network; otherwise they have none.
const EnvAllowNetwork = "BASHBOX_BASH_ALLOW_NETWORK"

// NetworkFromEnv is the network mode the bashbox command gives the tool:
// inherit when BASHBOX_BASH_ALLOW_NETWORK, looked up with getenv, is 1 or
// true (any case), deny otherwise.
func NetworkFromEnv(getenv func(string) string) hostsandbox.NetworkMode {
	if v := strings.TrimSpace(getenv(EnvAllowNetwork)); v == "1" || strings.EqualFold(v, "true") {
		return hostsandbox.NetworkInherit
	}
	return hostsandbox.NetworkDeny
}

// NetworkHint ends the result of a failed, network-looking command while
// the network is closed, so the model stops retrying.
const NetworkHint = "[bashbox] This sandbox has NO network, which is likely why this command failed. " +
	"Do not retry it with other network tools (curl, wget, ...). " +
	"An operator can open the network by starting bashbox with " + EnvAllowNetwork + "=1."

// networkCommandRe recognises commands that need the network. It is only
// used to add the hint to a result that already failed, so false
// positives cost nothing.
var networkCommandRe = lazyre.New(`\b(curl|wget|ssh|scp|sftp|ping|telnet|nslookup|dig|npx|brew|apt|apt-get|yum|dnf|apk|pacman|aria2c|gh)\b|` +
	`\bgit\s+(fetch|clone|pull|push|ls-remote|submodule)\b|` +
	`\b(npm|pnpm|yarn|bun)\s+(install|i|ci|add|update|upgrade|dlx|create|publish)\b|\byarn\s*$|` +
	`\b(pip|pip3|uv|poetry|pipx|pipenv)\s+(pip\s+)?(install|download|add|sync|lock)\b|` +
	`\bcargo\s+(fetch|install|update|add|search|publish)\b|` +
	`\bgo\s+(get|install|mod\s+(download|tidy))\b|` +
	`\b(gem|bundle|composer)\s+(install|update|require)\b|` +
	`\bdocker\s+(pull|push|login)\b`)

func looksNetworkDependent(command string) bool {
	return networkCommandRe().MatchString(deobfuscate(command))
}
