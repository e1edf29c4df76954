#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The D3D12 path against real DirectML (under wine), cross-checked with the native CPU backend:
#   1. scripts/setup_wine.sh (wine, mingw, DirectML.dll, private Mesa 25 lavapipe, wine prefix);
#   2. the mingw cross build (preset "mingw": dmlcpu.dll with Highway and oneTBB, built by
#      scripts/setup_mingw_deps.sh) and the native comparer;
#   3. the worked examples of docs/semantics.md#worked-examples through Backend::kD3D12, and
#      kAuto falling back to the CPU when DirectML.dll is absent from the exe's directory, when
#      d3d12.dll and dxgi.dll cannot be loaded, or when there is no adapter;
#   4. CROSSCHECK_CASES (default 2400) seeded random cases through DirectML and through the
#      Windows build's CPU backend, both compared byte for byte with the native CPU backend.
# Fails loudly when anything cannot be set up; it never skips.
#   Usage: bash scripts/run_crosscheck.sh   (env: CROSSCHECK_SEED, CROSSCHECK_CASES)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
seed="${CROSSCHECK_SEED:-20261121}"
cases="${CROSSCHECK_CASES:-2400}"
jobs="${JOBS:-2}"
start_time=$(date +%s)

die() { echo "run_crosscheck: FAILED: $*" >&2; exit 1; }

bash scripts/setup_wine.sh || die "the wine environment could not be set up"
bash scripts/setup_mingw_deps.sh || die "Highway / oneTBB for mingw could not be built"
# shellcheck disable=SC1091
source .cache/wine/env.sh

echo "run_crosscheck: building for Windows (preset mingw)"
cmake --preset mingw >/dev/null || die "mingw configure"
cmake --build build/mingw -j"$jobs" --target crosscheck_runner d3d12_backend_test scatter_probe >/dev/null ||
  die "mingw build"
# The native comparer: reuse the release preset's tree when scripts/run_tests.sh built it.
native="build/release"
if grep -qs '^DMLCPU_BUILD_TESTS:BOOL=ON' "$native/CMakeCache.txt"; then
  cmake -S . -B "$native" >/dev/null || die "native configure"
else
  native="build/crosscheck-native"
  cmake -S . -B "$native" -DCMAKE_BUILD_TYPE=Release -DDMLCPU_BUILD_BENCHMARKS=OFF >/dev/null ||
    die "native configure"
fi
echo "run_crosscheck: building the native comparer ($native)"
cmake --build "$native" -j"$jobs" --target crosscheck_compare d3d12_backend_test >/dev/null ||
  die "native build"

run_dir="$root/build/mingw/crosscheck-run"
no_dml_dir="$root/build/mingw/no-directml-run"
rm -rf "$run_dir" "$no_dml_dir"
mkdir -p "$run_dir" "$no_dml_dir"
cp build/mingw/bin/crosscheck_runner.exe build/mingw/bin/d3d12_backend_test.exe \
  build/mingw/bin/dmlcpu.dll "$DMLCPU_DIRECTML_DLL" "$run_dir/"
cp build/mingw/bin/d3d12_backend_test.exe build/mingw/bin/dmlcpu.dll "$no_dml_dir/"

run_wine() {
  xvfb-run -a -s "-screen 0 640x480x24 -nolisten tcp" wine "$@"
}

echo "run_crosscheck: worked examples through the D3D12 backend (real DirectML)"
(cd "$run_dir" && run_wine ./d3d12_backend_test.exe d3d12) || die "worked examples on DirectML"
echo "run_crosscheck: kAuto without DirectML.dll (Windows build)"
(cd "$no_dml_dir" && run_wine ./d3d12_backend_test.exe cpu) || die "kAuto fallback under wine"
echo "run_crosscheck: kAuto without d3d12.dll (Windows build; DirectML.dll beside it)"
(cd "$run_dir" && WINEDLLOVERRIDES="${WINEDLLOVERRIDES:+$WINEDLLOVERRIDES;}d3d12,dxgi=d" \
  run_wine ./d3d12_backend_test.exe no-d3d12) || die "kAuto without d3d12.dll under wine"
echo "run_crosscheck: kAuto on the native build"
"$native"/tests/d3d12/d3d12_backend_test cpu >/dev/null || die "native kAuto"

echo "run_crosscheck: $cases cases (seed $seed) through DirectML"
records="$run_dir/records.bin"
rm -f "$records" "$records.next"
next=0
crashed=()
while (( next < cases )); do
  echo "$next" > "$records.next"
  status=0
  (cd "$run_dir" && run_wine ./crosscheck_runner.exe "$seed" "$next" "$cases" records.bin) ||
    status=$?
  (( status == 0 )) && break
  (( status == 3 )) && die "crosscheck_runner could not start DirectML"
  # A crash inside DirectML under wine (docs/semantics.md#observed-directml-behaviour): report the
  # case, resume after it.
  at=$(cat "$records.next")
  if (( at >= cases )); then
    echo "run_crosscheck: DirectML crashed while shutting down (exit $status), after every case"
    break
  fi
  echo "run_crosscheck: DirectML crashed at case $at (exit $status); resuming after it"
  crashed+=("$at")
  (( ${#crashed[@]} <= 10 )) || die "more than 10 crashes"
  next=$((at + 1))
done

echo "run_crosscheck: the same cases through the Windows build's CPU backend"
(cd "$run_dir" && run_wine ./crosscheck_runner.exe "$seed" 0 "$cases" records_cpu.bin cpu) ||
  die "crosscheck_runner (Windows CPU backend)"
"$native"/tests/d3d12/crosscheck_compare "$seed" "$cases" "$records" \
  "--windows-cpu=$run_dir/records_cpu.bin" "${crashed[@]}" | grep -v '^KNOWN DIRECTML BUG' ||
  die "cross-check mismatches (see above)"
# SCATTER / SCATTER_ND: in-range cases without duplicates, DirectML and the CPU backend in one
# Windows process (tests/d3d12/scatter_probe.cc), byte for byte.
cp build/mingw/bin/scatter_probe.exe "$run_dir/"
echo "run_crosscheck: SCATTER / SCATTER_ND through DirectML and the CPU backend"
(cd "$run_dir" && run_wine ./scatter_probe.exe crosscheck "${SCATTER_CASES:-2000}") ||
  die "scatter cross-check mismatches (see above)"
# Last, since a wineserver started without a display keeps it: stop the running one first.
echo "run_crosscheck: kAuto with DirectML.dll but no adapter (no X server, so no DXGI adapter)"
wineserver -k 2>/dev/null || true
(cd "$run_dir" && env -u DISPLAY -u WAYLAND_DISPLAY wine ./d3d12_backend_test.exe cpu) ||
  die "kAuto fallback without an adapter"
wineserver -k 2>/dev/null || true
echo "run_crosscheck: PASSED, $cases cases cross-checked in $(( $(date +%s) - start_time )) s"
