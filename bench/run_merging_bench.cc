// Does run merging cost anything on random ids? the best SIMD set's gather_blocks with merge_runs (looks
// for runs of adjacent sources) against the same call without (copies every block), on the
// same layout, on random offsets (no runs to find) and on sorted runs, for small blocks where
// a per-block check shows most. This decided kernels::kMinMergeBlockBytes.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/kernels.h"

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

void BM_GatherBlocks(benchmark::State& state, bool merging, bool sorted_runs) {
  const size_t block_bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> table(kTableRows * block_bytes, 1);
  std::vector<uint8_t> out(kBlocks * block_bytes);
  const std::vector<int64_t> offsets = Offsets(block_bytes, sorted_runs);
  for (auto _ : state) {
    const dmlcpu::kernels::KernelSet& set = dmlcpu::kernels::BestKernels();
    set.gather_blocks(out.data(), static_cast<int64_t>(block_bytes), table.data(),
                      offsets.data(), kBlocks, block_bytes, set.copy_bytes, merging,
                      /*prefetch_blocks=*/true);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBlocks * block_bytes * 2));
}

// The roofline: glibc memcpy of the same output bytes (contiguous, warm like the cases above).
void BM_MemcpySameBytes(benchmark::State& state) {
  const size_t bytes = kBlocks * static_cast<size_t>(state.range(0));
  std::vector<uint8_t> src(bytes, 1), dst(bytes);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes * 2));
}

void BM_RandomIdsWithRunDetection(benchmark::State& s) { BM_GatherBlocks(s, true, false); }
void BM_RandomIdsNoMerging(benchmark::State& s) { BM_GatherBlocks(s, false, false); }
void BM_SortedRunsWithRunDetection(benchmark::State& s) { BM_GatherBlocks(s, true, true); }
void BM_SortedRunsNoMerging(benchmark::State& s) { BM_GatherBlocks(s, false, true); }

BENCHMARK(BM_MemcpySameBytes)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_RandomIdsWithRunDetection)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_RandomIdsNoMerging)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_SortedRunsWithRunDetection)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);
BENCHMARK(BM_SortedRunsNoMerging)->Arg(16)->Arg(64)->Arg(256)->Arg(2048);

}  // namespace

BENCHMARK_MAIN();
