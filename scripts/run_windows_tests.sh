#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Windows build's test suite under wine (docs/windows.md#what-is-verified):
#   1. scripts/setup_wine.sh and scripts/setup_mingw_deps.sh (Highway, oneTBB, GoogleTest, Google
#      Benchmark for mingw, from Debian's source packages);
#   2. preset "mingw" (dmlcpu.dll, Highway + oneTBB): every test through ctest under wine (each
#      GoogleTest binary, the C ABI test, the examples, the installed-package consumer, the
#      binary checks), with the best SIMD target this CPU has; or, when WINDOWS_TESTS names test
#      programs (CI's budget), only those, built and run directly, the binary checks and the
#      MSVC-ABI link test (tests/msvc);
#   3. every GoogleTest binary and the C ABI test again with the SIMD target forced to each of
#      WINDOWS_TARGETS (default "AVX2 AVX3") through DMLCPU_HWY_TARGETS; a target this CPU lacks
#      is reported and not run (kernels_test covers every target the CPU has in step 2);
#   4. preset "mingw-portable" (scalar kernels, serial executor): its ctest under wine
#      (WINDOWS_PORTABLE_TESTS, a ctest -R regex, limits it; default: all), or only the test
#      programs WINDOWS_PORTABLE_TARGETS names, built and run directly (CI's budget).
# DMLCPU_TEST_CASES (random cases per operator) reaches the Windows programs through wine.
# Fails loudly when anything cannot be set up.   Usage: bash scripts/run_windows_tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${JOBS:-$(nproc)}"
targets="${WINDOWS_TARGETS:-AVX2 AVX3}"
start_time=$(date +%s)
die() { echo "run_windows_tests: FAILED: $*" >&2; exit 1; }
step() { echo "run_windows_tests: $* ($(( $(date +%s) - start_time )) s)"; }
# A program's summary line (GoogleTest's or the C tests'), not whatever wine printed last.
summary() { grep -E '^\[  PASSED  \]|^\[  FAILED  \]| passed, [0-9]+ failed' "$1" | tail -n 1 || true; }

bash scripts/setup_wine.sh >/dev/null || die "the wine environment could not be set up"
bash scripts/setup_mingw_deps.sh >/dev/null || die "the mingw dependencies could not be built"
# shellcheck disable=SC1091
source .cache/wine/env.sh
# One persistent wineserver for all the runs (each wine start otherwise starts one).
wineserver -p 2>/dev/null || true
trap 'wineserver -k 2>/dev/null || true' EXIT

bin=build/mingw/bin
step "preset mingw: configure and build"
cmake --preset mingw >/dev/null || die "mingw configure"
if [[ -n "${WINDOWS_TESTS:-}" ]]; then
  # windows_binaries inspects c_api_test.exe and kernels_test.exe besides dmlcpu.dll.
  cmake --build --preset mingw -j"$jobs" --target $WINDOWS_TESTS c_api_test kernels_test \
    >/dev/null || die "mingw build"
  for t in $WINDOWS_TESTS; do
    step "$t.exe under wine"
    (cd "$bin" && wine "./$t.exe" --gtest_brief=1 >"$t.log" 2>&1) ||
      { tail -n 40 "$bin/$t.log"; die "$t"; }
    summary "$bin/$t.log"
  done
  ctest --preset mingw -R '^(windows_binaries|msvc_abi_test)$' || die "windows_binaries, msvc_abi_test"
  gtests=$(for t in $WINDOWS_TESTS; do echo "./$t.exe"; done)
else
  cmake --build --preset mingw -j"$jobs" >/dev/null || die "mingw build"
  step "preset mingw: ctest under wine"
  ctest --preset mingw -j"$jobs" || die "mingw tests"
  gtests=$(cd "$bin" && ls ./*_test.exe | grep -v d3d12_backend_test)
fi

# The CPU's AVX-512 subset that Highway's AVX3 target needs.
has_flags() {
  local flag
  for flag in "$@"; do grep -qw "$flag" /proc/cpuinfo || return 1; done
}
for target in $targets; do
  case "$target" in
    AVX2) needs=(avx2 bmi2 fma) ;;
    AVX3) needs=(avx512f avx512vl avx512dq avx512bw) ;;
    *) needs=() ;;
  esac
  if ! has_flags "${needs[@]}"; then
    echo "run_windows_tests: target $target NOT RUN: this CPU lacks one of ${needs[*]}" \
         "(the binary check windows_binaries proves its code is compiled in and has no aligned" \
         "ymm/zmm move)"
    continue
  fi
  if [[ "$target" == AVX2 ]] && ! has_flags avx512f avx512vl avx512dq avx512bw; then
    echo "run_windows_tests: target AVX2 is this CPU's best: step 2 already ran every program on it"
    continue
  fi
  for exe in $gtests; do
    step "$exe with DMLCPU_HWY_TARGETS=$target"
    (cd "$bin" && DMLCPU_HWY_TARGETS="$target" wine "$exe" --gtest_brief=1 >"$exe.$target.log" 2>&1) ||
      { tail -n 40 "$bin/$exe.$target.log"; die "$exe with target $target"; }
    summary "$bin/$exe.$target.log"
  done
done

step "preset mingw-portable: configure, build and test under wine"
cmake --preset mingw-portable >/dev/null || die "mingw-portable configure"
if [[ -n "${WINDOWS_PORTABLE_TARGETS:-}" ]]; then
  # Only these test programs (CI's budget): built and run directly under wine.
  # shellcheck disable=SC2086
  cmake --build --preset mingw-portable -j"$jobs" --target $WINDOWS_PORTABLE_TARGETS >/dev/null ||
    die "mingw-portable build"
  for t in $WINDOWS_PORTABLE_TARGETS; do
    step "portable $t"
    (cd build/mingw-portable/bin && wine "./$t.exe" >"$t.log" 2>&1) ||
      { tail -n 40 "build/mingw-portable/bin/$t.log"; die "portable $t"; }
    summary "build/mingw-portable/bin/$t.log"
  done
else
  cmake --build --preset mingw-portable -j"$jobs" >/dev/null || die "mingw-portable build"
  if [[ -n "${WINDOWS_PORTABLE_TESTS:-}" ]]; then
    ctest --preset mingw-portable -j"$jobs" -R "$WINDOWS_PORTABLE_TESTS" || die "portable tests"
  else
    ctest --preset mingw-portable -j"$jobs" || die "portable tests"
  fi
fi
step "PASSED"
