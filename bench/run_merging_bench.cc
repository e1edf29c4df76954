// SPDX-License-Identifier: Apache-2.0
// Does run merging cost anything on random ids? The best SIMD set's gather_blocks with
// merge_runs (looks for runs of adjacent sources) against the same call without (copies every
// block), on the same layout, on random offsets (no runs to find) and on sorted runs, for small
// blocks where a per-block check shows most. This decided kernels::kMinMergeBlockBytes. Each
// case reports its ratio to the faster of glibc memcpy and a non-temporal copy of its output
// bytes, measured in the same run (warm, like the case).
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/kernels.h"
#include "roofline.h"

namespace {

constexpr size_t kBlocks = 4096;
constexpr size_t kTableRows = 1 << 16;

std::vector<int64_t> Offsets(size_t block_bytes, bool sorted_runs) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> offsets(kBlocks);
  uint64_t row = rng() % kTableRows;
  for (auto& o : offsets) {
    row = sorted_runs ? (rng() % 8 == 0 ? rng() % kTableRows : (row + 1) % kTableRows)
                      : rng() % kTableRows;
    o = static_cast<int64_t>(row * block_bytes);
  }
  return offsets;
}

// Fastest of interleaved calls of `gather`, memcpy and the non-temporal copy of `bytes`: the
// copies' GB/s and ratio = faster copy time / gather time, as counters.
template <typename F>
void ReportAgainstCopies(benchmark::State& state, const F& gather, size_t bytes) {
  namespace roofline = dmlcpu_bench::roofline;
  std::vector<uint8_t> src(bytes, 1), dst(bytes, 0);
  double op = 1e30, mem = 1e30, nt = 1e30;
  const auto run_memcpy = [&] { roofline::MemcpyCopy(dst.data(), src.data(), bytes); };
  const auto run_nt = [&] { roofline::NonTemporalCopy(dst.data(), src.data(), bytes); };
  for (int round = 0; round < 50; ++round) {
    op = std::min(op, roofline::TimeOnce(gather));
    mem = std::min(mem, roofline::TimeOnce(run_memcpy));
    nt = std::min(nt, roofline::TimeOnce(run_nt));
  }
  state.counters["memcpy_GBps"] = 2.0 * static_cast<double>(bytes) / mem / 1e9;
  state.counters["nt_GBps"] = 2.0 * static_cast<double>(bytes) / nt / 1e9;
  state.counters["ratio"] = std::min(mem, nt) / op;
}

void BM_GatherBlocks(benchmark::State& state, bool merging, bool sorted_runs) {
  const size_t block_bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> table(kTableRows * block_bytes, 1);
  std::vector<uint8_t> out(kBlocks * block_bytes);
  const std::vector<int64_t> offsets = Offsets(block_bytes, sorted_runs);
  const dmlcpu::kernels::KernelSet& set = dmlcpu::kernels::BestKernels();
  const auto gather = [&] {
    set.gather_blocks(out.data(), static_cast<int64_t>(block_bytes), table.data(),
                      offsets.data(), kBlocks, block_bytes, set.copy_bytes, merging,
                      /*prefetch_blocks=*/true);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  };
  for (auto _ : state) gather();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBlocks * block_bytes * 2));
  ReportAgainstCopies(state, gather, kBlocks * block_bytes);
}

void BM_RandomIdsWithRunDetection(benchmark::State& s) { BM_GatherBlocks(s, true, false); }
void BM_RandomIdsNoMerging(benchmark::State& s) { BM_GatherBlocks(s, false, false); }
void BM_SortedRunsWithRunDetection(benchmark::State& s) { BM_GatherBlocks(s, true, true); }
void BM_SortedRunsNoMerging(benchmark::State& s) { BM_GatherBlocks(s, false, true); }

BENCHMARK(BM_RandomIdsWithRunDetection)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_RandomIdsNoMerging)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_SortedRunsWithRunDetection)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_SortedRunsNoMerging)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);

}  // namespace

BENCHMARK_MAIN();
