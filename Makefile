# Front door. README's two commands:
#   make serve   install what is missing, build the wasm core and the page, serve on :8000
#   make test    install what is missing, build natively, run every test with ctest
# Other targets: make deps | wasm | web | native | debug | fuzz | bench | bench-page | bench-pool | screenshots | bench-training | clean
#   make bench   native (Google Benchmark) and WebAssembly (Node) benchmarks against peers;
#                tables on stdout, results in build/bench/, docs/benchmarks.md updated
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help deps apt-deps npm-deps wasm web native debug serve test test-stage test-chapter fuzz bench bench-deps bench-page bench-pool screenshots clean bench-training pretrained-deps pretrained-fixtures check-pretrained-fixtures bench-model-native bench-model test-stress

APT_PACKAGES := cmake ninja-build g++ make emscripten libxsimd-dev catch2 chromium fonts-nanum clang-14 libclang-rt-14-dev zstd nlohmann-json3-dev
# Only `make bench` needs these (the native benchmark and its peers).
BENCH_APT_PACKAGES := libbenchmark-dev libeigen3-dev libopenblas-dev
# Only `make pretrained-fixtures` needs these: the PyTorch reference of the real-model tests
# (tools/pretrained/reference.py; docs/real-models.md). `make test` compares against the
# committed fixtures it wrote and does not install them (~175 MB to download, 770 MB installed).
PRETRAINED_APT_PACKAGES := python3-torch
# Only `make train-text-model` needs these: the text model's corpus (docs/text-model.md).
TEXT_APT_PACKAGES := debian-faq debian-faq-ko gimp-help-ko fortunes
# Root installs directly; anyone else through sudo (which must then exist).
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
JOBS ?= $(shell nproc)
PORT ?= 8000
FUZZ_SECONDS ?= 600
HOST ?= 127.0.0.1
# Debian's emscripten optimiser needs node modules (acorn) from here.
export NODE_PATH := /usr/share/nodejs
export DEBIAN_FRONTEND := noninteractive

help:
	@echo "make serve   build and serve the page on http://localhost:$(PORT)"
	@echo "make test    build natively and run every test (ctest), then the core again under ASan+UBSan with fixed-seed fuzz runs; both always run"
	@echo "make test-stress   the browser (e2e) tests while a busy loop keeps one core busy (races a quiet machine hides)"
	@echo "make test-stage STAGE=softmax   one stage of the core (tests/core/test_softmax.cpp), after rebuilding its program"
	@echo "make test-chapter ID=softmax    one chapter's browser test, after rebuilding what changed of the page"
	@echo "make fuzz    run each libFuzzer target for FUZZ_SECONDS (default $(FUZZ_SECONDS)) seconds"
	@echo "make train-text-model   build the text corpus from Debian packages and train the text model (~10 min on 2 busy cores)"
	@echo "make bench   native and WebAssembly benchmarks against Eigen, OpenBLAS, onnxruntime-node, plain JS, TF.js, onnxruntime-web; the small calls (see docs/benchmarks.md)"
	@echo "make bench-page   the page in headless Chromium: edit to paint, boot, language switch, bytes (see docs/benchmarks.md)"
	@echo "make pretrained-fixtures   regenerate the real-model tests' tiny checkpoints and PyTorch results (installs python3-torch)"
	@echo "make check-pretrained-fixtures   check that a fresh PyTorch run writes the committed fixtures byte for byte"
	@echo "make bench-model   the real-models chapter in headless Chromium on a GPT-2-small-shaped random checkpoint (see docs/real-models.md)"
	@echo "make bench-pool   the cost chapter's live run with 1 and 2 workers in headless Chromium: the pool's speed-up (see docs/benchmarks.md)"

# apt: install only what is missing (a fresh machine's package lists are empty,
# so update them first). Node.js >= 20 is needed (checked below); Debian's nodejs is
# installed if there is none, which is new enough from Debian 13 on.
apt-deps:
	@if [ -n "$(SUDO)" ] && ! command -v sudo >/dev/null; then \
	  echo "error: not root and no sudo: run 'make deps' as root once, or install sudo" >&2; exit 1; \
	fi
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
	@node -e 'const v = +process.versions.node.split(".")[0]; if (v < 20) { console.error("error: Node.js " + process.version + " is too old; 20 or newer is needed (the wasm tests use its relaxed SIMD; Debian 12 ships 18, Debian 13 ships 20)"); process.exit(1); }'

