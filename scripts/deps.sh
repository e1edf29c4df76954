#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what dmlcpu needs on Debian 12, only what is missing. Needs root (or sudo).
#   scripts/deps.sh          build + test dependencies
#   scripts/deps.sh bench    also the benchmark peers and chart (NumPy, matplotlib, PyTorch)
set -euo pipefail

packages=(cmake make g++ libhwy-dev libtbb-dev libgtest-dev libbenchmark-dev
          libonnx-testdata)
optional=()
if [[ "${1:-}" == "bench" ]]; then
  packages+=(python3-numpy python3-matplotlib)
  optional+=(python3-torch)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
missing_optional=()
for p in "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing_optional+=("$p")
done
if [[ ${#missing[@]} -eq 0 && ${#missing_optional[@]} -eq 0 ]]; then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "deps.sh: installing ${missing[*]} ${missing_optional[*]}"
$sudo apt-get update -qq
if [[ ${#missing[@]} -gt 0 ]]; then
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ ${#missing_optional[@]} -gt 0 ]]; then
  $sudo apt-get install -y -qq --no-install-recommends "${missing_optional[@]}" ||
    echo "deps.sh: optional ${missing_optional[*]} not installed; continuing without"
fi
