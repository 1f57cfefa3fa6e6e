#!/usr/bin/env bash
# Runs every test of unveil. Installs what it needs first (apt, pip).
#
#   bash scripts/test.sh            # everything CI runs
#   bash scripts/test.sh --no-fuzz  # skip the two fuzzing minutes
#   bash scripts/test.sh --no-models # skip the model sample (a 5.6 GB torch install)
#   bash scripts/test.sh --pgo       # the torch stage on the profile-guided build
#                                    # (what 'pip install .' makes; ~4 more minutes)
#
# Stages: opcode tables up to date; C++ GoogleTest (Release, with the portable
# byte scans; then ASan+UBSan, in the clang build that also makes the fuzzers);
# libFuzzer on read+decode and on the whole pipeline for FUZZ_SECONDS (60)
# each, both at once; pytest under every pyenv Python 3.8-3.13 (the syntax suite included);
# dis equivalence on EQUIV_LIMIT (500) files spread over each version's Lib/
# (0 = all of them, as `tools/crossversion.py equivalence` does); the
# decompiler's round trip of each version's top-level Lib/*.py; the torch
# layer under 3.11; the model corpus's fixed sample (15 models, issue 5).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ=1
MODELS=1
PGO=OFF
for arg in "$@"; do
  case "$arg" in
    --no-fuzz) FUZZ=0 ;;
    --no-models) MODELS=0 ;;
    --pgo) PGO=ON ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
EQUIV_LIMIT=${EQUIV_LIMIT:-500}
JOBS=${JOBS:-2}
PY=${PYTHON:-python3}

# Each stage's heading; the stage before it and the whole run so far are
# timed (CI is to stay under 30 minutes: these say where the time goes).
STEP_START=$SECONDS
step() {
  if [ -n "${STEP_NAME:-}" ]; then
    printf '(stage "%s": %d s; %d s in all)\n' "$STEP_NAME" $((SECONDS - STEP_START)) "$SECONDS"
  fi
  STEP_NAME="$*"
  STEP_START=$SECONDS
  printf '\n===== %s =====\n' "$*"
}

step "tools"
need_apt=()
command -v clang++ >/dev/null || need_apt+=(clang)
command -v ccache >/dev/null || need_apt+=(ccache)
[ -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] || \
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 || need_apt+=(libclang-rt-14-dev)
[ -e /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake ] || \
  ls /usr/lib/*/cmake/GTest/GTestConfig.cmake >/dev/null 2>&1 || need_apt+=(libgtest-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
fi
command -v cmake >/dev/null && command -v ninja >/dev/null || "$PY" -m pip install -q cmake ninja
"$PY" -m pip install -q pytest
# The core does not depend on the Python version: ccache shares its objects
# between the C++ builds and the six per-version wheel builds.
export CMAKE_CXX_COMPILER_LAUNCHER=ccache
export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache}
export CCACHE_BASEDIR=$PWD
# ccache keys an object by the compiler's name too: pip's CMake finds g++
# where a plain cmake finds c++, and then no Python build reused the Release
# stage's core objects (each built the core again, about 4 minutes of CPU).
export CXX=${CXX:-g++}

# The torch stages' packages (torch 2.13.0 for the torch layer; torch 2.14.1,
# torchvision, transformers and timm for the model sample: 8 GB of local
# wheels, about three minutes of unzipping) install in the background while
# the C++ stages compile. Each torch stage waits for its own.
TORCH_BASE=$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.11.*/bin/python | tail -n 1)
mkdir -p build
torch_deps() {
  [ -x .venvs/torch311/bin/python ] || "$TORCH_BASE" -m venv .venvs/torch311
  .venvs/torch311/bin/python -m pip install -q torch==2.13.0 pytest pytest-xdist debugpy
}
torch_deps > build/torch-deps.log 2>&1 &
TORCH_DEPS=$!
if [ "$MODELS" = 1 ]; then
  bash scripts/models.sh --deps-only > build/models-deps.log 2>&1 &
  MODELS_DEPS=$!
fi
# (If a stage fails, the installs still running are stopped.)
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
# waited PID LOG: a background install's log, and its failure if it failed.
waited() {
  local status=0
  wait "$1" || status=$?
  cat "$2"
  if [ "$status" != 0 ]; then echo "background install failed (exit $status): $2" >&2; exit 1; fi
}

step "opcode tables are what the interpreters say"
"$PY" tools/gen_opcode_tables.py --check

step "C++ tests (Release, with the portable byte scans of core/support/simd.h)"
# The SSE2 scans are the ones every Python build ships: the sanitizers and
# the fuzzers below take those, and this stage tests the portable ones.
cmake -S . -B build/cpp-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DUNVEIL_PORTABLE_SCANS=ON >/dev/null
cmake --build build/cpp-release -j"$JOBS"
ctest --test-dir build/cpp-release --output-on-failure -j"$JOBS"

