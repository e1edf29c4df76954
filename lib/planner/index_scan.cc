// SPDX-License-Identifier: Apache-2.0
// Strict-mode index scans: for each tuple element, the index tensor's elements in row-major
// order, collapsed like the main loops (which preserves row-major order, so flat positions).
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {

void BuildIndexScans(const OpGeometry& g, const Plan& plan, IndexScans* scans) {
  *scans = IndexScans();
  const TensorInfo& idx = g.indices;
  const bool tuples = g.type == DML_OPERATOR_GATHER_ND || g.type == DML_OPERATOR_GATHER_ND1;
  // Tuple dimension excluded for GATHER_ND(1): each tuple element gets its own scan.
  const uint32_t dims = tuples ? idx.rank - 1 : idx.rank;
  scans->index_type = g.index_type;
  scans->tuple_size = tuples ? idx.sizes[idx.rank - 1] : 1;
  scans->scan_count = plan.component_count;
  scans->find_out_of_range =
      kernels::BestKernels().find_out_of_range[static_cast<int>(g.index_type)];
  for (uint32_t c = 0; c < plan.component_count; ++c) {
    IndexScan& scan = scans->scans[c];
    scan = IndexScan();
    scan.component = c;
    scan.dim_size = plan.components[c].dim_size;
    scan.input_dim = plan.components[c].input_dim;
    scan.offset_bytes = plan.components[c].idx_offset_bytes;
    uint32_t count = 0;
    for (uint32_t d = 0; d < dims; ++d) {
      if (idx.sizes[d] == 1) continue;
      const int64_t size = idx.sizes[d];
      const int64_t stride = static_cast<int64_t>(idx.strides_elems[d]) * idx.elem_bytes;
      if (count > 0 && scan.strides_bytes[count - 1] == size * stride) {
        scan.sizes[count - 1] *= size;
        scan.strides_bytes[count - 1] = stride;
      } else {
        scan.sizes[count] = size;
        scan.strides_bytes[count] = stride;
        ++count;
      }
    }
    if (count == 0) {
      scan.sizes[0] = 1;
      scan.strides_bytes[0] = idx.elem_bytes;
      count = 1;
    }
    scan.loop_count = count;
  }
}

}  // namespace internal
}  // namespace dmlcpu
