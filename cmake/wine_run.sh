#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CMAKE_CROSSCOMPILING_EMULATOR of the mingw presets: runs one Windows program under wine with the
# prefix and settings of scripts/setup_wine.sh (.cache/wine/env.sh). Exit status: the program's.
set -euo pipefail
env_file="$(cd "$(dirname "$0")/.." && pwd)/.cache/wine/env.sh"
if [[ ! -f "$env_file" ]]; then
  echo "wine_run.sh: $env_file missing: run scripts/setup_wine.sh first" >&2
  exit 127
fi
# shellcheck disable=SC1090
source "$env_file"
# wine starts helper processes (services.exe, winedevice.exe, ...) that outlive the program and
# inherit its stdout: under ctest they would hold the test's output pipe open, and ctest would
# wait for them. Starting them first, with no inherited descriptors, avoids that.
wine cmd.exe /c exit </dev/null >/dev/null 2>&1 || true
exec wine "$@"
