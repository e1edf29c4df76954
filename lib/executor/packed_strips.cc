// SPDX-License-Identifier: Apache-2.0
// The unit engine's loop for Strategy::kPackedStrips (element gathers along an outer axis): each
// strip of the input is copied into a scratch slot, contiguous, and the rows gather from it.
// Single-threaded, allocation-free.
#include <algorithm>
#include <cstdint>

#include "core/portability.h"
#include "core/tuning.h"
#include "executor/executor.h"
#include "executor/odometer.h"
#include "executor/row_ops.h"

namespace dmlcpu {
namespace internal {
namespace {

// The packed path's prefetches (strip rows while packing, index rows while gathering) are a
// whole pitch apart and go to L2 (locality 1): into L1 they crowd out the gathers' own misses.
// Index rows go through kernels::PrefetchRowToL2, here and in gather_row.
constexpr int kPackPrefetchLocality = 1;

// Copies the strip starting at `src` (plan.components[0].dim_size rows of strip_bytes,
// pitch_bytes apart) into `packed`, contiguous, prefetching a few dozen rows ahead: the rows
// are a whole pitch apart, where no hardware prefetcher follows.
void PackStrip(const Plan& plan, uint8_t* packed, const uint8_t* src, int64_t pitch_bytes,
               uint64_t rows, uint64_t strip_bytes) {
  constexpr uint64_t kGroupRows = 16;
  constexpr uint64_t kAheadRows = Tuning::kPackAheadRows;
  int64_t offsets_bytes[kGroupRows];
  for (uint64_t r = 0; r < rows; r += kGroupRows) {
    const uint64_t n = std::min(kGroupRows, rows - r);
    for (uint64_t k = 0; k < n; ++k) {
      offsets_bytes[k] = static_cast<int64_t>(r + k) * pitch_bytes;
      // Rows past the end are never read (a prefetch never faults).
      const uintptr_t ahead = reinterpret_cast<uintptr_t>(src) +
                              static_cast<uintptr_t>(offsets_bytes[k] + kAheadRows * pitch_bytes);
      for (uint64_t off = 0; off < strip_bytes; off += 64) {
        PrefetchRead<kPackPrefetchLocality>(reinterpret_cast<const void*>(ahead + off));
      }
    }
    plan.gather_blocks(packed + r * strip_bytes, static_cast<int64_t>(strip_bytes), src,
                       offsets_bytes, n, strip_bytes, plan.kernel_set->copy_bytes,
                       /*merge_runs=*/false, /*prefetch_blocks=*/false);
  }
}

}  // namespace

// Strategy::kPackedStrips, strips gathered from a packed copy (plan.pack_bytes): the strip is
// packed into `scratch` whenever a row's input base differs from the packed one, and each row
// gathers from it with the packed row size as the pitch. Where gather_row applies, the rows of
// one strip along the loop above the row go to it in one call.
void RunPackedStrips(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                     uint8_t* scratch) {
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];
  const IndexComponent& comp = plan.components[0];
  const uint64_t strip_bytes = static_cast<uint64_t>(row.size) * plan.elem_bytes;
  const auto packed_pitch_bytes = static_cast<int64_t>(strip_bytes);
  // Each row's indices are a whole index row pitch from the last: prefetch them some rows
  // ahead along the loop above the row (past a strip's end that is a wasted prefetch only).
  constexpr int64_t kIndexAheadRows = Tuning::kPackedIndexAheadRows;
  const Loop* above = outer_count > 0 ? &plan.loops[outer_count - 1] : nullptr;
  kernels::RowPrefetch prefetch;
  prefetch.index_row_ahead_bytes =
      above != nullptr && row.idx_stride_bytes > 0 ? kIndexAheadRows * above->idx_stride_bytes
                                                   : 0;
  // Rows along `above` share the packed strip when it does not move the input.
  const bool batch_rows =
      plan.gather_row != nullptr && above != nullptr && above->in_stride_bytes == 0;
  Odometer rows(plan, outer_count, begin);
  bool packed = false;
  int64_t packed_in_off = 0;
  int64_t offsets_bytes[Tuning::kChunkItems];
  for (uint64_t unit = begin; unit < end;) {
    const RowOffsets& r = rows.offsets();
    if (!packed || r.in_off != packed_in_off) {
      PackStrip(plan, scratch, args.input + r.in_off, comp.pitch_bytes, comp.dim_size,
                strip_bytes);
      packed = true;
      packed_in_off = r.in_off;
    }
    uint8_t* out = args.output + r.out_off;
    const uint8_t* idx = args.indices + r.idx_off + comp.idx_offset_bytes;
    if (plan.gather_row != nullptr) {  // contiguous rows of indices and output
      const uint64_t n = batch_rows ? std::min(end - unit, rows.RowsLeftInLoop()) : 1;
      plan.gather_row(out, above != nullptr ? above->out_stride_bytes : 0, scratch,
                      row.in_stride_bytes, idx, above != nullptr ? above->idx_stride_bytes : 0,
                      static_cast<size_t>(n), static_cast<size_t>(row.size), comp.dim_size,
                      packed_pitch_bytes, &prefetch);
      unit += n;
      rows.Advance(n);
      continue;
    }
    if (prefetch.index_row_ahead_bytes != 0) {  // as gather_row does
      kernels::PrefetchRowToL2(
          reinterpret_cast<uintptr_t>(idx) + static_cast<uintptr_t>(prefetch.index_row_ahead_bytes),
          static_cast<size_t>(row.size) * static_cast<size_t>(row.idx_stride_bytes));
    }
    const uint8_t* in = scratch;
    for (uint64_t done = 0; done < static_cast<uint64_t>(row.size);) {
      const uint64_t n = std::min(Tuning::kChunkItems, static_cast<uint64_t>(row.size) - done);
      plan.resolve(idx, row.idx_stride_bytes, n, comp.dim_size, packed_pitch_bytes,
                   offsets_bytes, false);
      GatherChunk(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, offsets_bytes, n,
                  nullptr, done);
      done += n;
      const auto nn = static_cast<int64_t>(n);
      out += nn * row.out_stride_bytes;
      in += nn * row.in_stride_bytes;
      idx += nn * row.idx_stride_bytes;
    }
    ++unit;
    rows.Step();
  }
}

}  // namespace internal
}  // namespace dmlcpu
