// Canonical form (one loop per output dimension) and the Compile pipeline.
#include <algorithm>

#include "core/format.h"
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {
namespace {

int64_t StrideBytes(const TensorInfo& t, uint32_t dim) {
  // Element strides are < 2^32 and widths <= 8: the product fits easily.
  return static_cast<int64_t>(t.strides_elems[dim]) * t.elem_bytes;
}

}  // namespace

void BuildCanonical(const OpGeometry& g, Plan* plan) {
  const uint32_t n = g.output.rank;
  const TensorInfo& in = g.input;
  const TensorInfo& idx = g.indices;
  plan->elem_bytes = in.elem_bytes;
  plan->in_base_bytes = 0;
  plan->loop_count = n;
  plan->component_count = 0;
  for (uint32_t j = 0; j < n; ++j) {
    Loop& loop = plan->loops[j];
    loop = Loop();
    loop.size = g.output.sizes[j];
    loop.out_stride_bytes = StrideBytes(g.output, j);
  }
  auto add_component = [&](uint32_t input_dim, int64_t idx_offset_bytes) {
    IndexComponent& c = plan->components[plan->component_count++];
    c.dim_size = in.sizes[input_dim];
    c.pitch_bytes = StrideBytes(in, input_dim);
    c.idx_offset_bytes = idx_offset_bytes;
    c.input_dim = input_dim;
  };

  switch (g.type) {
    case DML_OPERATOR_SLICE:
    case DML_OPERATOR_SLICE1:
      for (uint32_t i = 0; i < n; ++i) {
        // A size-1 output dimension never steps (and validation does not bound a step it never
        // takes, so step * stride could overflow): its loop is dropped anyway.
        plan->loops[i].in_stride_bytes =
            g.output.sizes[i] == 1 ? 0 : g.slice_step[i] * StrideBytes(in, i);
        plan->in_base_bytes += g.slice_start[i] * StrideBytes(in, i);
      }
      break;
    case DML_OPERATOR_GATHER: {
      // Output dims: In[0, axis) ++ Idx[n-k, n) ++ In[axis+1, n), right-aligned.
      const int64_t axis = g.axis, k = g.index_dimensions;
      for (int64_t j = 0; j < static_cast<int64_t>(n); ++j) {
        Loop& loop = plan->loops[j];
        if (j > axis) {
          loop.in_stride_bytes = StrideBytes(in, static_cast<uint32_t>(j));
        } else if (j >= axis - k + 1) {
          loop.idx_stride_bytes =
              StrideBytes(idx, static_cast<uint32_t>(n - k + (j - (axis - k + 1))));
        } else if (j + k - 1 >= 0) {
          loop.in_stride_bytes = StrideBytes(in, static_cast<uint32_t>(j + k - 1));
        }
      }
      add_component(g.axis, 0);
      break;
    }
    case DML_OPERATOR_GATHER_ELEMENTS:
      for (uint32_t d = 0; d < n; ++d) {
        plan->loops[d].in_stride_bytes = d == g.axis ? 0 : StrideBytes(in, d);
        plan->loops[d].idx_stride_bytes = StrideBytes(idx, d);
      }
      add_component(g.axis, 0);
      break;
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1: {
      const uint32_t r = g.input_dims, q = g.indices_dims, b = g.batch_dims;
      const uint32_t t = idx.sizes[n - 1];
      const uint32_t m = (q - 1) + (r - b - t);
      for (uint32_t j = n - m; j < n; ++j) {
        const uint32_t i = j - (n - m);
        Loop& loop = plan->loops[j];
        if (i < b) {
          loop.in_stride_bytes = StrideBytes(in, n - r + i);
          loop.idx_stride_bytes = StrideBytes(idx, n - q + i);
        } else if (i < q - 1) {
          loop.idx_stride_bytes = StrideBytes(idx, n - q + i);
        } else {
          loop.in_stride_bytes = StrideBytes(in, n - r + b + t + (i - (q - 1)));
        }
      }
      for (uint32_t c = 0; c < t; ++c) add_component(n - r + b + c, c * StrideBytes(idx, n - 1));
      break;
    }
    default:
      break;
  }
}

Status CompilePlan(const DML_OPERATOR_DESC& desc, bool strict_indices, Plan* plan,
                   uint32_t concurrency) {
  *plan = Plan();
  Status s = ValidateOperator(desc, &plan->geometry);
  if (!s.ok()) return s;
  const OpGeometry& g = plan->geometry;
  plan->strict_indices = strict_indices && g.has_indices;
  plan->input_count = g.has_indices ? 2 : 1;
  plan->index_type = g.index_type;

  BuildCanonical(g, plan);
  plan->loop_count = CollapseLoops(plan->loops, plan->loop_count, plan->elem_bytes);
  plan->shape = Classify(*plan);
  TileForLocality(plan, concurrency);
  plan->shape = Classify(*plan);
  plan->partition = MakePartition(*plan);

  // Non-temporal stores skip the read-for-ownership of every output line, but leave the output
  // in DRAM rather than in the caches, and a warm destination is written faster with regular
  // stores. Measured here (32 MiB last-level cache): an 8 MiB embedding lookup streamed gained
  // cold (0.54 -> 0.71 of the best copy on 1 thread, 0.71 -> 0.82 on 2) but ran at 88 instead
  // of 186 GB/s when called repeatedly on 2 threads (half of PyTorch's speed there). So
  // outputs are streamed when they cannot stay in the last-level cache anyway. Rows that are
  // not plain copies are then written by copy_strided_stream (forward de-interleaves) or
  // assembled in an L1 staging buffer and streamed from there (other strided reads, element
  // gathers); transposes stream each dst line of a block as they assemble it (regular stores
  // there wait for a read of every dst line, the lines a whole row pitch apart, which no
  // prefetcher follows: a {4096,4096} fp32 transpose with the portable 16 x 16 kernel ran at
  // 12-13 instead of 6-10 GB/s on 1 thread streamed, and the per-target line-block kernel
  // streamed runs at 23-24 GB/s, 40-50 on 2 threads).
  //
  // Rows that are plain copies (contiguous runs, index-chosen blocks) also stream when the
  // operator's footprint (output + the input lines it reads: at most the output's size again)
  // does not fit the cache: then even repeated calls find the output evicted, and pay a DRAM read
  // for every line regular stores write. Measured (1 thread / 2 threads; cold ratio, then warm
  // GB/s): 10000 2 KiB blocks (20 MiB out, 40 MiB footprint): 0.47 -> 0.61 / 0.68 -> 0.76, warm
  // 36 -> 62 / 70 -> 79. A footprint that just fits is not streamed: 2048 8 KiB blocks (16 MiB
  // out, 32 MiB) gained cold (0.56 -> 0.65 / 0.69 -> 0.80) but lost warm on 2 threads (105-154
  // -> 86-89 GB/s, the non-temporal ceiling), and 8 MiB out of 8 MiB of rows halved it.
  // Re-measured with the executor's shorter prefetch steps, the trade is the same: streaming
  // the 32 MiB footprint gains cold (0.53 -> 0.89 / 0.76 -> 0.82) and 1-thread repeated calls
  // (56 -> 79 GB/s), but 2-thread repeated calls drop to that ceiling (110-160 -> 86-88 GB/s,
  // below PyTorch's 92-137 there); 16000 1 KiB blocks (16 MiB out, 24 MiB) 0.48 -> 0.95 / 0.83
  // -> 1.00 cold, 151 -> 88 GB/s repeated on 2 threads.
  //
  // Rows the strided kernel streams itself (forward de-interleaves of k = 2..4 elements:
  // StreamsDirectly) follow the same rule; they read every line of k times the output's bytes.
  // Of {4096,4096} fp32: [:, 1::3] (22 MB out, 86 MB footprint) 0.30 -> 0.35 / 0.38 -> 0.43;
  // [::2, ::2] (16 MiB out, 48 MiB) 0.36 -> 0.36 / 0.48 -> 0.52. Rows that would be staged
  // through an L1 buffer to stream lose at these sizes ([::2, ::2] staged: 0.37 -> 0.24), so
  // they keep to the output-size rule. One exception: de-interleaved rows under a descending
  // outer loop take the stream prefetcher, which copy_strided_stream does not serve (below), so
  // they are staged under the footprint rule, and there staging wins: {2048,4096} fp32
  // [::-1, ::2] (16 MiB out, 48 MiB footprint), regular stores -> staged, cold, against one
  // thread's NT copy: 0.36 -> 0.56 on 1 thread, 0.44-0.47 -> 0.59-0.61 on 2; repeated calls
  // 23-27 -> 31-35 GB/s / 31-34 -> 32-46.
  //
  // On one thread, plain-copy and de-interleaved rows already stream where their footprint
  // exceeds half the cache: one core's regular stores to such outputs wait for a DRAM read of
  // nearly every line even on repeated calls (the other tenants of the shared cache leave us
  // little more than half of it), and one core stays below the non-temporal ceiling that made
  // streaming lose on two. Measured on 1 thread, cold ratio and repeated GB/s: 8 x 2000 1 KiB
  // blocks of GATHER_ND1 (16 MB out, 25 MB footprint) 0.53-0.55 -> 0.88-0.99, 43 -> 80 GB/s;
  // the {128256,4096} fp16 lookup (32 MiB) 0.57-0.60 -> 0.71-0.78, 42 -> 46-73. The 8 MiB
  // lookup (16 MiB: half, not more) gained cold (0.51-0.59 -> 0.73-0.84) but lost repeated
  // calls (80-89 -> 74-78 GB/s, PyTorch's speed there): it keeps regular stores.
  //
  // Element gathers (K4) with rows of at least 256 bytes stream from a quarter of the cache on.
  // They load element by element, so even warm they write far below the non-temporal ceiling
  // that made streamed plain copies lose repeated calls, and a cold destination then costs them
  // a DRAM read per line for nothing. GATHER of 512 ids along axis 1 of {4096,1024} fp32
  // (8 MiB out), cold, median of 3: 0.33 -> 0.35 on 1 thread, 0.46 -> 0.51 on 2; repeated calls
  // unchanged (21-23 / 38-44 GB/s). Strip-tiled rows are strips: 4-line packed strips (256
  // bytes) stream under this rule too, about even with regular stores where measured (16 MiB
  // out of {4096,4096} fp32 and of {4096,2048} fp64, repeated calls, 1 thread / 2 threads: 9.6 /
  // 11.5-18.7 vs 9.4-9.6 / 11.1-17.8 GB/s, and 8.9-9.1 / 16.5-17.0 vs 8.0-8.3 / 11.1-15.7).
  constexpr uint64_t kStreamThresholdBytes = uint64_t{32} << 20;
  constexpr uint64_t kElementStreamBytes = kStreamThresholdBytes / 4;
  // Rows shorter than this are left to regular stores under that rule: staged, they would
  // stream only the few whole lines inside each (unmeasured; the 32 MiB rule still applies).
  constexpr uint64_t kMinElementStreamRowBytes = 256;
  const Loop& row = plan->loops[plan->loop_count - 1];
  const uint64_t out_bytes = g.output.required_bytes;
  const bool footprint_rows = plan->shape != KernelShape::kElementGather &&
                              kernels::StreamsDirectly(row.in_stride_bytes, plan->elem_bytes);
  const uint64_t read_per_out = footprint_rows ? row.in_stride_bytes / plan->elem_bytes : 1;
  const uint64_t footprint_bytes =
      out_bytes + std::min(g.input.required_bytes, read_per_out * out_bytes);
  // The footprint limit: the cache, or half of it on one thread (above).
  const uint64_t footprint_limit_bytes =
      concurrency == 1 ? kStreamThresholdBytes / 2 : kStreamThresholdBytes;
  plan->stream_stores = row.out_stride_bytes == plan->elem_bytes &&
                        (out_bytes >= kStreamThresholdBytes ||
                         (footprint_rows && footprint_bytes > footprint_limit_bytes) ||
                         (plan->shape == KernelShape::kElementGather &&
                          out_bytes >= kElementStreamBytes &&
                          static_cast<uint64_t>(row.size) * plan->elem_bytes >=
                              kMinElementStreamRowBytes));
  ChooseFastPaths(plan);
  if (plan->strict_indices) BuildIndexScans(plan);

  const kernels::KernelSet& set = kernels::BestKernels();
  const int slot = kernels::WidthSlot(plan->elem_bytes);
  plan->kernel_set = &set;
  plan->copy_run = plan->stream_stores ? set.copy_bytes_stream_unfenced : set.copy_bytes;
  plan->copy_strided = set.copy_strided[slot];
  // Not with the stream prefetcher: its steps would leave each step's last vector to the
  // kernel's scalar tail (it must not read past the step), regular stores to DRAM lines.
  plan->copy_strided_stream =
      plan->stream_stores && !plan->stream_prefetch &&
              kernels::StreamsDirectly(row.in_stride_bytes, plan->elem_bytes)
          ? set.copy_strided_stream[slot]
          : nullptr;
  plan->gather = set.gather[slot];
  plan->gather_blocks = set.gather_blocks;
  plan->resolve = set.resolve[static_cast<int>(plan->index_type)];
  plan->find_out_of_range = set.find_out_of_range[static_cast<int>(plan->index_type)];
  plan->transpose_tile =
      plan->stream_stores ? set.transpose_tile_stream[slot] : set.transpose_tile[slot];
  const int index_slot = static_cast<int>(plan->index_type);
  // Fused rows, and packed strips whose rows have contiguous indices and output.
  const Loop& last = plan->loops[plan->loop_count - 1];
  const bool packed_rows = plan->pack_bytes != 0 && last.out_stride_bytes == plan->elem_bytes &&
                           last.idx_stride_bytes == IndexBytes(plan->index_type);
  plan->gather_row = !plan->fused_row_gather && !packed_rows ? nullptr
                     : plan->stream_stores ? set.gather_row_stream[slot][index_slot]
                                           : set.gather_row[slot][index_slot];
  return Status::Ok();
}

}  // namespace internal
}  // namespace dmlcpu
