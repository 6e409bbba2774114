# bashbox: common tasks. `make test` is what CI runs (.ci/run).
GO ?= go

.PHONY: build vet lint test test-short conformance bench loadtest soak fuzz run-example image pgo

# The CLI as shipped: static (CGO_ENABLED=0: no dynamic loader, no libc
# start-up; os/user, net and landlock's psx have pure-Go paths), without
# paths or symbol tables. A fresh `bashbox run` costs 1.5-3.5 ms less CPU so.
BUILDFLAGS = -trimpath -ldflags "-s -w"
#
# Three programs, installed in one directory:
# - bin/bashbox, the launcher (launcher/bashbox.c, a static C program):
#   for `bashbox run` it hands the run to a resident `bashbox daemon` when
#   the operator started one (see docs/daemon.md), which makes a run cost
#   less than `bash -c true`; everything else, and every run no daemon
#   takes, it replaces itself with (execve) bashbox-lean.
# - bin/bashbox-lean (built with the bashbox_front tag): a lean Go front
#   that links only the engine and the commands that are cheap to start,
#   runs the `bashbox run` scripts it can prove need nothing else, and
#   replaces itself with bashbox-full for everything else.
# - bin/bashbox-full, the whole CLI (and the daemon).
# Without a C compiler, bin/bashbox is a copy of bashbox-lean.
# `go install ./cmd/bashbox` still gives one full binary.
# The launcher is linked statically against musl where musl-gcc exists
# (Debian's musl-tools; .ci/run installs it): a static glibc program spends
# about 0.3 ms initialising itself, half the launcher's whole run, and a
# musl one next to nothing (a `bashbox run -c true` through the daemon:
# 0.6 ms against 1.1 ms). Else static glibc, else dynamic (macOS).
CC ?= cc
MUSL_CC ?= musl-gcc
LAUNCHER_CFLAGS = -O2 -Wall -Wextra
build:
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o bin/bashbox-full ./cmd/bashbox
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -tags bashbox_front -o bin/bashbox-lean ./cmd/bashbox
	$(MUSL_CC) $(LAUNCHER_CFLAGS) -static -o bin/bashbox launcher/bashbox.c 2>/dev/null || \
	$(CC) $(LAUNCHER_CFLAGS) -static -o bin/bashbox launcher/bashbox.c 2>/dev/null || \
	$(CC) $(LAUNCHER_CFLAGS) -o bin/bashbox launcher/bashbox.c || \
	cp bin/bashbox-lean bin/bashbox

# Profile-guided optimisation: `go build` applies cmd/bashbox/default.pgo, a
# CPU profile of the bench ops, to both binaries (-pgo=auto; go build
# -pgo=off builds without). `make pgo` regenerates it (a few minutes; the
# bench corpora are made once in the temp dir). Refresh it after a large
# change to the engine or to a command the bench runs (awk, jq, grep, sed,
# find, sort, xargs, git), and on a Go upgrade: a stale profile still builds
# and is never wrong, it only helps less. Each op runs in-process alone,
# repeated so that each adds about 2 s of CPU (the geometric mean weighs ops
# alike, so the profile does too; a slow op must not crowd out the others),
# over both corpora (the ops on bench-data, the same in both, only once);
# the host shell is `true`, so only bashbox's runs cost. The profiling
# binary is built with -pgo=off: the profile does not depend on the last one.
PGO_RUNS = gosrc:git_clone:1 gosrc:count_all_files:67 gosrc:count_go_files:64 \
	gosrc:count_funcs:10 gosrc:count_funcs_xargs:9 gosrc:total_loc:9 \
	gosrc:grep_literal:10 gosrc:grep_regex:10 gosrc:large_files:30 \
	gosrc:dir_depth:62 gosrc:sed_rewrite:300 gosrc:cleanup:91 \
	gosrc:jq_filter:2 gosrc:awk_groupby:11 gosrc:sort_uniq:22 \
	gosrc:loop_heavy:13 gosrc:many_small_cmds:42 \
	small-deep-huge:count_all_files:3 small-deep-huge:count_go_files:3 \
	small-deep-huge:count_funcs:2 small-deep-huge:count_funcs_xargs:1 \
	small-deep-huge:total_loc:1 small-deep-huge:grep_literal:1 \
	small-deep-huge:grep_regex:1 small-deep-huge:large_files:2 \
	small-deep-huge:dir_depth:3 small-deep-huge:sed_rewrite:1 \
	small-deep-huge:cleanup:2
