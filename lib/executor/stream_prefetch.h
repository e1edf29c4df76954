// SPDX-License-Identifier: Apache-2.0
// Software prefetch along the input stream (PrefetchPolicy::input_stream). The hardware
// prefetchers follow a forward stream inside a page but lose it wherever the reads jump (rows
// in descending order, descending reads, index-chosen blocks); the executor knows the whole
// sequence of input spans it will read and keeps prefetches a fixed distance ahead along it.
#ifndef DMLCPU_EXECUTOR_STREAM_PREFETCH_H_
#define DMLCPU_EXECUTOR_STREAM_PREFETCH_H_

#include <algorithm>
#include <cstdint>

#include "core/portability.h"
#include "core/tuning.h"

namespace dmlcpu {
namespace internal {

// A piece of input the reader will touch, in reading order: `bytes` bytes upwards from address
// `first`, or (descending) downwards from `first`, then its highest byte.
struct InputSpan {
  uintptr_t first = 0;
  uint64_t bytes = 0;
  bool descending = false;
};

// The span of `count` elements read from `in` with a stride of at most a cache line.
inline InputSpan RowSpan(const uint8_t* in, int64_t in_stride_bytes, uint64_t count,
                         uint32_t elem_bytes) {
  const uint64_t abs_stride_bytes = static_cast<uint64_t>(
      in_stride_bytes < 0 ? -in_stride_bytes : in_stride_bytes);
  InputSpan span;
  span.first = reinterpret_cast<uintptr_t>(in);
  span.bytes = (count - 1) * abs_stride_bytes + elem_bytes;
  span.descending = in_stride_bytes < 0;
  if (span.descending) span.first += elem_bytes - 1;
  return span;
}

// Issues prefetches Tuning::kPrefetchAheadBytes ahead of the reader along the concatenation of
// the spans `Source::Next(InputSpan*)` yields (false when there are no more).
template <typename Source>
class StreamPrefetcher {
 public:
  explicit StreamPrefetcher(Source* source) : source_(source) {
    Issue(Tuning::kPrefetchAheadBytes);
  }
  // The reader has moved `bytes` further along the stream.
  void Advance(uint64_t bytes) { Issue(bytes); }

 private:
  void Issue(uint64_t bytes) {
    while (bytes != 0 && !done_) {
      if (span_.bytes == 0 && !source_->Next(&span_)) {
        done_ = true;
        return;
      }
      const uint64_t n = std::min(bytes, span_.bytes);
      // Every line holding one of the n bytes (a line shared with the previous piece is
      // requested again, which costs nothing).
      if (span_.descending) {
        const uintptr_t lowest_line = (span_.first - (n - 1)) & ~uintptr_t{63};
        for (uintptr_t line = span_.first & ~uintptr_t{63}; line >= lowest_line; line -= 64) {
          PrefetchRead(reinterpret_cast<const void*>(line));
          if (line == lowest_line) break;
        }
        span_.first -= n;
      } else {
        const uintptr_t end = span_.first + n;
        for (uintptr_t line = span_.first & ~uintptr_t{63}; line < end; line += 64) {
          PrefetchRead(reinterpret_cast<const void*>(line));
        }
        span_.first += n;
      }
      span_.bytes -= n;
      bytes -= n;
    }
  }

  Source* source_;
  InputSpan span_;
  bool done_ = false;
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_STREAM_PREFETCH_H_
