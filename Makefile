# bashbox: common tasks. `make test` is what CI runs (.ci/run).
GO ?= go

.PHONY: build test test-short conformance bench loadtest fuzz run-example image

build:
	$(GO) build -o bin/bashbox ./cmd/bashbox

# Unit, integration and security tests with the race detector, then the
# differential conformance suite against real bash and GNU tools.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) run ./conformance/cmd/conformance -min-rate $$(cat conformance/MIN_RATE)

test-short:
	$(GO) test -count=1 ./...

# Per-command pass rates of the differential suite.
conformance:
	$(GO) run ./conformance/cmd/conformance

bench:
	$(GO) run ./cmd/bashbox bench --quick

# 200 concurrent HTTP runs for 60 s on loopback (BASHBOX_LOAD_SECONDS to
# change), then N serve replicas (BASHBOX_LOAD_REPLICAS, default 3) sharing
# sessions through redis-server behind a round-robin proxy
# (BASHBOX_LOAD_CLIENTS sessions, default 64), then the session state
# save/load cost by size.
loadtest:
	BASHBOX_LOADTEST=1 $(GO) test -count=1 -run '^(TestLoad|TestLoadReplicas)$$' -v -timeout 20m ./serve
	$(GO) test -run '^$$' -bench '^BenchmarkSessionState$$' -benchtime 20x .

# The container image (Dockerfile): static binary, distroless, non-root.
IMAGE ?= bashbox:dev
image:
	docker build -t $(IMAGE) .

fuzz:
	$(GO) test -run=^$$ -fuzz=FuzzScript -fuzztime=60s ./interp
	$(GO) test -run=^$$ -fuzz=FuzzOverlay -fuzztime=60s ./overlayfs

# The README's first example: count Go files of this repository, read-only.
run-example:
	$(GO) run ./cmd/bashbox run -v .:/work -c 'find . -name "*.go" | wc -l'
