# The two set-up commands of README.md are `make demo` and `make test`; each installs what is
# missing first. `.ci/run` calls `make test`.
SHELL := /bin/bash
SWIFT ?= swift

.PHONY: deps build test test-unit test-tsan lint demo bench clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# Everything CI checks: a warning-free build, the whole suite, the suite again under the thread
# sanitizer (its own build folder), and a clean `swift format lint`.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) format lint --strict -r Sources Tests
	@echo "make test: all checks passed"

demo: deps
	$(SWIFT) build -c release --product flow
	@echo "The demo workflow (workflows/demo.yaml) arrives with the demo issue;"
	@echo "until then this builds flow and shows what it is:"
	.build/release/flow --help

bench: deps
	bench/run-all

clean:
	rm -rf .build .build-tsan .build-release
