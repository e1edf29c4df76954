// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — shared plumbing: owning DirectML descriptors, aligned buffers, the index
// generator shared with bench/peers/peers.py, and the runner that times one case.
//
// A case is a `CaseSpec`: a name after the model it comes from, and a `make` function that builds
// the descriptor, the buffers and the byte accounting (`CaseData`). Each case is registered twice:
// "<Name>/threads:1" (Device max_threads 1: serial, no TBB) and "<Name>/threads:all"
// (max_threads 0: all cores).
//
// Per throughput case the runner reports (see RunExecuteCase):
//   bytes_per_second  useful bytes read + written per Execute (indices included) / mean time
//   mean_GBps         the same in 1e9 bytes/s (Google Benchmark's mean over its iterations)
//   dmlcpu_GBps       useful bytes / the fastest Execute of the timed loop, 1e9 bytes/s
//   memcpy_GBps       glibc memcpy of the output's byte count, called repeatedly:
//                     2 x output bytes / fastest copy
//   nt_GBps           the non-temporal-store copy of the output's byte count, same accounting
//   ratio             fastest copy time / fastest dmlcpu time, both from rounds of (Execute,
//                     memcpy, NT copy) interleaved in this process with the same thread count,
//                     so that all three see the same disturbances on a shared machine
//                     (1.0 = dmlcpu produces its output as fast as the faster pure copy)
//   interleaved_GBps, interleaved_memcpy_GBps, interleaved_nt_GBps   the rounds' fastest calls
//                     (below the repeated-loop figures where those run from a warm cache: every
//                     call of the rounds starts with its buffers flushed)
//   bound             gathers only: memcpy traffic (2 x output bytes) / unavoidable traffic
//                     (output written + distinct 64-byte input lines touched + indices read);
//                     < 1 means the operator must move more bytes than the copy does
//   read_bound        fastest copy time / time to merely read the input lines the operator must
//                     read (roofline::LineReader, in the same interleaved rounds, cold): a
//                     ratio an operator reading those lines can hardly beat (measured, not
//                     computed)
//   copy_bound        where those lines are no more bytes than the output (slices and gathers of
//                     whole, aligned blocks): fastest copy time / time to copy just those lines
//                     back to back into a buffer of their size (LineReader::CopyTo, the faster
//                     of memcpy and non-temporal stores, prefetched), a gather's block after
//                     block in output order, a slice's in address order: at most the
//                     operator's bytes, moved the cheapest way, without its index or address
//                     work (for slices that read every line of their input -- flips, transposed
//                     views -- that is a plain copy of the input, so about 1)
// Fastest calls rather than means are compared because the reference machine is shared: the
// fastest call is the least disturbed one (the peers report their best sample likewise).
// Latency cases report ns_per_execute (mean) instead, Compile cases ns_per_compile (mean).
//   threads           the thread count of the Device (and of the copies)
//   write_ratio, fill_GBps   write-bound cases (CaseData::write_bound): the fastest parallel
//                     memset of the output's bytes / the fastest Execute, alternating and cold
//                     (1.0 = dmlcpu writes its output as fast as memset does)
//
// DMLCPU_BENCH_DESCRIBE=1 prints each case's plan (CompiledOperator::Describe) to stderr once.
#ifndef DMLCPU_BENCH_BENCH_UTIL_H_
#define DMLCPU_BENCH_BENCH_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "roofline.h"

