#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs dmlcpu's benchmark suite next to the copy roofline and the peers (NumPy, PyTorch, ONNX
# Runtime's CPU execution provider through onnxruntime-node), prints
# one side-by-side table and writes docs/bench.md + docs/bench.png. Works on a fresh Debian 12
# machine: installs what is missing first (root, or sudo).
#
#   scripts/run_benchmarks.sh                     everything (a few minutes on 2 cores)
#   FILTER='Embedding' scripts/run_benchmarks.sh  only the cases whose name matches (both sides)
#   REPETITIONS=1 MIN_TIME=0.1 scripts/run_benchmarks.sh   quicker, noisier
#   SKIP_PEERS=1 scripts/run_benchmarks.sh        dmlcpu only
#   ORT_VERSION=1.20.0                            the onnxruntime-node version installed (npm)
#   extra arguments go to dmlcpu_bench, e.g. --benchmark_filter=... (dmlcpu side only)
#
# Outputs: build/release/bench-results/{dmlcpu.json,peers.json,console.txt}, docs/bench.md and
# docs/bench.png. A partial run (FILTER or extra arguments) writes all of them to
# build/release/bench-results-partial/ instead. RESULTS_DIR overrides the results folder.
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir=$(pwd)

# Debian's interpreter: python3-numpy / python3-torch / python3-matplotlib live there (a `python3`
# earlier on PATH, e.g. pyenv's, does not see them).
python=/usr/bin/python3
repetitions=${REPETITIONS:-3}
min_time=${MIN_TIME:-0.2}
filter=${FILTER:-}
jobs=${JOBS:-$(nproc)}
build_dir=build/release
# A partial run (FILTER or extra arguments) keeps its results apart from the full suite's.
partial=0
if [[ -n "${filter}" || $# -gt 0 ]]; then partial=1; fi
if [[ ${partial} -eq 1 ]]; then
  results_dir=${RESULTS_DIR:-${build_dir}/bench-results-partial}
else
  results_dir=${RESULTS_DIR:-${build_dir}/bench-results}
fi

log() { echo "run_benchmarks.sh: $*"; }

# ---- 1. packages ---------------------------------------------------------------------------------
required=(cmake make g++ libhwy-dev libtbb-dev libbenchmark-dev libgtest-dev python3
          python3-numpy python3-matplotlib)
optional=(python3-torch nodejs npm)

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=()
for p in "${required[@]}"; do is_installed "$p" || missing+=("$p"); done
# node and npm count as present when on PATH: NodeSource's nodejs package ships npm itself, and
# conflicts with Debian's npm package.
has_command() {
  case "$1" in
    nodejs) command -v node >/dev/null ;;
    npm) command -v npm >/dev/null ;;
    *) return 1 ;;
  esac
}
missing_optional=()
for p in "${optional[@]}"; do
  is_installed "$p" || has_command "$p" || missing_optional+=("$p")
done

