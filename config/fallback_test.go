package config_test

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/config"
)

// TestFallbackNetworkPerCommand: a fallback command gets the network only
// when its entry says network: true.
func TestFallbackNetworkPerCommand(t *testing.T) {
	f, err := config.Parse("t.yaml", []byte("profiles:\n  p:\n    fallback:\n      commands: [{name: git, network: true}]\n      env: [HOME]\n"))
	if err != nil {
		t.Fatal(err)
	}
	fb := f.Profiles["p"].Fallback
	if strings.Join(fb.Commands, ",") != "git" || strings.Join(fb.Network, ",") != "git" || strings.Join(fb.Env, ",") != "HOME" {
		t.Fatalf("fallback %+v", fb)
	}
	f, err = config.Parse("t.yaml", []byte("profiles:\n  p:\n    fallback:\n      commands: [git]\n"))
	if err != nil || len(f.Profiles["p"].Fallback.Network) != 0 {
		t.Fatalf("plain name: %+v %v", f, err)
	}
	for yml, want := range map[string]string{
		"profiles:\n  p:\n    fallback:\n      commands: [{name: git, net: true}]\n":      "line 4: field net not found in a fallback command",
		"profiles:\n  p:\n    fallback:\n      commands: [{name: git, network: maybe}]\n": "network: want true or false",
		"profiles:\n  p:\n    fallback:\n      commands: [{network: true}]\n":             "an entry needs a name",
		"profiles:\n  p:\n    fallback:\n      cmds: [git]\n":                             "field cmds not found in fallback",
	} {
		if _, err := config.Parse("t.yaml", []byte(yml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", yml, err, want)
		}
	}
}
