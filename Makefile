# The two commands of the README: `make run` and `make test`. Both install what is missing.
SWIFT ?= swift
# A hung test must fail fast rather than eat the CI budget.
TEST_TIMEOUT ?= 1500

.PHONY: run test check deps build release bench clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	@$$($(SWIFT) build --show-bin-path)/crates $(ARGS)

# The memory tests measure the release binary, as a user runs it, with their full input
# (a million lines; a tenth elsewhere).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --product crates
	LANG=C.UTF-8 TERM=tmux-256color CRATES_FULL_MEMORY_TEST=1 \
		CRATES_RELEASE_BINARY="$$($(SWIFT) build -c release --show-bin-path)/crates" \
		scripts/run-tests.sh timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build

# The in-process targets only (Core, Store, Net, TUI, App, Labels): the quick loop while
# working. `make test` is the whole suite, and what CI runs.
check: deps
	$(SWIFT) build --build-tests
	LANG=C.UTF-8 TERM=tmux-256color \
		scripts/run-tests.sh timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build --skip CratesCLITests

release: deps
	$(SWIFT) build -c release

bench: deps
	@scripts/bench.sh

clean:
	rm -rf .build
