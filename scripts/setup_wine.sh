#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up everything needed to run dmlcpu's D3D12 backend on real DirectML under wine
# (recipe: docs/d3d12.md#real-directml-under-wine). Idempotent; caches under .cache/wine/
# (git-ignored).
#   - apt packages: wine, mingw-w64, Xvfb, Mesa's Vulkan drivers;
#   - DirectML.dll from the onnxruntime-node npm package;
#   - Mesa 25 lavapipe from bookworm-backports, unpacked into a private folder with a private
#     apt sources list / lists dir (the system's apt configuration and Mesa stay untouched);
#   - a 64-bit wine prefix.
# Prints the environment file to source on success; exits non-zero (loudly) on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
cache="$root/.cache/wine"
mkdir -p "$cache"
export DEBIAN_FRONTEND=noninteractive

sudo_cmd=""
if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi

# 1. Packages.
need_pkgs=()
for tool in wine x86_64-w64-mingw32-g++-posix xvfb-run xauth; do
  command -v "$tool" >/dev/null 2>&1 || need_pkgs+=("$tool")
done
if [[ ${#need_pkgs[@]} -gt 0 ]] || ! dpkg -s wine64 mesa-vulkan-drivers >/dev/null 2>&1; then
  echo "setup_wine: installing packages (missing: ${need_pkgs[*]:-none})"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends wine wine64 libwine mingw-w64 \
    g++-mingw-w64-x86-64 mesa-vulkan-drivers vulkan-tools xvfb xauth >/dev/null
fi
if ! command -v npm >/dev/null 2>&1; then
  $sudo_cmd apt-get install -y -qq --no-install-recommends npm >/dev/null
fi

# 2. DirectML.dll (DirectML 1.15.2 inside onnxruntime-node 1.20.0).
dml_dir="$cache/directml"
if [[ ! -s "$dml_dir/DirectML.dll" ]]; then
  echo "setup_wine: fetching DirectML.dll (npm pack onnxruntime-node@1.20.0)"
  tmp="$cache/npm-tmp"
  rm -rf "$tmp" && mkdir -p "$tmp" "$dml_dir"
  (cd "$tmp" && npm pack --silent onnxruntime-node@1.20.0 >/dev/null)
  tar -xzf "$tmp"/onnxruntime-node-1.20.0.tgz -C "$tmp" package/bin/napi-v3/win32/x64/DirectML.dll
  cp "$tmp/package/bin/napi-v3/win32/x64/DirectML.dll" "$dml_dir/DirectML.dll.part"
  mv "$dml_dir/DirectML.dll.part" "$dml_dir/DirectML.dll"
  rm -rf "$tmp"
fi

# 3. Private Mesa 25 lavapipe from bookworm-backports.
bpo="$cache/mesa-bpo"
icd="$bpo/lvp_bpo_icd.json"
if [[ ! -s "$icd" ]]; then
  echo "setup_wine: fetching Mesa lavapipe from bookworm-backports (private apt state)"
  apt_state="$cache/apt"
  rm -rf "$apt_state" "$bpo"
  mkdir -p "$apt_state/lists/partial" "$apt_state/cache/archives/partial" "$bpo/debs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main" > "$apt_state/sources.list"
  apt_opts=(-o Dir::Etc::sourcelist="$apt_state/sources.list" -o Dir::Etc::sourceparts=-
            -o Dir::State::Lists="$apt_state/lists" -o Dir::Cache="$apt_state/cache"
            -o APT::Get::List-Cleanup=0)
  apt-get "${apt_opts[@]}" update -qq
  (cd "$bpo/debs" && apt-get "${apt_opts[@]}" download mesa-vulkan-drivers/bookworm-backports \
     libdrm2/bookworm-backports libdrm-amdgpu1/bookworm-backports)
  for deb in "$bpo"/debs/*.deb; do dpkg-deb -x "$deb" "$bpo/root"; done
  lib="$bpo/root/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
  [[ -f "$lib" ]] || { echo "setup_wine: libvulkan_lvp.so missing from backports" >&2; exit 1; }
  src_icd=$(find "$bpo/root" -name 'lvp_icd*.json' | head -n1)
  sed -E "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$lib\"#" "$src_icd" > "$icd.part"
  mv "$icd.part" "$icd"
fi

# 4. Wine prefix.
prefix="$cache/prefix"
if [[ ! -f "$prefix/.dmlcpu-ready" ]]; then
  echo "setup_wine: creating the wine prefix"
  rm -rf "$prefix"
  WINEPREFIX="$prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    wine wineboot -u >/dev/null 2>&1
  WINEPREFIX="$prefix" wineserver -w || true
  touch "$prefix/.dmlcpu-ready"
fi

# 5. Environment for running Windows programs.
cat > "$cache/env.sh" <<EOF
export WINEPREFIX="$prefix"
export WINEARCH=win64
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="
export VK_ICD_FILENAMES="$icd"
export LD_LIBRARY_PATH="$bpo/root/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export VKD3D_CONFIG=virtual_heaps
export DMLCPU_DIRECTML_DLL="$dml_dir/DirectML.dll"
EOF
echo "setup_wine: ready ($cache/env.sh)"
