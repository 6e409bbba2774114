package serve_test

import (
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRedisSessionsAcrossReplicas: three serve processes share one Redis;
// a session moves between them with its files and shell state.
func TestRedisSessionsAcrossReplicas(t *testing.T) {
	rs := startRedis(t)
	cfg := serveConfig("")
	a := startReplica(t, cfg, "--session-store", rs.url())
	b := startReplica(t, cfg, "--session-store", rs.url())
	c := startReplica(t, cfg, "--session-store", rs.url())

	first := a.run(t, "new", `cd /tmp; export GREETING=hi; n=1; arr=(x "y z"); printf 'data\n' > /tmp/f; mkdir -p /scratch/d; echo s > /scratch/d/s`)
	if first.Status != 200 || first.Session == "" {
		t.Fatalf("create through A: %+v", first)
	}
	id := first.Session
	check := `echo "$(pwd) $GREETING $n ${arr[1]} $(cat /tmp/f) $(cat /scratch/d/s)"`
	want := "/tmp hi 1 y z data s\n"
	if got := b.run(t, id, check+"; n=2; echo more >> /tmp/f"); got.Stdout != want {
		t.Fatalf("through B: %+v", got)
	}
	if got := c.run(t, id, `echo "$n $(wc -l < /tmp/f)"`); got.Stdout != "2 2\n" {
		t.Fatalf("through C: %+v", got)
	}

	// Another profile's token does not reach the session, on any replica.
	if got := c.runAs(t, otherToken, id, "echo $n"); got.Status != http.StatusNotFound {
		t.Fatalf("another profile's token: %d %s", got.Status, got.Body)
	}

	// A dies without a word: nothing a finished call wrote is lost.
	a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.done
	if got := b.run(t, id, `echo "$n $GREETING $(pwd)"`); got.Stdout != "2 hi /tmp\n" {
		t.Fatalf("after A stopped: %+v", got)
	}

	// Concurrent use of one session on two replicas: 409.
	long := make(chan runReply, 1)
	go func() { long <- b.run(t, id, "sleep 1.5; n=3") }()
	time.Sleep(400 * time.Millisecond)
	if got := c.run(t, id, "echo $n"); got.Status != http.StatusConflict {
		t.Fatalf("concurrent call through C: %d %s", got.Status, got.Body)
	}
	if got := <-long; got.Status != 200 {
		t.Fatalf("the long call: %+v", got)
	}
	if got := c.run(t, id, "echo $n"); got.Stdout != "3\n" {
		t.Fatalf("after the long call: %+v", got)
	}

	// The session list is the same through every replica.
	for _, r := range []*replica{b, c} {
		req, _ := http.NewRequest("GET", r.url+"/v1/sessions/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("session info through %s: %v %v", r.url, err, resp)
		}
		resp.Body.Close()
	}

	// Redis goes away: clear errors, and the session is not corrupted.
	rs.stop()
	got := b.run(t, id, "n=lost")
	if got.Status != http.StatusServiceUnavailable || !strings.Contains(got.Error, "session store") || got.Retry == "" {
		t.Fatalf("with Redis down: %d %q", got.Status, got.Body)
	}
	if code := c.get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz with Redis down: %d", code)
	}
	if code := c.get("/healthz"); code != 200 {
		t.Errorf("/healthz with Redis down: %d", code)
	}
	rs.start(t)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got = c.run(t, id, `echo "$n $(cat /tmp/f | tr '\n' ' ')"`)
		if got.Status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got.Stdout != "3 data more \n" {
		t.Fatalf("after Redis restarted: %+v", got)
	}
	if code := c.get("/readyz"); code != 200 {
		t.Errorf("/readyz after Redis came back: %d", code)
	}
}

// TestRedisSessionLimits: the state size bound and idle expiry hold in
// Redis too.
func TestRedisSessionLimits(t *testing.T) {
	rs := startRedis(t)
	cfg := strings.Replace(serveConfig("sessions:\n  max_state_bytes: 200KiB\n"), "drain_timeout: 20s", "drain_timeout: 20s\n  session_idle_timeout: 2s", 1)
	a := startReplica(t, cfg, "--session-store", rs.url())
	b := startReplica(t, cfg, "--session-store", rs.url())
	s := a.run(t, "new", "echo small > /tmp/s")
	if s.Status != 200 {
		t.Fatalf("%+v", s)
	}
	big := b.run(t, s.Session, "head -c 300000 /dev/zero > /tmp/big")
	if big.Status != http.StatusRequestEntityTooLarge || !strings.Contains(big.Error, "max_state_bytes") {
		t.Fatalf("over the state bound: %d %s", big.Status, big.Body)
	}
	if got := a.run(t, s.Session, "ls /tmp"); got.Stdout != "s\n" {
		t.Fatalf("the refused call's state was kept: %+v", got)
	}
	time.Sleep(3 * time.Second)
	if got := b.run(t, s.Session, "true"); got.Status != http.StatusNotFound {
		t.Fatalf("after the idle timeout: %d %s", got.Status, got.Body)
	}
}
