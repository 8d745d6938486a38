# boxtax: one static binary (CGO_ENABLED=0) that runs natively and, copied
# into a FROM scratch image, inside containers.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
GO      ?= go
BIN     := bin/boxtax
# staticcheck, pinned; go run fetches it through the module proxy once and
# leaves go.mod alone.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
# vet and staticcheck check the build boxtax ships (pure Go, -trimpath),
# and with its flags they find the packages build and build-all compiled
# in Go's cache instead of compiling all of them again: GOARCH=arm64 vet of
# internal/report took 94 s with its own flags and 24 s with these after an
# arm64 build here.
VET := CGO_ENABLED=0 $(GO) vet -trimpath

.PHONY: build build-all run test lint clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/boxtax

# Cross builds for the devices the seed studies used (Raspberry Pi B+ is ARMv6, Pi 2 ARMv7).
build-all:
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/boxtax-linux-amd64 ./cmd/boxtax
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/boxtax-linux-arm64 ./cmd/boxtax
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=7 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/boxtax-linux-armv7 ./cmd/boxtax
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=6 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/boxtax-linux-armv6 ./cmd/boxtax
	CGO_ENABLED=0 GOOS=linux GOARCH=386 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/boxtax-linux-386 ./cmd/boxtax

# The default study (quick) on this machine, stored in ./boxtax.db.
run: build
	./$(BIN) run

# Unit and integration tests; integration tests use the real Docker engine.
# One package at a time (-p 1): the end-to-end tests measure real throughput
# and latency, which packages testing in parallel on a small machine distort.
# -race needs cgo, so a C compiler (Debian: gcc): without one, as on a
# machine with only Go and Docker, the tests run without the race detector.
RACE ?= $(shell command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)
# The test binaries are compiled first, as many at once as there are CPUs
# (-exec /bin/true runs none of them): with -p 1 go test compiles one
# package at a time too. 167 s instead of 209 s for cli, study and env
# from an empty cache at load 6-8 on this 2-CPU machine; the run after it
# finds them compiled (3 s). A compile error shows in the run itself.
# -timeout 60m: internal/cli takes about 10 minutes on a quiet 2-CPU
# machine, and took 32 (timed out at 30) at load average 10-12 with four
# other builds and test runs beside it: a deadline is for a hung test, not
# a busy machine.
test:
	$(VET) ./...
	-$(GO) test $(RACE) -count=1 -exec /bin/true ./... >/dev/null 2>&1
	$(GO) test $(RACE) -count=1 -p 1 -timeout 60m $(TESTFLAGS) ./...

# go vet and staticcheck (every check of its default set); a deliberate
# exception is a //lint:ignore line with its reason at the place itself.
# The 32-bit vet compiles the tests too, where int has 32 bits (a constant
# that overflows it builds on amd64 only).
lint:
	$(VET) ./...
	GOARCH=arm GOARM=7 $(VET) ./...
	CGO_ENABLED=0 GOFLAGS=-trimpath $(GO) run $(STATICCHECK) ./...

clean:
	rm -rf bin dist