namespace dmlcpu_bench {

// SplitMix64 as a counter-based generator: the i-th draw (0-based) of the stream `seed`.
// bench/peers/peers.py computes the same numbers with NumPy, so both sides see identical indices.
inline uint64_t SplitMix64(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// `count` indices uniform in [0, bound): SplitMix64(seed, i) % bound.
std::vector<int64_t> RandomIndices(uint64_t seed, uint64_t count, uint64_t bound);

// `count` tuples of `bounds.size()` coordinates, flattened: coordinate j of tuple i is
// SplitMix64(seed, i * t + j) % bounds[j].
std::vector<int64_t> RandomTuples(uint64_t seed, uint64_t count,
                                  const std::vector<uint64_t>& bounds);

// Sorted ids made of runs of consecutive ids, as a batch of sorted, de-duplicated prompts looks:
// run r has length min_run + SplitMix64(seed, 2r) % (max_run - min_run + 1) and starts at
// SplitMix64(seed, 2r + 1) % (bound - length + 1); runs are sorted by (start, length) and
// expanded, and the list is cut at `count`.
std::vector<int64_t> SortedRunIndices(uint64_t seed, uint64_t count, uint64_t bound,
                                      uint32_t min_run, uint32_t max_run);

// An owning DML_TENSOR_DESC. Not copyable or movable (the structs point into it).
class Tensor {
 public:
  // `strides_elems` empty = packed (Strides left null in the descriptor).
  Tensor(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
         std::vector<uint32_t> strides_elems = {});
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  const DML_TENSOR_DESC* desc() const { return &tensor_desc_; }
  uint32_t elem_bytes() const { return elem_bytes_; }
  uint64_t elem_count() const { return elem_count_; }
  // Element bytes (elem_count x elem_bytes), not the span of a strided layout.
  uint64_t data_bytes() const { return elem_count_ * elem_bytes_; }
  // TotalTensorSizeInBytes (CalcBufferTensorSize).
  uint64_t total_bytes() const { return buffer_desc_.TotalTensorSizeInBytes; }
  const std::vector<uint32_t>& sizes() const { return sizes_; }
  // Byte offset of the element with row-major linear position `linear_elem`.
  uint64_t ByteOffsetOf(uint64_t linear_elem) const;

 private:
  std::vector<uint32_t> sizes_;
  std::vector<uint32_t> strides_elems_;  // as given (may be empty)
  std::vector<uint64_t> effective_strides_elems_;
  uint32_t elem_bytes_ = 0;
  uint64_t elem_count_ = 0;
  DML_BUFFER_TENSOR_DESC buffer_desc_{};
  DML_TENSOR_DESC tensor_desc_{};
};

// Everything one case needs: the descriptor (and the arrays it points into), the bound buffers
// and the byte accounting. Built once per case and shared by its two thread variants.
struct CaseData {
  // Ownership helpers: the returned pointers stay valid as long as this CaseData.
  Tensor* AddTensor(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
                    std::vector<uint32_t> strides_elems = {});
  const uint32_t* KeepUints(std::vector<uint32_t> values);
  const int32_t* KeepInts(std::vector<int32_t> values);
  template <typename OpDesc>
  void SetOperator(DML_OPERATOR_TYPE type, const OpDesc& op_desc) {
    auto owned = std::make_shared<OpDesc>(op_desc);
    op_desc_storage = owned;
    op = DML_OPERATOR_DESC{type, owned.get()};
  }
  // Allocates and fills the input (reusing the previous case's input buffer when the size
  // matches, e.g. one embedding table for several cases), the indices and the output.
  void AllocateBuffers(const Tensor& input, const std::vector<int64_t>* indices,
                       const Tensor& output);

  DML_OPERATOR_DESC op{};
  std::shared_ptr<void> op_desc_storage;
  const Tensor* input_tensor = nullptr;
  const Tensor* output_tensor = nullptr;
  std::shared_ptr<AlignedBuffer> input;
  AlignedBuffer indices;  // empty for slices
  AlignedBuffer output;
  // Further bindings (JOIN's inputs after the first, SPLIT's outputs after the first), in order.
  std::vector<AlignedBuffer> more_inputs;
  std::vector<AlignedBuffer> more_outputs;
  // Write-bound cases (TILE, expands: a small input written many times) also report
  // write_ratio: the fastest parallel memset of copy_bytes / the fastest Execute, alternating,
  // cold, and fill_GBps. Measured once per thread count: {Execute seconds, memset seconds}.
  bool write_bound = false;
  std::map<uint32_t, std::pair<double, double>> fill_times;

  // Useful bytes per Execute: elements read from the input + the whole indices tensor, and
  // elements written to the output. `copy_bytes` is what the baselines copy (output elements).
  uint64_t read_bytes = 0;
  uint64_t written_bytes = 0;
  uint64_t copy_bytes = 0;

  // Byte offset in the input of the element that lands at output linear position `e`. Used to
  // verify a sample of the output after the first Execute, and to find the input cache lines
  // the operator must touch (for `read_bound`, and `bound` when `bound_block_elems` > 0: then
  // output blocks of `bound_block_elems` elements are contiguous in the input, and looked up
  // once per block).
  std::function<uint64_t(uint64_t e)> source_byte_offset;
  uint64_t bound_block_elems = 0;
  double bound = 0;        // computed lazily by the runner
  // The input lines the operator must read, ascending (computed lazily by the runner, for the
  // read_bound's LineReader).
  std::vector<roofline::ByteRange> read_ranges;
  bool read_ranges_done = false;
  // A block gather's input lines in output order, for the copy bound (empty where they are more
  // bytes than the output; computed lazily by the runner).
  std::vector<roofline::ByteRange> copy_ranges;
  bool copy_ranges_done = false;
  bool described = false;  // plan printed (DMLCPU_BENCH_DESCRIBE=1)
  // Interleaved fastest-call times per Device thread count (measured once, see roofline.h).
  std::map<uint32_t, roofline::RooflineTimes> roofline;

 private:
  std::deque<std::unique_ptr<Tensor>> tensors_;
  std::deque<std::vector<uint32_t>> uint_arrays_;
  std::deque<std::vector<int32_t>> int_arrays_;
};

enum class CaseKind {
  kThroughput,      // GB/s next to the copies
  kExecuteLatency,  // tiny operator: ns per Execute
  kCompileLatency,  // ns per Compile
};

struct CaseSpec {
  std::string name;  // after the model the shape comes from, e.g. "KvCacheWindow"
  CaseKind kind = CaseKind::kThroughput;
  std::function<std::unique_ptr<CaseData>()> make;
};

// Registers "<name>/threads:1" and "<name>/threads:all" for every spec, in order.
void RegisterCases(const std::vector<CaseSpec>& specs);

// Slice / gather byte-offset helpers for CaseData::source_byte_offset.
// SLICE1 semantics (SLICE is the same with positive strides): output coordinate o reads input
// coordinate offsets + (stride < 0 ? window - 1 : 0) + stride * o.
std::function<uint64_t(uint64_t)> SliceSource(const Tensor& input, const Tensor& output,
                                              std::vector<uint32_t> offsets,
                                              std::vector<uint32_t> window_sizes,
                                              std::vector<int32_t> strides);

// Families register their cases from here (called by bench_main.cc).
void RegisterSliceBenchmarks();
void RegisterGatherBenchmarks();
void RegisterPaddingBenchmarks();
void RegisterCopyOpsBenchmarks();

}  // namespace dmlcpu_bench

#endif  // DMLCPU_BENCH_BENCH_UTIL_H_
