package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/config"
)

// errStore is a session store failure: the session is neither lost nor
// changed, and the call can be retried (503 with Retry-After).
var errStore = errors.New("session store unavailable")

func storeError(op string, err error) error {
	return fmt.Errorf("%w (%s): %v; retry later", errStore, op, err)
}

type redisClient = redis.Client

// openStore connects to the session store named by the config.
func (s *Server) openStore() error {
	sc := s.cfg.Sessions
	if sc.Store != config.StoreRedis {
		return nil
	}
	opts, err := redis.ParseURL(sc.RedisURL)
	if err != nil {
		return fmt.Errorf("sessions.redis_url: %v", err)
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 2*time.Second, 5*time.Second, 5*time.Second
	opts.MaxRetries = 1
	// A run holds a connection for one operation at a time: one per slot
	// keeps runs from queueing for the pool.
	opts.PoolSize = max(opts.PoolSize, s.cfg.Server.MaxConcurrent+8)
	s.redis = redis.NewClient(opts)
	return nil
}

func (s *Server) newSessionStore(name string, box *bashbox.Box, pc *config.Profile) sessionStore {
	if s.redis == nil {
		return newSessionTable(box, pc.Sessions.Max, s.cfg.Server.SessionIdleTimeout)
	}
	// A lock outlives the longest call plus its save, so that only a
	// replica that died holding it lets it expire.
	lockTTL := 2*box.Limits().Timeout + 30*time.Second
	return &redisSessions{rdb: s.redis, box: box, prefix: "bashbox:" + name + ":", max: pc.Sessions.Max,
		idle: s.cfg.Server.SessionIdleTimeout, lockTTL: lockTTL, maxBytes: int64(s.cfg.Sessions.MaxStateBytes),
		m: s.metrics, cache: map[string]*cachedSession{}}
}

// storeReady is false while the session store does not answer.
func (s *Server) storeReady(ctx context.Context) error {
	if s.redis == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return s.redis.Ping(ctx).Err()
}

// redisSessions keeps a profile's sessions in Redis, so that any replica
// continues any session. A session is a hash (its saved state, a version
// and what the API lists) that expires after the idle timeout, and a lock
// key held by the replica running a call on it. The lock is a random
// token with an expiry; the save that ends a call writes only while the
// token is still the lock's (a fence against a replica that lost its lock
// to expiry), in one script, so a state is replaced whole or not at all.
type redisSessions struct {
	rdb      *redis.Client
	box      *bashbox.Box
	prefix   string
	max      int
	idle     time.Duration
	lockTTL  time.Duration
	maxBytes int64
	m        *metrics

	mu    sync.Mutex
	cache map[string]*cachedSession // sessions this replica ran last, by id
}

// cachedSession skips a load when this replica saved the latest version.
type cachedSession struct {
	version int64
	s       *bashbox.Session
}

func (r *redisSessions) key(id string) string  { return r.prefix + "s:" + id }
func (r *redisSessions) lock(id string) string { return r.prefix + "lock:" + id }
func (r *redisSessions) index() string         { return r.prefix + "index" }

// op times one store operation for the metrics and turns its failure
// into errStore.
func (r *redisSessions) op(name string, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	err := f(ctx)
	r.m.storeSeconds.WithLabelValues(name).Observe(time.Since(start).Seconds())
	var known *inputError
	if err != nil && !errors.As(err, &known) && !errors.Is(err, errStore) {
		r.m.storeErrors.WithLabelValues(name).Inc()
		return storeError(name, err)
	}
	return err
}

func (r *redisSessions) ready(ctx context.Context) error { return r.rdb.Ping(ctx).Err() }

// live lists the index's sessions that still exist, dropping expired ones.
func (r *redisSessions) live(ctx context.Context) ([]string, error) {
	ids, err := r.rdb.ZRange(ctx, r.index(), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	pipe := r.rdb.Pipeline()
	exists := make([]*redis.IntCmd, len(ids))
	for i, id := range ids {
		exists[i] = pipe.Exists(ctx, r.key(id))
	}
	if _, err := pipe.Exec(ctx); err != nil && len(ids) > 0 {
		return nil, err
	}
	var out, gone []string
	for i, id := range ids {
		if exists[i].Val() == 1 {
			out = append(out, id)
		} else {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		r.rdb.ZRem(ctx, r.index(), toAny(gone)...)
	}
	return out, nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// create saves a new, empty session; held, it is returned locked.
func (r *redisSessions) create(held bool) (*sessionEntry, error) {
	if r.max <= 0 {
		return nil, errNoSessions
	}
	sess, err := r.box.NewSession()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	e := &sessionEntry{id: newID(16), s: sess, created: now, lastUsed: now, busy: held, fresh: held}
	var buf bytes.Buffer
	if err := sess.SaveState(context.Background(), &buf, r.maxBytes); err != nil {
		sess.Close()
		return nil, err
	}
	token := newID(16)
	err = r.op("create", func(ctx context.Context) error {
		ids, err := r.live(ctx)
		if err != nil {
			return err
		}
		if len(ids) >= r.max {
			return errTooManySessions(r.max)
		}
		pipe := r.rdb.TxPipeline()
		pipe.HSet(ctx, r.key(e.id), "state", buf.Bytes(), "version", 1, "created", now.UnixMilli(), "last_used", now.UnixMilli(),
			"size", sess.Size(), "workdir", sess.Workdir())
		pipe.PExpire(ctx, r.key(e.id), r.idle)
		pipe.ZAdd(ctx, r.index(), redis.Z{Score: float64(now.UnixMilli()), Member: e.id})
		if held {
			pipe.Set(ctx, r.lock(e.id), token, r.lockTTL)
		}
		_, err = pipe.Exec(ctx)
		return err
	})
	if err != nil {
		sess.Close()
		return nil, err
	}
	if !held {
		r.remember(e.id, 1, sess)
		return e, nil
	}
	e.token, e.version = token, 1
	return e, nil
}

// remember keeps a session this replica just saved at version v.
func (r *redisSessions) remember(id string, v int64, s *bashbox.Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.cache[id]; old != nil && old.s != s {
		old.s.Close()
	}
	// A replica keeps the sessions it ran last only as a shortcut; past a
	// bound it drops the others (Redis holds them).
	for other, c := range r.cache {
		if len(r.cache) < 2*max(r.max, 1) {
			break
		}
		if other != id {
			c.s.Close()
			delete(r.cache, other)
		}
	}
	r.cache[id] = &cachedSession{version: v, s: s}
}

// drop discards this replica's copy of a session whose save failed: the
// next call loads the stored state.
func (r *redisSessions) drop(e *sessionEntry) {
	r.mu.Lock()
	if c := r.cache[e.id]; c != nil {
		delete(r.cache, e.id)
		if c.s != e.s {
			c.s.Close()
		}
	}
	r.mu.Unlock()
	e.s.Close()
}

func (r *redisSessions) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.cache[id]; c != nil {
		c.s.Close()
		delete(r.cache, id)
	}
}

// acquire locks the session in Redis and loads its latest state (or uses
// this replica's copy when it is the latest); done saves it and unlocks.
func (r *redisSessions) acquire(id string) (*sessionEntry, func() error, error) {
	if id == "new" {
		e, err := r.create(true)
		if err != nil {
			return nil, nil, err
		}
		return e, func() error { return r.save(e) }, nil
	}
	if r.max <= 0 {
		return nil, nil, errUnknownSession
	}
	e := &sessionEntry{id: id, busy: true, token: newID(16)}
	var state []byte
	err := r.op("load", func(ctx context.Context) error {
		ok, err := r.rdb.SetNX(ctx, r.lock(id), e.token, r.lockTTL).Result()
		if err != nil {
			return err
		}
		vals, err := r.rdb.HMGet(ctx, r.key(id), "version", "created").Result()
		if err != nil {
			if ok {
				r.rdb.Del(ctx, r.lock(id))
			}
			return err
		}
		if vals[0] == nil {
			if ok {
				r.rdb.Del(ctx, r.lock(id))
			}
			return errUnknownSession
		}
		if !ok {
			return errSessionBusy
		}
		e.version, _ = strconv.ParseInt(vals[0].(string), 10, 64)
		ms, _ := strconv.ParseInt(vals[1].(string), 10, 64)
		e.created = time.UnixMilli(ms)
		r.mu.Lock()
		c := r.cache[id]
		r.mu.Unlock()
		if c != nil && c.version == e.version {
			e.s = c.s
			return nil
		}
		state, err = r.rdb.HGet(ctx, r.key(id), "state").Bytes()
		if err != nil {
			r.rdb.Del(ctx, r.lock(id))
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if e.s == nil {
		start := time.Now()
		s, err := r.box.RestoreSession(context.Background(), bytes.NewReader(state))
		r.m.storeSeconds.WithLabelValues("restore").Observe(time.Since(start).Seconds())
		if err != nil {
			r.unlock(e)
			return nil, nil, fmt.Errorf("session %s: %w", id, err)
		}
		e.s = s
	}
	return e, func() error { return r.save(e) }, nil
}

// saveScript replaces a session's state while the caller holds its lock,
// then unlocks it: KEYS lock, session, index; ARGV token, state, size,
// workdir, now (ms), idle (ms), id. It returns the new version, or -1
// when the lock is no longer the caller's.
var saveScript = sync.OnceValue(func() *redis.Script {
	return redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local v = redis.call('HINCRBY', KEYS[2], 'version', 1)
redis.call('HSET', KEYS[2], 'state', ARGV[2], 'size', ARGV[3], 'workdir', ARGV[4], 'last_used', ARGV[5])
if redis.call('HEXISTS', KEYS[2], 'created') == 0 then redis.call('HSET', KEYS[2], 'created', ARGV[5]) end
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('ZADD', KEYS[3], 'NX', ARGV[5], ARGV[7])
redis.call('DEL', KEYS[1])
return v`)
})

// unlockScript deletes the lock only while it is the caller's. Both are
// made on first use: NewScript hashes its text, at every start otherwise.
var unlockScript = sync.OnceValue(func() *redis.Script {
	return redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)
})

func (r *redisSessions) unlock(e *sessionEntry) {
	r.op("unlock", func(ctx context.Context) error {
		return unlockScript().Run(ctx, r.rdb, []string{r.lock(e.id)}, e.token).Err()
	})
}

// save writes the session's state after a call and unlocks it. On
// failure the stored state is the one before the call.
func (r *redisSessions) save(e *sessionEntry) error {
	var buf bytes.Buffer
	start := time.Now()
	err := e.s.SaveState(context.Background(), &buf, r.maxBytes)
	r.m.storeSeconds.WithLabelValues("snapshot").Observe(time.Since(start).Seconds())
	if err != nil {
		r.unlock(e)
		r.drop(e)
		if errors.Is(err, bashbox.ErrStateTooLarge) {
			return &inputError{Status: http.StatusRequestEntityTooLarge, Field: "session",
				Msg: fmt.Sprintf("the call ran, but the session's state outgrew sessions.max_state_bytes (%d bytes) and was not saved; the session keeps its state from before the call", r.maxBytes)}
		}
		return fmt.Errorf("the call ran, but its session state was not saved: %w", err)
	}
	r.m.stateBytes.Observe(float64(buf.Len()))
	var v int64
	err = r.op("save", func(ctx context.Context) error {
		now := time.Now().UnixMilli()
		var err error
		v, err = saveScript().Run(ctx, r.rdb, []string{r.lock(e.id), r.key(e.id), r.index()},
			e.token, buf.Bytes(), e.s.Size(), e.s.Workdir(), now, r.idle.Milliseconds(), e.id).Int64()
		return err
	})
	if err != nil {
		r.drop(e)
		return fmt.Errorf("the call ran, but its session state was not saved (the session keeps its state from before the call): %w", err)
	}
	if v < 0 {
		r.drop(e)
		return &inputError{Status: http.StatusConflict, Field: "session",
			Msg: "the call ran past its session lock's expiry and another call took the session; this call's changes were not saved"}
	}
	r.remember(e.id, v, e.s)
	return nil
}

func (r *redisSessions) remove(id string, force bool) error {
	err := r.op("delete", func(ctx context.Context) error {
		if !force {
			if n, err := r.rdb.Exists(ctx, r.lock(id)).Result(); err != nil {
				return err
			} else if n > 0 {
				return errSessionBusy
			}
		}
		n, err := r.rdb.Del(ctx, r.key(id)).Result()
		if err != nil {
			return err
		}
		r.rdb.ZRem(ctx, r.index(), id)
		if force {
			r.rdb.Del(ctx, r.lock(id))
		}
		if n == 0 {
			return errUnknownSession
		}
		return nil
	})
	r.forget(id)
	return err
}

func (r *redisSessions) info(id string) (SessionInfo, error) {
	var out SessionInfo
	err := r.op("info", func(ctx context.Context) error {
		infos, err := r.infos(ctx, []string{id})
		if err != nil {
			return err
		}
		if len(infos) == 0 {
			return errUnknownSession
		}
		out = infos[0]
		return nil
	})
	return out, err
}

func (r *redisSessions) list() ([]SessionInfo, error) {
	var out []SessionInfo
	err := r.op("list", func(ctx context.Context) error {
		ids, err := r.live(ctx)
		if err != nil {
			return err
		}
		out, err = r.infos(ctx, ids)
		return err
	})
	if out == nil {
		out = []SessionInfo{}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, err
}

func (r *redisSessions) infos(ctx context.Context, ids []string) ([]SessionInfo, error) {
	pipe := r.rdb.Pipeline()
	fields := make([]*redis.SliceCmd, len(ids))
	locks := make([]*redis.IntCmd, len(ids))
	for i, id := range ids {
		fields[i] = pipe.HMGet(ctx, r.key(id), "created", "last_used", "size", "workdir")
		locks[i] = pipe.Exists(ctx, r.lock(id))
	}
	if len(ids) > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, err
		}
	}
	var out []SessionInfo
	for i, id := range ids {
		v := fields[i].Val()
		if len(v) < 4 || v[0] == nil {
			continue
		}
		num := func(x any) int64 { s, _ := x.(string); n, _ := strconv.ParseInt(s, 10, 64); return n }
		wd, _ := v[3].(string)
		busy := locks[i].Val() > 0
		if busy {
			wd = ""
		}
		out = append(out, SessionInfo{ID: id, Created: time.UnixMilli(num(v[0])).UTC(), LastUsed: time.UnixMilli(num(v[1])).UTC(),
			Size: num(v[2]), Workdir: wd, Busy: busy})
	}
	return out, nil
}

func (r *redisSessions) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, c := range r.cache {
		c.s.Close()
		delete(r.cache, id)
	}
}
