// Human-readable plan descriptions ("why is my slice slow").
#include <string>

#include "core/format.h"
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {
namespace {

std::string DescribeTensor(const char* field, const TensorInfo& t) {
  uint32_t strides[kMaxRank];
  for (uint32_t i = 0; i < t.rank; ++i) strides[i] = static_cast<uint32_t>(t.strides_elems[i]);
  return StrFormat("  %-8s %s sizes %s strides %s elems%s, TotalTensorSizeInBytes %llu\n", field,
                   DataTypeName(t.data_type), FormatList(t.sizes, t.rank).c_str(),
                   FormatList(strides, t.rank).c_str(), t.packed ? " (packed)" : "",
                   static_cast<unsigned long long>(t.total_bytes));
}

const char* IndexTypeName(kernels::IndexType type) {
  switch (type) {
    case kernels::IndexType::kInt32: return "INT32";
    case kernels::IndexType::kUint32: return "UINT32";
    case kernels::IndexType::kInt64: return "INT64";
    case kernels::IndexType::kUint64: return "UINT64";
  }
  return "?";
}

}  // namespace

std::string DescribePlan(const Plan& plan) {
  const OpGeometry& g = plan.geometry;
  std::string s = StrFormat("%s, %u-byte elements", g.name, plan.elem_bytes);
  if (g.has_indices) {
    s += StrFormat(", %s indices, %s policy", IndexTypeName(plan.index_type),
                   plan.strict_indices ? "strict" : "clamp");
  }
  s += "\n";
  s += DescribeTensor("input", g.input);
  if (g.has_indices) s += DescribeTensor("indices", g.indices);
  s += DescribeTensor("output", g.output);
  s += StrFormat("  collapsed to %u loop(s)%s, outermost first (size: out/in/idx byte strides):\n",
                 plan.loop_count, plan.tiled ? ", tiled for the cache" : "");
  for (uint32_t i = 0; i < plan.loop_count; ++i) {
    const Loop& l = plan.loops[i];
    s += StrFormat("    [%u] %lld: %lld / %lld / %lld\n", i, static_cast<long long>(l.size),
                   static_cast<long long>(l.out_stride_bytes),
                   static_cast<long long>(l.in_stride_bytes),
                   static_cast<long long>(l.idx_stride_bytes));
  }
  s += StrFormat("  input base offset %lld bytes\n", static_cast<long long>(plan.in_base_bytes));
  for (uint32_t c = 0; c < plan.component_count; ++c) {
    const IndexComponent& comp = plan.components[c];
    s += StrFormat("  index component %u: InputTensor dim %u (size %llu, pitch %lld bytes), at "
                   "tuple offset %lld bytes\n", c, comp.input_dim,
                   static_cast<unsigned long long>(comp.dim_size),
                   static_cast<long long>(comp.pitch_bytes),
                   static_cast<long long>(comp.idx_offset_bytes));
  }
  const Loop& row = plan.loops[plan.loop_count - 1];
  s += StrFormat("  kernel: %s%s, row of %lld items (%lld bytes written), %s stores, target %s\n",
                 KernelShapeName(plan.shape),
                 plan.transpose_tiles      ? " as 2-D transpose tiles of the last two loops"
                 : plan.merge_runs         ? ", indices resolved per chunk, runs merged"
                 : plan.indexed_blocks     ? ", indices resolved per chunk"
                 : plan.rows_share_indices ? ", indices resolved once for all rows"
                 : plan.fused_row_gather   ? ", indices clamped and gathered in one pass"
                                           : "",
                 static_cast<long long>(row.size),
                 static_cast<long long>(row.size * plan.elem_bytes),
                 plan.stream_stores ? "non-temporal" : "regular",
                 plan.kernel_set ? plan.kernel_set->name : "?");
  if (plan.stream_prefetch) {
    s += "  prefetch: software prefetch along the input stream, across row and block boundaries\n";
  }
  if (plan.pack_bytes != 0) {
    s += StrFormat("  packing: each strip (%llu bytes) copied into a scratch slot, then gathered "
                   "from there\n",
                   static_cast<unsigned long long>(plan.pack_bytes));
  }
  if (plan.row_prefetch_bytes != 0) {
    s += StrFormat("  prefetch: a later row's %llu input bytes while gathering a row (the next, or "
                   "for rows sharing indices below 8 KiB the one after it)\n",
                   static_cast<unsigned long long>(plan.row_prefetch_bytes));
  }
  if (plan.prefetch_next_row_items) {
    s += "  prefetch: the next row's items into L2 (its indices resolved ahead)\n";
  }
  const Partition& p = plan.partition;
  s += StrFormat(
      "  partition: %llu row(s) x %llu piece(s) of <= %llu items = %llu units, grain %llu "
      "units, %llu bytes moved, %s\n",
      static_cast<unsigned long long>(p.rows), static_cast<unsigned long long>(p.pieces_per_row),
      static_cast<unsigned long long>(p.piece_items), static_cast<unsigned long long>(p.unit_count),
      static_cast<unsigned long long>(p.grain_units),
      static_cast<unsigned long long>(p.bytes_moved),
      p.parallel ? "parallel" : "serial (below the cutoff)");
  return s;
}

}  // namespace internal
}  // namespace dmlcpu
