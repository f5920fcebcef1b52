# The two commands of the README: `make run` and `make test`. Both install what is missing.
SWIFT ?= swift
# A hung test must fail fast rather than eat the CI budget.
TEST_TIMEOUT ?= 1500

# `make install`: crates, its man page and shell completions under PREFIX (scripts/install.sh).
PREFIX ?= $(HOME)/.local
# The binary to install; empty: the release build, made first.
CRATES_BIN ?=
# swift-argument-parser's man page generator; empty: built from the package's dependency.
GENERATE_MANUAL ?=

.PHONY: run test check deps build release bench clean install uninstall manual-tool

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	@$$($(SWIFT) build --show-bin-path)/crates $(ARGS)

# At most this many tests run at once (Swift Testing starts them all otherwise). Every test's
# tasks share a cooperative pool of one thread per core, first come first served: with some
# 1,300 tests in flight on two loaded cores a task waited minutes for a thread (the pool-wait
# probe, printed after the run); with 32, seconds.
TEST_WIDTH ?= 32
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH = $(TEST_WIDTH)

# One build: the debug one, with the tests. The process tests run its `crates`, and the
# memory tests measure it under `prlimit` with their full input (a million lines; a tenth
# elsewhere): their bounds hold for it as for the release binary. A release build beside it
# cost as much CPU as the whole test phase (about 470 of some 1,550 CPU seconds): on a
# 2-core machine, that is CI's time.
#
# Its debug build carries no debug information (TEST_BUILD_FLAGS): nobody steps through CI's
# build, and the DWARF is time spent compiling and linking. The plugin's build takes the same
# flags, or it would build everything again.
TEST_BUILD_FLAGS ?= -debug-info-format none
test: deps
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)
	$(MAKE) --no-print-directory manual-tool MANUAL_BUILD_FLAGS="$(TEST_BUILD_FLAGS)"
	LANG=C.UTF-8 TERM=tmux-256color CRATES_FULL_MEMORY_TEST=1 \
		scripts/run-tests.sh timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build

# The in-process targets only (every one but CratesCLITests): the quick loop while
# working. `make test` is the whole suite, and what CI runs. The same build flags as
# `make test`, so that one after the other builds nothing again.
check: deps
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)
	LANG=C.UTF-8 TERM=tmux-256color \
		scripts/run-tests.sh timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build --skip CratesCLITests

# Every release build carries Swift's runtime and Foundation in the binary
# (--static-swift-stdlib): resolving their symbols across a dozen shared libraries at every
# start cost more than a whole `crates check` (bench-check.sh). Benchmarks build the same way.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

bench: deps
	@scripts/bench.sh

# swift-argument-parser's man page generator: its `generate-manual` plugin, run once on the
# debug build, leaves the tool (generate-manual-tool) beside the debug build's binaries.
MANUAL_BUILD_FLAGS ?=
manual-tool:
	$(SWIFT) package $(MANUAL_BUILD_FLAGS) generate-manual --configuration debug

# With CRATES_BIN and GENERATE_MANUAL given, nothing is built (the tests install the build
# they run).
install:
	@bin="$(CRATES_BIN)"; \
	if [ -z "$$bin" ]; then scripts/install-deps.sh && $(SWIFT) build -c release --static-swift-stdlib --product crates && \
		bin="$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/crates"; fi; \
	tool="$(GENERATE_MANUAL)"; \
	if [ -z "$$tool" ]; then $(MAKE) --no-print-directory manual-tool && tool="$$($(SWIFT) build --show-bin-path)/generate-manual-tool"; fi; \
	scripts/install.sh install "$(PREFIX)" "$$bin" "$$tool"

uninstall:
	@scripts/install.sh uninstall "$(PREFIX)"

clean:
	rm -rf .build
