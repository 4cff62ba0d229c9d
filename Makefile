# Front door. README's two commands:
#   make serve   install what is missing, build the wasm core and the page, serve on :8000
#   make test    install what is missing, build natively, run every test with ctest
# Other targets: make deps | wasm | web | native | bench | screenshots | clean
#   make bench   native (Google Benchmark) and WebAssembly (Node) benchmarks against peers;
#                tables on stdout, results in build/bench/, docs/benchmarks.md updated
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help deps apt-deps npm-deps wasm web native serve test bench bench-deps screenshots clean

APT_PACKAGES := cmake g++ make emscripten libxsimd-dev catch2 chromium fonts-nanum
# Only `make bench` needs these (the native benchmark and its peers).
BENCH_APT_PACKAGES := libbenchmark-dev libeigen3-dev libopenblas-dev
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
JOBS ?= $(shell nproc)
PORT ?= 8000
HOST ?= 127.0.0.1
# Debian's emscripten optimiser needs node modules (acorn) from here.
export NODE_PATH := /usr/share/nodejs
export DEBIAN_FRONTEND := noninteractive

help:
	@echo "make serve   build and serve the page on http://localhost:$(PORT)"
	@echo "make test    build natively and run every test (ctest)"

# apt: install only what is missing (a fresh machine's package lists are empty,
# so update them first). Node.js >= 18 is expected; Debian's is installed if absent.
apt-deps:
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

# ctest's "web.build" fixture runs `make web` before the node and browser tests.
test: deps native
	ctest --preset native-release -j $(JOBS)

bench-deps: apt-deps
	@missing=""; \
	for p in $(BENCH_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

build/native-bench/CMakeCache.txt: | bench-deps
	cmake --preset native-bench

# One thread everywhere: OpenBLAS is told so in the binary and here.
bench: deps web bench-deps build/native-bench/CMakeCache.txt
	cmake --build --preset native-bench -j $(JOBS)
	mkdir -p build/bench
	em++ -O3 -msimd128 -msse4.2 -std=c++17 -Ibuild/wasm-release/xsimd-include tests/bench/wasm_peak.cpp \
	  -sMODULARIZE=1 -sEXPORT_ES6=1 -sSINGLE_FILE=1 -sENVIRONMENT=web \
	  -sEXPORTED_FUNCTIONS=_peak_steps,_peak_flops_per_step -o build/bench/wasm-peak.mjs
	cat /proc/loadavg > build/bench/loadavg-start.txt
	OPENBLAS_NUM_THREADS=1 build/native-bench/tests/bench/attn_bench \
	  --benchmark_out=build/bench/native.json --benchmark_out_format=json
	node tests/bench/wasm_bench.mjs --out build/bench/wasm.json
	cat /proc/loadavg > build/bench/loadavg-end.txt
	node tests/bench/report.mjs

screenshots: web
	cd web && SEGMENTS=1 node scripts/screenshot.mjs ../build/screenshots

clean:
	rm -rf build web/dist
