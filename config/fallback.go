package config

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// UnmarshalYAML reads a fallback section strictly. An entry of commands is
// a name, or a mapping {name: NAME, network: true} that gives that command
// the host network (git fetch and push, gh).
func (f *Fallback) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: fallback: want a mapping with commands and env", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "env":
			if err := v.Decode(&f.Env); err != nil {
				return err
			}
		case "commands":
			if v.Kind != yaml.SequenceNode {
				return fmt.Errorf("line %d: fallback.commands: want a list", v.Line)
			}
			for _, item := range v.Content {
				name, network, err := fallbackCommand(item)
				if err != nil {
					return err
				}
				f.Commands = append(f.Commands, name)
				if network {
					f.Network = append(f.Network, name)
				}
			}
		default:
			return fmt.Errorf("line %d: field %s not found in fallback (want commands, env)", k.Line, k.Value)
		}
	}
	return nil
}

func fallbackCommand(item *yaml.Node) (name string, network bool, err error) {
	switch item.Kind {
	case yaml.ScalarNode:
		return item.Value, false, nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			switch k.Value {
			case "name":
				name = v.Value
			case "network":
				if err := v.Decode(&network); err != nil {
					return "", false, fmt.Errorf("line %d: fallback.commands: network: want true or false", v.Line)
				}
			default:
				return "", false, fmt.Errorf("line %d: field %s not found in a fallback command (want name, network)", k.Line, k.Value)
			}
		}
		if name == "" {
			return "", false, fmt.Errorf("line %d: fallback.commands: an entry needs a name", item.Line)
		}
		return name, network, nil
	}
	return "", false, fmt.Errorf("line %d: fallback.commands: want a name or {name, network}", item.Line)
}
