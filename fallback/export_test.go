package fallback

// WithoutArgumentPolicy switches the argument and repository policy off,
// leaving the OS sandbox alone, so tests can prove it holds by itself. It
// exists only in test builds.
func WithoutArgumentPolicy(r *Runner) { r.noPolicy = true }
