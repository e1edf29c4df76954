#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds dmlcpu's dependencies for the Windows (mingw-w64) target from Debian 12's own source
# packages, the same versions as the Linux build's -dev packages (docs/windows.md#dependencies):
#   Highway (source package highway), oneTBB (onetbb), Google Benchmark (benchmark): fetched
#   with `apt-get source` through a private deb-src list and apt state (the system's apt
#   configuration stays untouched); GoogleTest from /usr/src/googletest (package googletest).
# All static libraries, installed into .cache/mingw-deps/prefix (git-ignored; nothing is
# committed). Idempotent: per library, a stamp naming its version and build arguments (and the
# toolchain file's hash) skips a rebuild.
# Prints the prefix on its last line; exits non-zero (loudly) on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
cache="$root/.cache/mingw-deps"
prefix="$cache/prefix"
jobs="${JOBS:-2}"
export DEBIAN_FRONTEND=noninteractive
die() { echo "setup_mingw_deps: FAILED: $*" >&2; exit 1; }

sudo_cmd=""
if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi
need=()
# clang-14, lld-14 and llvm-14: dmlcpu.lib in MSVC's import format (llvm-dlltool) and the MSVC-ABI
# link test (tests/msvc).
for p in g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 dpkg-dev googletest libhwy-dev \
         libtbb-dev libbenchmark-dev cmake make clang-14 lld-14 llvm-14; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [[ ${#need[@]} -gt 0 ]]; then
  echo "setup_mingw_deps: installing ${need[*]}"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The Windows build uses exactly the source versions of the Linux build's packages.
src_version() { dpkg-query -W -f='${source:Version}' "$1"; }
hwy_version=$(src_version libhwy-dev)
tbb_version=$(src_version libtbb-dev)
bench_version=$(src_version libbenchmark-dev)
gtest_version=$(src_version googletest)
toolchain_hash=$(sha256sum "$root/cmake/toolchain-mingw.cmake" | cut -c1-16)
versions="highway=$hwy_version onetbb=$tbb_version benchmark=$bench_version"
versions+=" googletest=$gtest_version"

# 1. Sources, through a private apt state (fetched again when a version changes).
apt_state="$cache/apt"
src="$cache/src"
if [[ "$(cat "$src/.versions" 2>/dev/null)" != "$versions" ]]; then
rm -rf "$src" "$prefix" "$cache/build"
mkdir -p "$apt_state/lists/partial" "$apt_state/cache/archives/partial" "$src"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
{
  echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm main"
  echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm-updates main"
  echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main"
} > "$apt_state/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$apt_state/sources.list" -o Dir::Etc::sourceparts=-
          -o Dir::State::Lists="$apt_state/lists" -o Dir::Cache="$apt_state/cache"
          -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)
echo "setup_mingw_deps: apt-get source highway=$hwy_version onetbb=$tbb_version" \
  "benchmark=$bench_version"
apt-get "${apt_opts[@]}" update -qq || die "apt-get update (private deb-src list)"
(cd "$src" && apt-get "${apt_opts[@]}" source -qq --download-only "highway=$hwy_version" \
   "onetbb=$tbb_version" "benchmark=$bench_version" >/dev/null) || die "apt-get source"
for dsc in "$src"/*.dsc; do
  (cd "$src" && dpkg-source -x "$dsc" >/dev/null 2>&1) || die "dpkg-source -x $dsc"
done
echo "$versions" > "$src/.versions"
fi
hwy_src=$(find "$src" -maxdepth 1 -type d -name 'highway-*' | head -n1)
tbb_src=$(find "$src" -maxdepth 1 -type d -name 'onetbb-*' | head -n1)
bench_src=$(find "$src" -maxdepth 1 -type d -name 'benchmark-*' | head -n1)
[[ -d "$hwy_src" && -d "$tbb_src" && -d "$bench_src" ]] || die "unpacked sources missing"

# 2. Static builds with dmlcpu's toolchain file and its stack-alignment workaround
# (docs/windows.md#avx-and-the-stack): every aligned vector move assembled as an unaligned one.
common=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-mingw.cmake" -DCMAKE_BUILD_TYPE=Release
        -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF -DCMAKE_INSTALL_LIBDIR=lib)
build() {  # name source-dir cmake-args...
  local name="$1" dir="$2"
  shift 2
  local stamp="$dir toolchain=$toolchain_hash $*"
  if [[ "$(cat "$prefix/.stamp-$name" 2>/dev/null)" == "$stamp" ]]; then return 0; fi
  echo "setup_mingw_deps: building $name"
  rm -rf "$cache/build/$name"
  cmake -S "$dir" -B "$cache/build/$name" "${common[@]}" "$@" >"$cache/build-$name.log" 2>&1 ||
    { tail -n 30 "$cache/build-$name.log"; die "configure $name"; }
  cmake --build "$cache/build/$name" -j"$jobs" >>"$cache/build-$name.log" 2>&1 ||
    { tail -n 30 "$cache/build-$name.log"; die "build $name"; }
  cmake --install "$cache/build/$name" >>"$cache/build-$name.log" 2>&1 || die "install $name"
  echo "$stamp" > "$prefix/.stamp-$name"
}
build highway "$hwy_src" -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_CONTRIB=OFF \
  -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_INSTALL=ON
# oneTBB as a static library (docs/windows.md#onetbb): only libtbb, no tbbmalloc, no tests. Its
# mingw objects mark the API __declspec(dllexport) (for tbb12.dll); linked into dmlcpu.dll they
# would be exported from it, so this build spells _EXPORT as nothing (sed on the unpacked copy).
export_h="$tbb_src/include/oneapi/tbb/detail/_export.h"
if grep -q '^    #define _EXPORT __declspec(dllexport)$' "$export_h"; then
  sed -i 's|^    #define _EXPORT __declspec(dllexport)$|    #define _EXPORT /* static: dmlcpu.dll exports none of it */|' \
    "$export_h"
fi
grep -q 'static: dmlcpu.dll exports none' "$export_h" || die "could not unexport oneTBB ($export_h)"
build onetbb "$tbb_src" -DDMLCPU_UNEXPORTED=ON -DTBB_TEST=OFF -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF \
  -DTBB_ENABLE_IPO=OFF -DTBB_EXAMPLES=OFF
build googletest /usr/src/googletest -DBUILD_GMOCK=OFF -Dgtest_disable_pthreads=OFF
build benchmark "$bench_src" -DGIT_VERSION="${bench_version%%-*}" -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_WERROR=OFF \
  -DBENCHMARK_INSTALL_DOCS=OFF -DBENCHMARK_ENABLE_GTEST_TESTS=OFF
rm -rf "$cache/build"
echo "setup_mingw_deps: ready ($versions)"
echo "$prefix"
