# Two commands on a fresh clone: `make demo` and `make test` (README). Both install what they need.
NODE_BIN := node_modules/.bin
STAMP := node_modules/.agjson-installed

.PHONY: install build gen check typecheck demo test bench toolchains clean fuzz

install: $(STAMP)
$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: install
	npm run build --silent

gen: build
	node bin/agjson.js gen

# Format, lint, import cycles, gen --check and types (docs/architecture.md "Checks").
check: build
	npm run --silent check

typecheck: install
	$(NODE_BIN)/tsc -p tsconfig.json --noEmit

# python3-jsonschema/dateutil and Go run the other-language round-trip tests (docs/codegen.md).
toolchains:
	@sh scripts/ensure-toolchains.sh

# The main job on built-in sample data: a provider stream normalized to AgEvents (§8), validated
# as a producer would (strict), folded as a consumer would (reduce, §5).
demo: build
	@mkdir -p .tmp
	node bin/agjson.js normalize --from anthropic samples/anthropic-weather.chunks.txt > .tmp/demo-events.ndjson
	node bin/agjson.js validate --posture strict .tmp/demo-events.ndjson
	node bin/agjson.js reduce --pretty .tmp/demo-events.ndjson
	node bin/agjson.js validate --posture strict samples/chat-with-tool.ndjson
	node bin/agjson.js reduce samples/chat-with-tool.ndjson
	@echo "--- the same conversation out through the front-end bridges (docs/bridges/) ---"
	node bin/agjson.js convert --to ag-ui .tmp/demo-events.ndjson
	node bin/agjson.js convert --to ui-message-stream .tmp/demo-events.ndjson
	@echo "--- and to an editor over ACP: the ACP SDK's own client drives agjson acp --replay ---"
	node scripts/demo-acp.mjs .tmp/demo-events.ndjson
	@echo "--- and back into the next provider request (docs/reinput.md) ---"
	node bin/agjson.js reduce .tmp/demo-events.ndjson > .tmp/demo-reduced.json
	node bin/agjson.js reinput --to anthropic --on-invalid repair .tmp/demo-reduced.json

test: build toolchains
	npm run --silent check
	$(NODE_BIN)/vitest run

bench: build
	node bench/run.mjs

clean:
	rm -rf dist .build node_modules

# Fuzz targets (test/fuzz/*.fuzz.test.ts) with a million inputs each; `make test` runs them short (AGJSON_FUZZ_RUNS).
# No per-test timeout there: a million inputs take far longer than the 60 s a test gets in `make test`.
# The whole campaign is many CPU-hours (docs/reliability.md gives each target's cost): `make fuzz
# FUZZ_RUNS=100000` runs a shorter one, `make fuzz FUZZ_TARGETS="cli-validate cli-reduce"` some targets.
FUZZ_RUNS ?= 1000000
FUZZ_TARGETS ?=
.PHONY: fuzz
fuzz: build
	AGJSON_FUZZ_RUNS=$(FUZZ_RUNS) $(NODE_BIN)/vitest run $(if $(strip $(FUZZ_TARGETS)),$(foreach t,$(FUZZ_TARGETS),test/fuzz/$(t).fuzz.test.ts),test/fuzz) --testTimeout=0 --hookTimeout=0 --reporter=verbose

# Framework recordings (docs/record.md): record/ has its own lockfile and is never installed by `make test`.
.PHONY: record record-check
record:
	cd record && npm ci --no-audit --no-fund --loglevel=error
	node record/record.mjs
record-check:
	cd record && npm ci --no-audit --no-fund --loglevel=error
	node record/record.mjs --check
