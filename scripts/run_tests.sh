#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the documentation's references (scripts/check_docs.sh), then builds and runs every test
# on a fresh Debian 12 machine (installs missing packages first): the release preset, then asan
# (AddressSanitizer + UndefinedBehaviorSanitizer), then tsan (ThreadSanitizer, 200 random cases
# per operator; tests/README.md "ThreadSanitizer").
#   scripts/run_tests.sh                 release + asan + tsan
#   DMLCPU_PRESETS="release" scripts/run_tests.sh    only some presets
set -euo pipefail
cd "$(dirname "$0")/.."

echo "=== documentation references (scripts/check_docs.sh)"
bash scripts/check_docs.sh
bash scripts/deps.sh
jobs=$(nproc)
presets=${DMLCPU_PRESETS:-"release asan tsan"}
for preset in $presets; do
  echo "=== preset ${preset}: configure, build, test"
  cmake --preset "${preset}" >/dev/null
  cmake --build --preset "${preset}" -j"${jobs}"
  ctest --preset "${preset}" -j"${jobs}"
done
echo "=== all presets passed: ${presets}"
