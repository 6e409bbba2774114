# bashbox: common tasks. `make test` is what CI runs (.ci/run).
GO ?= go

.PHONY: build test test-short lint conformance bench loadtest fuzz run-example

build:
	$(GO) build -o bin/bashbox ./cmd/bashbox

# Unit, integration and security tests with the race detector, then the
# differential conformance suite against real bash and GNU tools.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) run ./conformance/cmd/conformance -min-rate $$(cat conformance/MIN_RATE)

# The quick pass: -short skips the slow differential and end-to-end tests.
test-short:
	$(GO) test -short -count=1 ./...

# go vet and staticcheck (pinned; installed into bin/ from the module proxy),
# for Linux and for the macOS and Windows builds of hostsandbox, whose
# backends are build-tagged per OS. staticcheck.conf holds the checks.
STATICCHECK_VERSION = v0.8.2
STATICCHECK = bin/staticcheck-$(STATICCHECK_VERSION)
lint: $(STATICCHECK)
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./hostsandbox/...
	GOOS=windows $(GO) vet ./hostsandbox/...
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

bench:
	$(GO) run ./cmd/bashbox bench --quick

# 200 concurrent HTTP runs for 60 s on loopback (BASHBOX_LOAD_SECONDS to change).
loadtest:
	BASHBOX_LOADTEST=1 $(GO) test -count=1 -run '^TestLoad$$' -v -timeout 10m ./serve

fuzz:
	$(GO) test -run=^$$ -fuzz=FuzzScript -fuzztime=60s ./interp
	$(GO) test -run=^$$ -fuzz=FuzzOverlay -fuzztime=60s ./overlayfs

# The README's first example: count Go files of this repository, read-only.
run-example:
	$(GO) run ./cmd/bashbox run -v .:/work -c 'find . -name "*.go" | wc -l'