sudo=""
can_install=1
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else can_install=0; fi
fi
if [[ ${#missing[@]} -gt 0 && ${can_install} -eq 0 ]]; then
  log "missing packages ${missing[*]}, and not root (no sudo): install them and rerun" >&2
  exit 1
fi
if [[ ${can_install} -eq 1 && ( ${#missing[@]} -gt 0 || ${#missing_optional[@]} -gt 0 ) ]]; then
  export DEBIAN_FRONTEND=noninteractive
  apt_updated=0
  apt_update() { log "apt-get update"; $sudo apt-get update -qq && apt_updated=1; }
  # Installs "$@"; updates the package lists first only when there are none, and once more
  # (then retries) when the install fails on stale lists.
  apt_install() {
    if [[ ${apt_updated} -eq 0 ]] && ! compgen -G "/var/lib/apt/lists/*_Packages" >/dev/null; then
      apt_update || return 1
    fi
    $sudo apt-get install -y -qq --no-install-recommends "$@" && return 0
    [[ ${apt_updated} -eq 0 ]] || return 1
    apt_update && $sudo apt-get install -y -qq --no-install-recommends "$@"
  }
  if [[ ${#missing[@]} -gt 0 ]]; then
    log "installing ${missing[*]}"
    apt_install "${missing[@]}" || { log "could not install ${missing[*]}" >&2; exit 1; }
  fi
  if [[ ${#missing_optional[@]} -gt 0 ]]; then
    log "installing optional ${missing_optional[*]} (the PyTorch and ONNX Runtime peers)"
    apt_install "${missing_optional[@]}" ||
      log "optional ${missing_optional[*]} not installed; continuing without those peers"
  fi
fi

# ONNX Runtime peer: onnxruntime-node from the npm registry into build/release/ort-peer (its CPU
# binaries come in the package; no install scripts are run). Without node or npm, or when the
# install fails, the peer is left out with a message.
ort_version=${ORT_VERSION:-1.20.0}
ort_dir="${build_dir}/ort-peer"
ort_node_modules=""
if [[ -z "${SKIP_PEERS:-}" ]]; then
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    log "node or npm not found; continuing without the ONNX Runtime peer" >&2
  elif [[ -f "${ort_dir}/node_modules/onnxruntime-node/package.json" ]] &&
       grep -q "\"version\": \"${ort_version}\"" \
         "${ort_dir}/node_modules/onnxruntime-node/package.json"; then
    ort_node_modules="${root_dir}/${ort_dir}/node_modules"
  else
    log "installing onnxruntime-node@${ort_version} into ${ort_dir} (npm)"
    mkdir -p "${ort_dir}"
    if (cd "${ort_dir}" && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install --no-audit --no-fund \
          --ignore-scripts --no-save "onnxruntime-node@${ort_version}" >/dev/null); then
      ort_node_modules="${root_dir}/${ort_dir}/node_modules"
    else
      log "could not install onnxruntime-node; continuing without the ONNX Runtime peer" >&2
    fi
  fi
fi

# ---- 2. build ------------------------------------------------------------------------------------
log "configure (cmake --preset release) and build dmlcpu_bench with -j${jobs}"
# Benchmarks forced on: an earlier configure of build/release may have cached them off.
if ! cmake --preset release -DDMLCPU_BUILD_BENCHMARKS=ON \
    >"${TMPDIR:-/tmp}/dmlcpu_configure.log" 2>&1; then
  cat "${TMPDIR:-/tmp}/dmlcpu_configure.log" >&2
  log "configure failed; retrying without the tests (-DDMLCPU_BUILD_TESTS=OFF)" >&2
  cmake --preset release -DDMLCPU_BUILD_BENCHMARKS=ON -DDMLCPU_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "${build_dir}" --target dmlcpu_bench -j"${jobs}"
bench_binary="${build_dir}/bench/dmlcpu_bench"

# ---- 3. dmlcpu suite -----------------------------------------------------------------------------
mkdir -p "${results_dir}"
bench_args=(--benchmark_out="${results_dir}/dmlcpu.json" --benchmark_out_format=json
            --benchmark_min_time="${min_time}" --benchmark_repetitions="${repetitions}")
if [[ ${repetitions} -gt 1 ]]; then bench_args+=(--benchmark_display_aggregates_only=true); fi
if [[ -n "${filter}" ]]; then bench_args+=(--benchmark_filter="${filter}"); fi
log "running ${bench_binary} (min time ${min_time} s, ${repetitions} repetition(s); median used)"
"${bench_binary}" "${bench_args[@]}" "$@" | tee "${results_dir}/console.txt"

# ---- 4. peers ------------------------------------------------------------------------------------
peers_json=""
if [[ -z "${SKIP_PEERS:-}" ]]; then
  peers_json="${results_dir}/peers.json"
  log "running the peers (NumPy, PyTorch, ONNX Runtime) with ${python}"
  # As long per measurement as dmlcpu's repetitions together, so both sides get as many chances
  # at an undisturbed call.
  peer_min_time=$(awk -v t="${min_time}" -v r="${repetitions}" 'BEGIN { print t * r }')
  peer_args=(--out "${peers_json}" --min-time "${peer_min_time}")
  if [[ -n "${filter}" ]]; then peer_args+=(--filter "${filter}"); fi
  if [[ -n "${ort_node_modules}" ]]; then
    peer_args+=(--ort-node-modules "${ort_node_modules}")
  else
    peer_args+=(--peers numpy,torch)
  fi
  if ! "${python}" bench/peers/peers.py "${peer_args[@]}"; then
    log "peers.py failed; reporting dmlcpu alone" >&2
    peers_json=""
  fi
fi

# ---- 5. table + chart ----------------------------------------------------------------------------
# A partial run writes its table and chart next to its results: docs/ keeps the full suite's.
report_dir=docs
if [[ ${partial} -eq 1 ]]; then report_dir="${results_dir}"; fi
"${python}" bench/peers/report.py --dmlcpu "${results_dir}/dmlcpu.json" \
  ${peers_json:+--peers "${peers_json}"} --png "${report_dir}/bench.png" \
  --md "${report_dir}/bench.md"

# Paths as given when absolute (RESULTS_DIR=/tmp/...), else under the checkout.
full_path() { if [[ "$1" == /* ]]; then echo "$1"; else echo "${root_dir}/$1"; fi; }
log "outputs:"
log "  dmlcpu results  $(full_path "${results_dir}")/dmlcpu.json (console: console.txt)"
if [[ -n "${peers_json}" ]]; then log "  peer results    $(full_path "${peers_json}")"; fi
log "  table           $(full_path "${report_dir}")/bench.md"
log "  chart           $(full_path "${report_dir}")/bench.png"