npm-deps: web/node_modules/.installed
web/node_modules/.installed: web/package.json web/package-lock.json | apt-deps
	cd web && npm ci --no-audit --no-fund
	touch $@

deps: apt-deps npm-deps

build/wasm-release/CMakeCache.txt: | apt-deps
	cmake --preset wasm-release

wasm: build/wasm-release/CMakeCache.txt
	cmake --build --preset wasm-release -j $(JOBS)

web: wasm npm-deps
	cd web && node scripts/build.mjs

serve: deps web
	cd web && node scripts/serve.mjs --port $(PORT) --host $(HOST)

build/native-release/CMakeCache.txt: | apt-deps
	cmake --preset native-release

native: build/native-release/CMakeCache.txt
	cmake --build --preset native-release -j $(JOBS)

# The sanitizer build (clang-14, ASan + UBSan) of the core, its Catch2 suite and the
# libFuzzer targets (tests/fuzz).
build/native-debug/CMakeCache.txt: | apt-deps
	cmake --preset native-debug

debug: build/native-debug/CMakeCache.txt
	cmake --build --preset native-debug -j $(JOBS)

# ctest's "web.build" fixture runs `make web` before the node and browser tests. Then the
# whole Catch2 suite again under the sanitizers, and a few seconds of each fuzz target.
# Both presets always run (a failure in the first does not hide the second); one summary
# line per preset at the end; the exit status is non-zero if either failed.
test: deps native debug
	@rel=0; dbg=0; \
	ctest --preset native-release -j $(JOBS) || rel=$$?; \
	ctest --preset native-debug -j $(JOBS) || dbg=$$?; \
	echo "== make test: native-release $$( [ $$rel -eq 0 ] && echo passed || echo "FAILED (ctest exit $$rel)" )"; \
	echo "== make test: native-debug   $$( [ $$dbg -eq 0 ] && echo passed || echo "FAILED (ctest exit $$dbg)" )"; \
	[ $$rel -eq 0 ] && [ $$dbg -eq 0 ]

# The browser (e2e) tests while a process started here keeps one core busy, to shake out
# races that a quiet machine hides. The busy loop is stopped on every exit path: the traps
# kill it on exit, Ctrl-C (INT), TERM and HUP, and it ends by itself within a tenth of a
# second once the shell that started it is gone (even if that shell was killed with -9).
test-stress: deps native
	@busy=; stop() { [ -n "$$busy" ] && kill $$busy 2>/dev/null; wait $$busy 2>/dev/null; busy=; }; \
	trap stop EXIT; trap 'stop; exit 130' INT; trap 'stop; exit 143' TERM; trap 'stop; exit 129' HUP; \
	sh -c 'p=$$1; while kill -0 $$p 2>/dev/null; do i=0; while [ $$i -lt 100000 ]; do i=$$((i+1)); done; done' busy $$$$ & busy=$$!; \
	echo "== make test-stress: busy loop pid $$busy"; \
	st=0; ctest --preset native-release -j $(JOBS) -L '^e2e$$' || st=$$?; \
	echo "== make test-stress: e2e tests $$( [ $$st -eq 0 ] && echo passed || echo "FAILED (ctest exit $$st)" )"; \
	exit $$st

# One stage of the core: its Catch2 cases (tests/core/test_$(STAGE).cpp, label core.$(STAGE)),
# after rebuilding the test program. Nothing else is built or run.
test-stage: build/native-release/CMakeCache.txt
	@test -n "$(STAGE)" || { echo "usage: make test-stage STAGE=<stage> (one of: $$(ls tests/core | sed -n 's/^test_\(.*\)\.cpp$$/\1/p' | tr _ - | tr '\n' ' '))" >&2; exit 2; }
	cmake --build --preset native-release -j $(JOBS) --target attn_tests
	ctest --preset native-release -j $(JOBS) -L '^core\.$(STAGE)$$' --no-tests=error

