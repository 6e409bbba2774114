package builtins

import "sync"

// Group runs a command's helper goroutines. A panic in one of them would
// end the whole process (the dispatcher recovers only the command's own
// goroutine), so Group catches it and Wait raises it again in the caller,
// where it becomes the command's error result like any other panic.
type Group struct {
	wg       sync.WaitGroup
	mu       sync.Mutex
	panicked any
}

// Go runs f in a new goroutine.
func (g *Group) Go(f func()) {
	g.wg.Go(func() {
		defer func() {
			if p := recover(); p != nil {
				g.mu.Lock()
				if g.panicked == nil {
					g.panicked = p
				}
				g.mu.Unlock()
			}
		}()
		f()
	})
}

// Wait waits for every goroutine, then re-raises the first panic.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.panicked != nil {
		panic(g.panicked)
	}
}
