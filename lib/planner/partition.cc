// Classification into kernel shapes, the work partition, and the strict-mode index scans.
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {
namespace {

// Below this many bytes moved, Execute runs inline and never touches TBB.
constexpr uint64_t kSerialCutoffBytes = 64 << 10;
// Rows moving more than this are split into pieces of about this size.
constexpr uint64_t kPieceBytes = 256 << 10;
// A parallel task moves at least this much.
constexpr uint64_t kGrainBytes = 32 << 10;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint32_t IndexBytes(kernels::IndexType type) {
  return type == kernels::IndexType::kInt32 || type == kernels::IndexType::kUint32 ? 4 : 8;
}

}  // namespace

const char* KernelShapeName(KernelShape shape) {
  switch (shape) {
    case KernelShape::kOneRun: return "K0 one contiguous run";
    case KernelShape::kRowsOfRuns: return "K1 rows of contiguous runs";
    case KernelShape::kStridedInner: return "K2 strided inner dimension";
    case KernelShape::kBlockGather: return "K3 block gather";
    case KernelShape::kElementGather: return "K4 element gather";
  }
  return "?";
}

KernelShape Classify(const Plan& plan) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  if (plan.component_count > 0) {
    return row.idx_stride_bytes != 0 ? KernelShape::kElementGather : KernelShape::kBlockGather;
  }
  const bool contiguous =
      row.out_stride_bytes == plan.elem_bytes && row.in_stride_bytes == plan.elem_bytes;
  if (!contiguous) return KernelShape::kStridedInner;
  return plan.loop_count == 1 ? KernelShape::kOneRun : KernelShape::kRowsOfRuns;
}

Partition MakePartition(const Plan& plan) {
  Partition p;
  const Loop& row = plan.loops[plan.loop_count - 1];
  p.row_items = static_cast<uint64_t>(row.size);
  p.rows = 1;
  for (uint32_t i = 0; i + 1 < plan.loop_count; ++i) p.rows *= static_cast<uint64_t>(plan.loops[i].size);

  const uint64_t index_bytes = plan.component_count ? IndexBytes(plan.index_type) : 0;
  uint64_t item_bytes = 2 * uint64_t{plan.elem_bytes};
  uint64_t row_overhead_bytes = 0;
  if (plan.shape == KernelShape::kElementGather) {
    item_bytes += plan.component_count * index_bytes;
  } else {
    row_overhead_bytes = plan.component_count * index_bytes;
  }
  const uint64_t row_bytes = p.row_items * item_bytes + row_overhead_bytes;
  p.bytes_moved = p.rows * row_bytes;
  p.parallel = p.bytes_moved >= kSerialCutoffBytes;

  // Split long rows; pieces start on multiples of 64 bytes of a contiguous output.
  const uint64_t align_items = plan.elem_bytes >= 64 ? 1 : 64 / plan.elem_bytes;
  if (p.parallel && row_bytes > kPieceBytes && p.row_items > align_items) {
    uint64_t pieces = CeilDiv(row_bytes, kPieceBytes);
    uint64_t items = CeilDiv(p.row_items, pieces);
    items = CeilDiv(items, align_items) * align_items;
    p.piece_items = items;
    p.pieces_per_row = CeilDiv(p.row_items, items);
  } else {
    p.piece_items = p.row_items;
    p.pieces_per_row = 1;
  }
  p.unit_count = p.rows * p.pieces_per_row;
  const uint64_t unit_bytes = p.piece_items * item_bytes + row_overhead_bytes;
  p.grain_units = unit_bytes >= kGrainBytes ? 1 : CeilDiv(kGrainBytes, unit_bytes);
  return p;
}

void BuildIndexScans(Plan* plan) {
  const OpGeometry& g = plan->geometry;
  const TensorInfo& idx = g.indices;
  const bool tuples =
      g.type == DML_OPERATOR_GATHER_ND || g.type == DML_OPERATOR_GATHER_ND1;
  // Tuple dimension excluded for GATHER_ND(1): each tuple element gets its own scan.
  const uint32_t dims = tuples ? idx.rank - 1 : idx.rank;
  plan->tuple_size = tuples ? idx.sizes[idx.rank - 1] : 1;
  plan->scan_count = plan->component_count;
  for (uint32_t c = 0; c < plan->component_count; ++c) {
    IndexScan& scan = plan->scans[c];
    scan = IndexScan();
    scan.component = c;
    scan.dim_size = plan->components[c].dim_size;
    scan.offset_bytes = plan->components[c].idx_offset_bytes;
    // Collapse like the main loops: row-major order (and so flat positions) is preserved.
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
