#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer fuzzers (tests/fuzz) with clang 14 + ASan + UBSan (the "fuzz" preset,
# build/fuzz) and runs each for a bounded time over its seed corpus. Fails on any finding; the
# crashing input is left in build/fuzz-work/<fuzzer>/ (copy it to tests/fuzz/regressions/<fuzzer>/
# so fuzz_regression_test replays it).
#   scripts/run_fuzzers.sh                      90 s per fuzzer
#   FUZZ_SECONDS=1800 scripts/run_fuzzers.sh    longer runs
#   FUZZERS=compile_fuzzer scripts/run_fuzzers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-90}
fuzzers=${FUZZERS:-"compile_fuzzer execute_fuzzer"}

# clang 14 and its sanitizer/libFuzzer runtime (Debian 12 packages).
missing=()
for p in clang-14 libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "run_fuzzers.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
bash scripts/deps.sh

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for fuzzer in $fuzzers; do
  work="build/fuzz-work/${fuzzer}"
  mkdir -p "${work}/corpus"
  echo "=== ${fuzzer}: ${seconds} s"
  # New corpus entries go to build/fuzz-work (git-ignored); the seed corpus is only read.
  if ! "build/fuzz/tests/fuzz/${fuzzer}" -max_total_time="${seconds}" -rss_limit_mb=4096 \
      -timeout=60 -print_final_stats=1 -artifact_prefix="${work}/" \
      "${work}/corpus" "tests/fuzz/corpus/${fuzzer}" >"${work}/log.txt" 2>&1; then
    tail -n 80 "${work}/log.txt"
    echo "=== ${fuzzer}: FINDING (log and input in ${work}/)"
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^Done" "${work}/log.txt" || true
done
echo "=== fuzzers passed: ${fuzzers}"
