// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — the memory roofline: two pure copies of a byte count, measured in the same
// binary and run as the operator under test, split across the same number of threads.
//
//   roofline::RooflineTimes t = roofline::MeasureAgainstCopies(
//       [&] { op.Execute(...); }, {{input, input_bytes}, {output, output_bytes}}, output_bytes,
//       threads);
//   double ratio = t.best_copy_seconds() / t.op_seconds;
//
// A data-movement operator that writes N bytes of output cannot beat a copy of N bytes by much
// (it reads at least as much as it writes), so `best_copy_seconds / op_seconds` says how close to
// the machine's copy speed the operator is: 1.0 = as fast as the best pure copy of its output.
#ifndef DMLCPU_BENCH_ROOFLINE_H_
#define DMLCPU_BENCH_ROOFLINE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace dmlcpu_bench {

// A 64-byte aligned, zero-initialised-on-demand heap buffer. From 4 MiB on it is 2 MiB aligned and
// asks for transparent huge pages (madvise), as NumPy does for its large arrays; the Windows build
// does the same when it runs under wine on Linux, so that both builds get the same pages. With
// DMLCPU_BENCH_SMALL_PAGES=1 (any value but empty or "0") both refuse huge pages instead.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t size_bytes);
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size_bytes() const { return size_bytes_; }

  // Writes every byte (first touch happens here, outside any timed loop): 32-bit words
  // `salt + i * 0x9E3779B1`, so neighbouring elements of any width differ.
  void FillPattern(uint32_t salt);

 private:
  uint8_t* data_ = nullptr;
  size_t size_bytes_ = 0;
};

namespace roofline {

// glibc memcpy of `size_bytes`.
void MemcpyCopy(void* dst, const void* src, size_t size_bytes);

// A copy with non-temporal (streaming) stores: 32-byte AVX2 stores where the CPU has AVX2,
// 16-byte SSE2 stores otherwise, from dst's first 64-byte line on, up to four pages side by
// side (256 bytes of each in turn); head and tail through memcpy. Ends with an sfence.
void NonTemporalCopy(void* dst, const void* src, size_t size_bytes);

using CopyFunction = void (*)(void*, const void*, size_t);

// Runs `copy` over [0, size_bytes) split into `threads` contiguous pieces whose boundaries are
// 64-byte aligned in `dst`, one per thread of a TBB arena of `threads` threads (the same runtime
// the library's executor uses). Below kMinParallelBytes, or with threads <= 1, copies inline.
void ParallelCopy(CopyFunction copy, void* dst, const void* src, size_t size_bytes,
                  uint32_t threads);
inline constexpr size_t kMinParallelBytes = 256 * 1024;

// A byte range an operator call reads or writes.
struct Span {
  const void* data;
  size_t size_bytes;
};

// A byte range [begin, end) of a buffer.
struct ByteRange {
  uint64_t begin;
  uint64_t end;
};

// The cheapest way to bring given cache lines of a buffer to the cores: one 8-byte load per line,
// in address order, split across `threads` threads in pieces of about equal byte counts (split
// once, here); `Run(true)` also prefetches 8 KiB ahead along the lines, which is faster where
// they come in short runs. An operator that must read those lines cannot finish before the
// faster Run would (it still has its output to write), so the faster copy's time / that time
// caps the `ratio` it can reach. CopyTo is the cheapest way to move them: an operator that must
// read them and write at least as many bytes can hardly beat it.
class LineReader {
 public:
  // ranges: whole 64-byte lines (offsets from `base`), inside the allocation at `base` (which
  // may end past the last element, as AlignedBuffer's does: it rounds up to whole lines); that
  // must outlive the reader. Ascending and disjoint for Run (the cheapest read); CopyTo copies
  // them in the order given.
  LineReader(const uint8_t* base, const std::vector<ByteRange>& ranges, uint32_t threads);
  void Run(bool prefetch) const;
  // Copies the lines, split into the same pieces as Run, back to back into `dst` (bytes() long,
  // 64-byte aligned): with non-temporal stores (`streaming`) or memcpy, in 256-byte steps, each
  // step preceded by the prefetches that keep a cursor 8 KiB ahead along the lines. Unlike Run,
  // the ranges may come in any order (a gather's blocks in output order); copied in that order.
  void CopyTo(uint8_t* dst, bool streaming) const;
  // Whether `dst` holds what CopyTo writes there.
  bool CopiedTo(const uint8_t* dst) const;
  uint64_t bytes() const { return bytes_; }

 private:
  // Calls piece_fn(p) for every piece, one per thread of the arena of threads_ threads.
  template <typename PieceFn>
  void ForEachPiece(const PieceFn& piece_fn) const;

  const uint8_t* base_;
  uint32_t threads_;
  uint64_t bytes_ = 0;
  std::vector<std::vector<ByteRange>> pieces_;  // one per thread
  std::vector<uint64_t> piece_begin_bytes_;     // where each piece starts in CopyTo's dst
};

// Fastest-call seconds of an operator and of the two copies of `copy_bytes`, measured two ways:
//  - interleaved: rounds of (operator, memcpy, NT copy, and the reader's and copier's calls
//    below), in an order that rotates every round, until `min_seconds` (times the calls per
//    round / 3) have passed (at least 6 rounds), after one warm-up round, each call started
//    with a cold cache: every line of every buffer involved (`op_buffers`, the copies' source
//    and destinations, the copier's destination) is flushed from all caches first (clflush), so
//    all start from DRAM, as the targets were measured. All see the same moments of a shared,
//    noisy machine, so their ratios are robust.
//  - repeated: each copy alone, called repeatedly for `min_seconds` / 2 (warm caches where the
//    buffers fit), as the operator's own timed loop and the peers are measured.
// The copies get their own source and destinations (64-byte aligned, huge pages requested above
// 4 MiB, first-touched), split across `threads` threads like ParallelCopy.
// With a `reader`, Run(false) and Run(true) join the interleaved rounds (flushed like the
// others); read_seconds is the faster of the two. With a `copier` whose lines are no more bytes
// than `copy_bytes` (an operator that writes copy_bytes must read those lines and write at least
// that much), its CopyTo with and without streaming join them too; line_copy_seconds is the
// faster.
struct RooflineTimes {
  double op_seconds = 0;         // interleaved
  double memcpy_seconds = 0;     // interleaved
  double nt_seconds = 0;         // interleaved
  double read_seconds = 0;       // interleaved; 0 without a reader
  double line_copy_seconds = 0;  // interleaved; 0 unless measured (see above)
  double memcpy_repeated_seconds = 0;
  double nt_repeated_seconds = 0;
  double best_copy_seconds() const {
    return memcpy_seconds < nt_seconds ? memcpy_seconds : nt_seconds;
  }
};
RooflineTimes MeasureAgainstCopies(const std::function<void()>& run_op,
                                   const std::vector<Span>& op_buffers, size_t copy_bytes,
                                   uint32_t threads, const LineReader* reader = nullptr,
                                   const LineReader* copier = nullptr,
                                   double min_seconds = 0.4);

// Seconds taken by `fn()` (steady clock).
template <typename Fn>
double TimeOnce(const Fn& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Writes back and invalidates every cache line of `span` in all caches (clflush).
void FlushFromCaches(const Span& span);

}  // namespace roofline
}  // namespace dmlcpu_bench

#endif  // DMLCPU_BENCH_ROOFLINE_H_
