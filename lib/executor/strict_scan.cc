// SPDX-License-Identifier: Apache-2.0
// The strict index policy's scan: every index a program reads, checked before any step runs,
// so that a bad index leaves the output untouched and the same one is named on every run.
#include "executor/executor.h"

namespace dmlcpu {
namespace internal {

bool ScanIndices(const IndexScans& scans, const uint8_t* indices, BadIndex* bad) {
  bool found = false;
  for (uint32_t s = 0; s < scans.scan_count; ++s) {
    const IndexScan& scan = scans.scans[s];
    const uint32_t outer_count = scan.loop_count - 1;
    const int64_t row_size = scan.sizes[outer_count];
    const int64_t row_stride = scan.strides_bytes[outer_count];
    uint64_t rows = 1;
    for (uint32_t d = 0; d < outer_count; ++d) rows *= static_cast<uint64_t>(scan.sizes[d]);
    int64_t coord[kMaxRank] = {};
    int64_t off = scan.offset_bytes;
    for (uint64_t r = 0; r < rows; ++r) {
      const size_t i = scans.find_out_of_range(indices + off, row_stride,
                                              static_cast<size_t>(row_size), scan.dim_size);
      if (i < static_cast<size_t>(row_size)) {
        const uint64_t tuple_position = r * static_cast<uint64_t>(row_size) + i;
        const uint64_t flat = tuple_position * scans.tuple_size + scan.component;
        if (!found || flat < bad->flat_position) {
          bad->flat_position = flat;
          bad->component = scan.component;
        }
        found = true;
        break;  // later rows of this component come after this one
      }
      for (uint32_t d = outer_count; d-- > 0;) {
        off += scan.strides_bytes[d];
        if (++coord[d] < scan.sizes[d]) break;
        coord[d] = 0;
        off -= scan.sizes[d] * scan.strides_bytes[d];
      }
    }
  }
  return !found;
}

}  // namespace internal
}  // namespace dmlcpu
