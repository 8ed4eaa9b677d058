# Wrasse. `make run` starts the app, `make test` runs every test,
# `make smoke` runs the window under Xvfb, `make package` builds the
# installable app.
GO ?= go
BIN := bin

.PHONY: run build test vet lint bench bench-short bench-window screenshots deps smoke smoke-deps package fuzz clean

deps:
	@./.ci/deps.sh

build: deps
	@echo "Building Wrasse (the first build compiles the GUI toolkit and takes a few minutes)…"
	$(GO) build -o $(BIN)/wrasse ./cmd/wrasse
	$(GO) build -o $(BIN)/wrasse-bench ./cmd/wrasse-bench

run: build
	./$(BIN)/wrasse

vet:
	$(GO) vet ./...

# staticcheck (honnef.co/go/tools, pinned as a tool in go.mod) with no
# findings. Deliberate exceptions carry a //lint:ignore with the reason;
# yaegi's generated symbol tables skip SA1019 (plugins/hostsyms/std).
lint:
	$(GO) tool staticcheck ./...

# Every test with the race detector, then the benchmarks once in short mode
# so they keep working (benchmarks are measured, never asserted on time).
# -timeout: the slowest package, plugins/sandbox (thousands of sandboxed
# commands, each started through the launcher and its git watcher), takes
# about 28 minutes under -race on two cores; the default 10 is far too near.
test: deps vet lint
	$(GO) test -race -count=1 -timeout 60m ./...
	$(GO) run ./cmd/wrasse-bench --short --quiet

# The real binary under Xvfb against a fake model server: xdotool types a
# message into the window, the reply is checked and a screenshot saved
# (bin/smoke.png). Its packages are installed by smoke-deps, not by `make run`.
smoke-deps:
	@./.ci/smoke-deps.sh

smoke: deps smoke-deps
	@echo "Building Wrasse for the smoke test…"
	$(GO) build -o $(BIN)/wrasse ./cmd/wrasse
	xvfb-run -a -s "-screen 0 1280x800x24" $(GO) test -tags smoke -count=1 -v ./ui/smoke/ \
		-args -wrasse=$(CURDIR)/$(BIN)/wrasse -screenshot=$(CURDIR)/$(BIN)/smoke.png

# The README's screenshots of the real window (docs/screenshots/).
screenshots: deps smoke-deps
	$(GO) build -o $(BIN)/wrasse ./cmd/wrasse
	SHOTS=$(CURDIR)/docs/screenshots CAPS_X=573 WEB_X=845 TABS_Y=101 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
		$(GO) test -tags "smoke screenshots" -run TestScreenshots -count=1 ./ui/smoke/ -args -wrasse=$(CURDIR)/$(BIN)/wrasse
	rm -f docs/screenshots/settings-model.png

# The window's figures (launch, memory, opening, frame times) under Xvfb.
bench-window: deps smoke-deps
	$(GO) build -o $(BIN)/wrasse ./cmd/wrasse
	xvfb-run -a -s "-screen 0 1280x800x24" $(GO) run ./cmd/wrasse-bench --only window --wrasse $(CURDIR)/$(BIN)/wrasse

# The installable app (bin/Wrasse.tar.xz on Linux) built by the fyne tool.
package: deps
	@./.ci/package.sh

bench: deps
	$(GO) run ./cmd/wrasse-bench

# A short session of each fuzz target (the seed corpora also run in `make test`).
fuzz:
	$(GO) test ./cerebellum/skillmd -run '^$$' -fuzz FuzzParse -fuzztime 30s
	$(GO) test ./cerebellum/stage -run '^$$' -fuzz FuzzStageZip -fuzztime 30s
	$(GO) test ./brain/attach -run '^$$' -fuzz FuzzParse -fuzztime 30s

clean:
	rm -rf $(BIN)