PGO_TMP = $(or $(TMPDIR),/tmp)/bashbox-pgo
pgo:
	rm -rf $(PGO_TMP) && mkdir -p $(PGO_TMP)
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -pgo=off -o $(PGO_TMP)/bashbox ./cmd/bashbox
	set -e; for r in $(PGO_RUNS); do \
		shape=$${r%%:*} op=$${r#*:}; reps=$${op#*:} op=$${op%:*}; \
		echo "pgo: $$op on $$shape, $$reps repetitions"; \
		$(PGO_TMP)/bashbox bench --corpus-shape $$shape --ops $$op --reps $$reps --host-shell true \
			--memory-op none --out $(PGO_TMP)/out --cpuprofile $(PGO_TMP)/$$shape-$$op.pprof >/dev/null 2>&1; \
	done
	$(GO) tool pprof -proto $(PGO_TMP)/*.pprof > $(PGO_TMP)/merged.pgo
	mv $(PGO_TMP)/merged.pgo cmd/bashbox/default.pgo
	rm -rf $(PGO_TMP)

# go vet, also of the host sandbox's macOS and Windows backends
# (sandbox-exec, AppContainer) and the fallback runner, which CI can only
# compile.
vet:
	$(GO) vet ./...
	$(GO) vet -tags bashbox_front ./cmd/bashbox ./coreutils
	GOOS=darwin $(GO) vet ./hostsandbox/... ./fallback/... ./internal/daemon
	GOOS=windows $(GO) vet ./hostsandbox/... ./fallback/... ./internal/daemon

# Unit, integration and security tests with the race detector, then the
# differential conformance suite against real bash and GNU tools.
# -pgo=off: cmd/bashbox's default.pgo would make its race-enabled test
# binary compile every package it links a second time (minutes on a cold
# cache); the binaries its tests build with go build still use it.
test: vet
	$(GO) test -pgo=off -race -count=1 -timeout 20m ./...
	$(GO) run ./conformance/cmd/conformance -expect conformance/EXPECTED_FAILURES

# The quick pass: -short skips the slow differential and end-to-end tests.
test-short:
	$(GO) test -short -count=1 ./...

# go vet and staticcheck (pinned; installed into bin/ from the module proxy),
# for Linux and for the macOS and Windows builds of hostsandbox, whose
# backends are build-tagged per OS. staticcheck.conf holds the checks.
STATICCHECK_VERSION = v0.8.2
STATICCHECK = bin/staticcheck-$(STATICCHECK_VERSION)
lint: vet $(STATICCHECK)
	$(STATICCHECK) ./...
	GOOS=darwin $(STATICCHECK) ./hostsandbox/...
	GOOS=windows $(STATICCHECK) ./hostsandbox/...

# Built for this machine (not for GOOS): the analysis is what GOOS selects.
$(STATICCHECK):
	mkdir -p bin
	GOOS= GOARCH= GOBIN=$(CURDIR)/bin/.staticcheck $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/.staticcheck/staticcheck $@

# Per-command pass rates of the differential suite.
conformance:
	$(GO) run ./conformance/cmd/conformance

# Through the shipped build: the start-up op times that binary.
bench: build
	bin/bashbox bench --quick

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

# 60 s of normal and hostile clients against the HTTP server (BASHBOX_SOAK_SECONDS
# to change); fails on a failed normal run, p99 over twice the quiet baseline,
# RSS over the server's limit, or goroutines/descriptors/CPU not back at rest.
soak:
	BASHBOX_SOAK_SECONDS=$${BASHBOX_SOAK_SECONDS:-60} $(GO) test -count=1 -run '^TestSoak$$' -v -timeout 10m ./serve

fuzz:
	$(GO) test -run=^$$ -fuzz=FuzzScript -fuzztime=60s ./interp
	$(GO) test -run=^$$ -fuzz=FuzzOverlay -fuzztime=60s ./overlayfs

# The README's first example: count Go files of this repository, read-only.
run-example:
	$(GO) run ./cmd/bashbox run -v .:/work -c 'find . -name "*.go" | wc -l'