step "C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang, the fuzzers' build)"
# One instrumented build serves both: the tests carry the fuzzers' coverage
# counters harmlessly, and the core is compiled once instead of twice.
# -O1 -g1: fuzzing at -O0 runs a fraction of the inputs; assertions stay on.
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DUNVEIL_FUZZ=ON -DUNVEIL_BUILD_CLI=OFF >/dev/null
cmake --build build/fuzz -j"$JOBS"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/fuzz --output-on-failure -j"$JOBS"

if [ "$FUZZ" = 1 ]; then
  step "fuzzing read + decode and the whole pipeline, ${FUZZ_SECONDS}s each, side by side"
  rm -rf build/fuzz-corpus && mkdir -p build/fuzz-corpus
  "$PY" tools/make_fuzz_seeds.py build/fuzz-corpus
  # Both targets read the same layout; each grows its own copy of the seeds,
  # on its own core, and prints its report when both are done.
  pids=()
  for target in read_decode_fuzzer decompile_fuzzer; do
    rm -rf "build/fuzz-corpus-$target" && cp -r build/fuzz-corpus "build/fuzz-corpus-$target"
    build/fuzz/fuzz/$target -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix=build/ "build/fuzz-corpus-$target" \
      > "build/fuzz-$target.log" 2>&1 &
    pids+=($!)
  done
  status=0
  for i in 0 1; do wait "${pids[$i]}" || status=1; done
  for target in read_decode_fuzzer decompile_fuzzer; do
    echo "--- $target"; tail -n 25 "build/fuzz-$target.log"
  done
  [ "$status" = 0 ] || { echo "a fuzzer failed: see its report above" >&2; exit 1; }
fi

step "Python tests under every pyenv Python 3.8-3.13"
# (Plain builds: the profile-guided one trains and builds twice, about four
# minutes each on this machine; CI is to stay under 30. --pgo tests it in the
# torch stage.) Here and below, JOBS versions run at a time: each version's
# tools and tests are one process, so one version alone left a core idle.
"$PY" tools/crossversion.py --jobs "$JOBS" --no-pgo pytest

step "dis equivalence on $EQUIV_LIMIT files spread over each Python's Lib/ (0: all)"
# (A sample: the whole Lib/ of six versions is 450k code objects and three
# minutes of CI's thirty; the decoder it checks has its own tests, and every
# later stage decodes too.)
"$PY" tools/crossversion.py --jobs "$JOBS" --no-install equivalence --limit "$EQUIV_LIMIT"

step "round trip of each Python's top-level Lib/*.py (floors: tools/roundtrip_floors.json)"
"$PY" tools/crossversion.py --jobs "$JOBS" --no-install run -- {python} tools/roundtrip.py --check-floors

step "differential fuzzing: random structured programs, decompiled, run against the original (each Python)"
"$PY" tools/crossversion.py --jobs "$JOBS" --no-install run -- {python} tools/fuzz_programs.py --programs 200
"$PY" tools/crossversion.py --jobs "$JOBS" --no-install run -- {python} tools/fuzz_programs.py --expressions --programs 100

step "the general fallback on everything: every function that fits written as a state machine (each Python)"
"$PY" tools/crossversion.py --jobs "$JOBS" --no-install run -- {python} tools/fuzz_programs.py --programs 100 --state-machine
"$PY" tools/crossversion.py --jobs "$JOBS" --no-install run -- {python} tools/syntax_suite.py --cli --state-machine

step "torch layer (Python 3.11, torch 2.13.0 CPU; UNVEIL_PGO=$PGO)"
waited "$TORCH_DEPS" build/torch-deps.log
# The plain build is the wheel the Python tests' stage built for 3.11
# (tools/crossversion.py keeps it in build/wheels): installed, not built
# again here and in the model stage.
WHEEL311=$(ls -t build/wheels/unveil-*-cp311-cp311-*.whl 2>/dev/null | head -n 1 || true)
if [ "$PGO" = OFF ] && [ -n "$WHEEL311" ]; then
  .venvs/torch311/bin/python -m pip install -q --force-reinstall --no-deps "$WHEEL311"
else
  .venvs/torch311/bin/python -m pip install -q --config-settings=cmake.define.UNVEIL_PGO="$PGO" .
fi
# (JOBS workers: each test compiles with torch on one core.)
.venvs/torch311/bin/python -m pytest -q -n "$JOBS" tests/python/torch

if [ "$MODELS" = 1 ]; then
  step "model corpus: the fixed sample of 15 models (torch 2.14.1, .venvs/models311)"
  # (A plain build, as in the stages above: the same wheel.)
  waited "$MODELS_DEPS" build/models-deps.log
  UNVEIL_WHEEL="$WHEEL311" UNVEIL_PGO=OFF bash scripts/models.sh --sample --jobs 2 --strict --out build/models-ci
  .venvs/models311/bin/python -m pytest -q tests/python/models
fi
step "done"
