# The two set-up commands of README.md are `make demo` and `make test`; each installs what is
# missing first. `.ci/run` calls `make test`.
SHELL := /bin/bash
SWIFT ?= swift

.PHONY: deps build test test-unit test-tsan lint demo bench clean docs

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# Everything CI checks: a warning-free build, the whole suite, the suite again under the thread
# sanitizer (its own build folder), and a clean `swift format lint`.
# Tests run one at a time (--no-parallel, about 15 s in all): several measure process-wide things —
# memory growth during a 50 MB upload, a port that was just freed — that parallel tests disturb.
# .tsan-suppressions says why swift-subprocess's own locks are exempt.
# Under the thread sanitizer run the suites whose code has threads: the futures, the HTTP client,
# the engine, the sandbox, the journal's writer thread and FlowKit's run and event buffer in-process,
# and the end-to-end suites that exercise the CLI's own threads (signals, process groups, services, output pacing, the journal's
# write-ahead on resume) in an instrumented `flow`. The other
# end-to-end suites drive the same engine code the in-process suites cover, and the DSL is
# single-threaded but for the two-core check of large files (TwoCoreCheckTests); running them
# twice kept `make test` over its 15-minute budget.
TSAN_SUITES := FlowTasksTests|FlowHTTPTests|FlowEngineTests|FlowSandboxTests|FlowJournalTests|FlowKitTests|FlowDSLTests\.TwoCoreCheckTests|EndToEndTests\.(ProcessLifetimeTests|RunCommandTests|ServiceRunTests|SecretMaskingTests|ResumeRunTests)
test: deps
	@date +'make test: %T peers'
	scripts/install-deps.sh chromium nginx
	scripts/tus-peer --install
	scripts/gcs-peer --install
	scripts/hurl-peer --install
	scripts/s3-peer --install
	scripts/schema-check --install
	scripts/argo-check --install
	@date +'make test: %T build'
	$(SWIFT) build --build-tests
	@date +'make test: %T plain suite (instrumented build beside it)'
	@# The instrumented build is CPU work and the plain suite mostly waits on sockets and processes,
	@# so the two overlap: this saves the suite's minutes of the 15-minute budget. Its log is
	@# printed when it fails. Line tables only: a race report still names file and line, and the
	@# build takes about 9% less (357 s against 391 s alone, clean, on the 2-core machine).
	@( $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -gline-tables-only \
		> .build-tsan.log 2>&1; echo $$? > .build-tsan.status ) & \
	$(SWIFT) test --skip-build --no-parallel 2>&1 | tee .build-test.log; plain=$${PIPESTATUS[0]}; wait; \
	if [ $$plain != 0 ]; then grep -B2 -A30 -m5 -E '✘|error:' .build-test.log | head -150; fi; \
	if [ "$$(cat .build-tsan.status)" != 0 ]; then cat .build-tsan.log; exit 1; fi; exit $$plain
	@date +'make test: %T suites under the thread sanitizer'
	@# A race report scrolls far above the log's end, so on failure its first lines are printed again
	@# last, where a CI log's tail shows them.
	TSAN_OPTIONS="suppressions=$(CURDIR)/.tsan-suppressions" \
		$(SWIFT) test --skip-build --sanitize=thread --no-parallel --scratch-path .build-tsan -Xswiftc -gline-tables-only \
		--filter '$(TSAN_SUITES)' 2>&1 | tee .build-tsan-test.log; status=$${PIPESTATUS[0]}; \
	if [ $$status != 0 ]; then grep -B2 -A60 -m3 -E 'WARNING: ThreadSanitizer|✘' .build-tsan-test.log \
		| head -150; fi; exit $$status
	@date +'make test: %T lint'
	$(SWIFT) format lint --strict -r Sources Tests bench Examples
	@date +'make test: %T all checks passed'

# FlowKit's documentation (Sources/FlowKit/FlowKit.docc and the `///` comments), as a static site
# in .build/docs/FlowKit; not part of `make test`. Open index.html through a web server
# (`python3 -m http.server -d .build/docs/FlowKit`), or `swift package preview-documentation --target FlowKit`.
docs: deps
	@# The plugin moves its archive into the output folder, whose parent must exist.
	mkdir -p .build/docs
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target FlowKit \
		--output-path .build/docs/FlowKit --transform-for-static-hosting --warnings-as-errors

# The demo: flow (release) runs workflows/demo.yaml, which starts `flow sandbox` itself. The
# sandbox's demo login is demo / s3cret; the password is passed as a secret, so output masks it.
demo: deps
	$(SWIFT) build -c release --product flow
	FLOW_SECRET_PASSWORD=s3cret .build/release/flow run workflows/demo.yaml

# Every row of BENCHMARKS.md (about 5 minutes on the 2-core machine); the tools the peers need
# are installed first when missing.
bench: deps
	scripts/install-deps.sh nginx time bc
	bench/run-all

clean:
	rm -rf .build .build-tsan .build-release