# One chapter's browser test (web/src/chapters/$(ID)/$(ID).test.mjs, ctest e2e.$(ID)). ctest's
# web.build fixture runs `make web` first, which rebuilds only what changed (nothing at all when
# no input did; web/scripts/build.mjs).
test-chapter: build/native-release/CMakeCache.txt npm-deps
	@test -n "$(ID)" -a -f "web/src/chapters/$(ID)/$(ID).test.mjs" || { echo "usage: make test-chapter ID=<chapter> (one of: $$(cd web/src/chapters && ls */*.test.mjs | sed 's,/.*,,' | tr '\n' ' '))" >&2; exit 2; }
	ctest --preset native-release -R '^e2e\.$(ID)$$' --no-tests=error

# Long fuzz runs (one target after the other). New inputs accumulate in
# build/native-debug/fuzz-corpus/; crashes land in build/native-debug/fuzz-artifacts/
# (copy them to tests/fuzz/regressions/<name>/ and add a Catch2 case).
fuzz: debug
	@set -e; for f in build/native-debug/tests/fuzz/fuzz_*; do \
	  n=$${f##*/fuzz_}; log=build/native-debug/fuzz-$$n.log; mkdir -p build/native-debug/fuzz-corpus/$$n; \
	  echo "== $$n: $(FUZZ_SECONDS) s (log: $$log)"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -max_len=1024 -len_control=0 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=build/native-debug/fuzz-artifacts/$$n- \
	    build/native-debug/fuzz-corpus/$$n tests/fuzz/corpus/$$n > $$log 2>&1 || { tail -40 $$log; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' $$log; \
	done

# The training chapter in headless Chromium: time to 99% held-out accuracy, update rate,
# main-thread frame gaps (reports; see docs/training.md).
bench-training: web
	node tests/bench/training.mjs --json build/bench/training.json

# The page in headless Chromium (edit → next paint per chapter, boot, language switch,
# bytes): a table on stdout, the "Page" section of docs/benchmarks.md rewritten, every
# sample in build/bench/page.json; "before" is the run recorded in tests/bench/page-baseline.json.
bench-page: web
	node tests/bench/page.mjs --docs --json build/bench/page.json --baseline tests/bench/page-baseline.json

# The worker pool (web/src/workers/pool.js) in headless Chromium: the cost chapter's live
# run (8 heads, n up to 4096) with 1 and 2 workers, alternating, REPEATS pairs; the
# "Worker pool" section of docs/benchmarks.md rewritten, every sample in build/bench/pool.json.
REPEATS ?= 5
bench-pool: web
	node tests/bench/pool.mjs --repeats $(REPEATS) --json build/bench/pool.json

# Installs those of the packages $(1) that are missing (the lists updated first), for the
# targets that need more than APT_PACKAGES.
define install_missing
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
endef

bench-deps: apt-deps
	$(call install_missing,$(BENCH_APT_PACKAGES))

text-deps: apt-deps
	$(call install_missing,$(TEXT_APT_PACKAGES))

pretrained-deps: apt-deps
	$(call install_missing,$(PRETRAINED_APT_PACKAGES))

# The tiny GPT-2 and BERT checkpoints and what the PyTorch reference computes on them
# (tests/core/data/pretrained/, read by tests/core/test_pretrained.cpp). Debian's python3, not
# another one on the PATH: that is where python3-torch is installed.
pretrained-fixtures: pretrained-deps
	/usr/bin/python3 tools/pretrained/reference.py
# A fresh run must write the committed fixtures byte for byte.
check-pretrained-fixtures: pretrained-deps
	/usr/bin/python3 tools/pretrained/reference.py --check

# The text model (docs/text-model.md): the corpus from the Debian packages above and the
# page's prose, then training natively on 2 threads (deterministic under --seed 1). Rewrites
# models/text-model/{model.bin,results.json,eval.txt}; build/text-model/corpus/manifest.json
# is copied beside them. The page's prose is read from the git revision the committed
# manifest names (so the committed weights come out again, bit for bit); PAGE_REV=HEAD
# trains on the page as committed now, PAGE_REV=worktree on the files as they are on disk.
PAGE_REV ?=
train-text-model: text-deps npm-deps build/native-release/CMakeCache.txt
	cmake --build --preset native-release -j $(JOBS) --target attn_train_text
	node tools/text-model/corpus.mjs --out build/text-model/corpus --eval models/text-model/eval.txt \
	  $(if $(PAGE_REV),--page-rev $(PAGE_REV))
	build/native-release/tools/text-model/attn_train_text --corpus build/text-model/corpus \
	  --eval models/text-model/eval.txt --out models/text-model
	cp build/text-model/corpus/manifest.json models/text-model/manifest.json

build/native-bench/CMakeCache.txt: | bench-deps
	cmake --preset native-bench

# One thread everywhere: OpenBLAS is told so in the binary and here.
bench: deps web bench-deps build/native-bench/CMakeCache.txt
	cmake --build --preset native-bench -j $(JOBS)
	mkdir -p build/bench
	em++ -O3 -msimd128 -msse4.2 -std=c++17 -Ibuild/wasm-release/xsimd-include tests/bench/wasm_peak.cpp \
	  -sMODULARIZE=1 -sEXPORT_ES6=1 -sSINGLE_FILE=1 -sENVIRONMENT=web \
	  -sEXPORTED_FUNCTIONS=_peak_steps,_peak_flops_per_step -o build/bench/wasm-peak.mjs
	em++ -O3 -msimd128 -msse4.2 -mrelaxed-simd -std=c++17 -Ibuild/wasm-release/xsimd-include tests/bench/wasm_peak.cpp \
	  -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web \
	  -sEXPORTED_FUNCTIONS=_peak_steps,_peak_madd_steps,_peak_flops_per_step -o build/bench/wasm-peak-relaxed.mjs
	node tools/wasm-relaxed-madd.mjs build/bench/wasm-peak-relaxed.wasm
	cat /proc/loadavg > build/bench/loadavg-start.txt
	OPENBLAS_NUM_THREADS=1 build/native-bench/tests/bench/attn_bench \
	  --benchmark_out=build/bench/native.json --benchmark_out_format=json
	node tests/bench/ort_native.mjs --out build/bench/ort-native.json
	node --experimental-wasm-relaxed-simd tests/bench/wasm_bench.mjs --out build/bench/wasm.json
	cat /proc/loadavg > build/bench/loadavg-end.txt
	node tests/bench/report.mjs

# The real-model core natively (docs/real-models.md, "Speed"): a GPT-2-small-shaped checkpoint
# with random weights written under build/bench/ (deleted afterwards), loaded, every head of a
# 16-token sentence, head roles, ablation. DTYPE=F16 or BF16 for a half-size file.
DTYPE ?= F32
# Then the same in WebAssembly under Node (the page's SIMD128 core, the checkpoint in memory).
bench-model-native: build/native-release/CMakeCache.txt build/wasm-release/CMakeCache.txt
	cmake --build --preset native-release -j $(JOBS) --target attn_bench_model
	mkdir -p build/bench
	build/native-release/tools/pretrained/attn_bench_model --dtype $(DTYPE) --repeats $(REPEATS) --json build/bench/model-native-$(DTYPE).json
	cmake --build --preset wasm-release --target attn_bench_model_wasm -j $(JOBS)
	node build/wasm-release/tools/pretrained/attn_bench_model_wasm.js --dtype $(DTYPE) --repeats $(REPEATS) --json build/bench/model-wasm-$(DTYPE).json

# The real-models chapter in headless Chromium (docs/real-models.md, docs/benchmarks.md): a
# GPT-2-small-shaped random checkpoint (548 MB, written under build/bench/ and deleted
# afterwards) opened from a file: load, 144 heads of 16 tokens, roles, page-thread tasks, memory.
bench-model: web
	node tools/pretrained/bench_page.mjs --json build/bench/model-page.json

screenshots: web
	cd web && SEGMENTS=1 node scripts/screenshot.mjs ../build/screenshots

clean:
	rm -rf build web/dist
