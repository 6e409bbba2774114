package config

import (
	"fmt"
	"net/url"
)

// SessionStore says where sessions are kept. In memory (the default) a
// session lives in the process that created it. In Redis its state (cwd,
// variables, functions, aliases, options, traps and in-memory files) is
// saved after each call, so any replica sharing the Redis can continue it.
type SessionStore struct {
	// Store is "memory" or "redis".
	Store string `yaml:"store"`
	// RedisURL is redis://[user:password@]host:port/db (rediss:// for TLS).
	RedisURL string `yaml:"redis_url"`
	// MaxStateBytes bounds one session's saved state; a call whose state
	// outgrows it fails and the session keeps its previous state.
	MaxStateBytes Size `yaml:"max_state_bytes"`
}

// Store kinds.
const (
	StoreMemory = "memory"
	StoreRedis  = "redis"
)

// SetStore applies --session-store: "memory" or a redis:// URL.
func (s *SessionStore) SetStore(v string) error {
	if v == StoreMemory {
		s.Store, s.RedisURL = StoreMemory, ""
		return nil
	}
	if err := checkRedisURL(v); err != nil {
		return fmt.Errorf("--session-store: %v", err)
	}
	s.Store, s.RedisURL = StoreRedis, v
	return nil
}

func checkRedisURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return fmt.Errorf("%q is not memory or a redis://host:port URL", v)
	}
	return nil
}

func (s *SessionStore) validate(fail func(string, ...string) error) error {
	switch s.Store {
	case "", StoreMemory:
		s.Store = StoreMemory
	case StoreRedis:
		if s.RedisURL == "" {
			return fail("store: redis needs redis_url (or --session-store redis://...)", "sessions", "redis_url")
		}
		if err := checkRedisURL(s.RedisURL); err != nil {
			return fail(err.Error(), "sessions", "redis_url")
		}
	default:
		return fail(fmt.Sprintf("%q is not memory or redis", s.Store), "sessions", "store")
	}
	if s.MaxStateBytes <= 0 {
		s.MaxStateBytes = 64 << 20
	}
	return nil
}
