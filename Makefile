# Wrasse. `make run` starts the app, `make test` runs every test.
GO ?= go
BIN := bin

.PHONY: run build test vet bench bench-short deps fuzz clean

deps:
	@./.ci/deps.sh

build: deps
	$(GO) build -o $(BIN)/wrasse ./cmd/wrasse
	$(GO) build -o $(BIN)/wrasse-bench ./cmd/wrasse-bench

run: build
	./$(BIN)/wrasse

vet:
	$(GO) vet ./...

# Every test with the race detector, then the benchmarks once in short mode
# so they keep working (benchmarks are measured, never asserted on time).
test: deps vet
	$(GO) test -race -count=1 ./...
	$(GO) run ./cmd/wrasse-bench --short --quiet

bench: deps
	$(GO) run ./cmd/wrasse-bench

# A short session of each fuzz target (the seed corpora also run in `make test`).
fuzz:
	$(GO) test ./cerebellum/skillmd -run '^$$' -fuzz FuzzParse -fuzztime 30s
	$(GO) test ./cerebellum/stage -run '^$$' -fuzz FuzzStageZip -fuzztime 30s

clean:
	rm -rf $(BIN)
