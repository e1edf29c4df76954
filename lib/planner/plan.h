// The immutable plan Compile produces and Execute runs. Pure data: no Highway, no TBB.
//
// Every operator of the family is planned into one canonical form, an "affine gather":
//
//   for every output coordinate c over loops[0..loop_count):
//     in_offset  = in_base_bytes + sum_d c[d] * loops[d].in_stride_bytes
//                + sum_j Clamp(indices[idx_offset + components[j].idx_offset_bytes])
//                        * components[j].pitch_bytes
//     idx_offset = sum_d c[d] * loops[d].idx_stride_bytes
//     output[sum_d c[d] * loops[d].out_stride_bytes] = input[in_offset]     (elem_bytes wide)
//
// A slice has no components; GATHER and GATHER_ELEMENTS have one; GATHER_ND(1) has one per
// tuple element. The innermost loop is the "row" a kernel processes in one call.
#ifndef DMLCPU_PLANNER_PLAN_H_
#define DMLCPU_PLANNER_PLAN_H_

#include <cstdint>
#include <string>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/status.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace internal {

constexpr uint32_t kMaxRank = 8;

// Scratch a compiled operator may hold for packed strips (Plan::pack_bytes per slot, one slot
// per thread of the device and two more): the planner narrows strips to stay within it.
constexpr uint64_t kMaxScratchBytes = uint64_t{16} << 20;

// One validated tensor, explicit strides even when the descriptor had none.
struct TensorInfo {
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
  uint32_t elem_bytes = 0;
  uint32_t rank = 0;
  uint32_t sizes[kMaxRank] = {};
  uint64_t strides_elems[kMaxRank] = {};
  bool packed = true;           // the descriptor's Strides was null
  uint64_t total_bytes = 0;     // TotalTensorSizeInBytes as declared
  uint64_t required_bytes = 0;  // DMLCalcBufferTensorSize (64-bit)
  uint32_t alignment_bytes = 0;  // GuaranteedBaseOffsetAlignment
};

// A descriptor after validation: everything the plan is built from, deep-copied.
struct OpGeometry {
  DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
  const char* name = "";  // "GATHER", "SLICE1", ...
  TensorInfo input, indices, output;
  bool has_indices = false;
  kernels::IndexType index_type = kernels::IndexType::kUint32;  // when has_indices
  uint32_t axis = 0;             // GATHER, GATHER_ELEMENTS
  uint32_t index_dimensions = 0;  // GATHER (k)
  uint32_t input_dims = 0, indices_dims = 0, batch_dims = 0;  // GATHER_ND(1): r, q, b
  int64_t slice_start[kMaxRank] = {};  // SLICE(1): input coordinate of output coordinate 0
  int64_t slice_step[kMaxRank] = {};   // SLICE(1): signed input step per output step
};

// Rows of up to this many items can take Plan::prefetch_next_row_items (the executor resolves
// them in one chunk).
inline constexpr int64_t kMaxItemPrefetchRowItems = 256;

struct Loop {
  int64_t size = 1;
  int64_t out_stride_bytes = 0;
  int64_t in_stride_bytes = 0;
  int64_t idx_stride_bytes = 0;
};

struct IndexComponent {
  uint64_t dim_size = 1;         // D: the indexed input dimension's size
  int64_t pitch_bytes = 0;       // input byte stride of that dimension
  int64_t idx_offset_bytes = 0;  // where this tuple element sits relative to the tuple
  uint32_t input_dim = 0;        // which InputTensor dimension (for messages)
};

// Kernel shapes (design.md section 3).
enum class KernelShape : uint8_t {
  kOneRun,         // K0: a single contiguous run
  kRowsOfRuns,     // K1: rows of contiguous runs
  kStridedInner,   // K2: strided innermost dimension
  kBlockGather,    // K3: one index tuple per row; the row is a (maybe strided) block copy
  kElementGather,  // K4: an index tuple per element of the row
};
const char* KernelShapeName(KernelShape shape);

// How Execute splits the work: units are (row, piece) pairs in row-major order.
struct Partition {
  uint64_t rows = 1;            // product of all loop sizes but the innermost
  uint64_t row_items = 1;       // innermost loop size
  uint64_t pieces_per_row = 1;  // > 1 splits long rows
  uint64_t piece_items = 1;     // items per piece (the last piece may be shorter)
  uint64_t unit_count = 1;      // rows * pieces_per_row
  uint64_t grain_units = 1;     // units per parallel task at least
  // Parallel tasks start on multiples of this (packed strips: the units that share one packed
  // strip, so that no two tasks pack the same strip); divides unit_count.
  uint64_t align_units = 1;
  uint64_t bytes_moved = 0;     // read + written, indices included
  bool parallel = false;        // false below the serial cutoff: never touch TBB
};

// Strict-mode scan of the index tensor for one tuple element: the elements addressed by
// `loops` (sizes + index byte strides) from `offset_bytes`, each checked against dim_size.
struct IndexScan {
  uint32_t loop_count = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides_bytes[kMaxRank] = {};
  int64_t offset_bytes = 0;
  uint64_t dim_size = 1;
  uint32_t component = 0;
};

struct Plan {
  OpGeometry geometry;
  bool strict_indices = false;
  kernels::IndexType index_type = kernels::IndexType::kUint32;
  uint32_t input_count = 1;  // bindings Execute expects
  uint32_t elem_bytes = 0;

  int64_t in_base_bytes = 0;
  uint32_t loop_count = 1;
  Loop loops[kMaxRank];
  uint32_t component_count = 0;
  IndexComponent components[kMaxRank];

  KernelShape shape = KernelShape::kOneRun;
  // Fast paths (set by ChooseFastPaths; the next three require whole rows per unit):
  //  - indexed_blocks: K3 whose second-innermost loop walks the indices (input stride 0) and
  //    whose row is one contiguous block: indices resolved in chunks, blocks copied with run
  //    merging (KernelSet::gather_blocks).
  //  - rows_share_indices: K4 whose outer loops all have index stride 0: each chunk of indices
  //    is resolved once and reused for every row.
  bool indexed_blocks = false;
  bool merge_runs = false;  // indexed_blocks: adjacent output blocks of >= kMinMergeBlockBytes
  bool rows_share_indices = false;
  // K4 rows of one index component read from the row's own base (input stride 0) with
  // contiguous indices and output, rows not sharing indices, over a span of at most 512 KiB:
  // each row, or each piece of a split row, is one pass of KernelSet::gather_row (clamp, scale
  // and load fused; no offsets array). Also the single row of a 1-loop plan.
  bool fused_row_gather = false;
  // K4 rows whose indices are a dense forward stream (stride 1 to 64 bytes, not tiled): the
  // executor or gather_row prefetches it a few KiB ahead, possibly into the next row's.
  bool index_stream_prefetch = false;
  // K4: bytes of input one row can read (from its row base), when small enough to prefetch a
  // later row's span while gathering the current one (the next row's; two rows ahead for rows
  // sharing indices below 8 KiB); 0 = no prefetch.
  uint64_t row_prefetch_bytes = 0;
  // K4 rows of at most kMaxItemPrefetchRowItems items (whole rows per unit, not fused, not
  // packed, not sharing indices) whose reads span more than 4 MiB (see ChooseFastPaths): before
  // gathering a row, the executor resolves the next row's indices and prefetches each item's
  // line into L2, so that more of the random DRAM misses are in flight than the row's own loads
  // keep.
  bool prefetch_next_row_items = false;
  // Software prefetch along the input stream (K0-K3 rows that read one compact span each, when
  // some input stride is negative or the rows are index-chosen blocks; see ChooseFastPaths):
  // the executor keeps prefetches a fixed distance ahead of its reads across row and block
  // boundaries, where the hardware prefetchers lose the stream.
  bool stream_prefetch = false;
  // The loops were reordered into cache tiles (see TileForLocality).
  bool tiled = false;
  // K4 strips (TileGatherStrips) gathered from a packed copy: bytes of one packed strip, the
  // gathered axis' dim_size rows of the strip's row bytes, contiguous; 0 = not packed. The
  // executor copies a strip into a scratch slot of the compiled operator when its rows start
  // (input base changes), then gathers from there; without a free slot it reads the input.
  uint64_t pack_bytes = 0;
  // A transposed copy: the last two loops form one 2-D tile per unit, copied by
  // KernelSet::transpose_tile (dst rows along loops[L-2], dst columns along loops[L-1]).
  bool transpose_tiles = false;
  Partition partition;
  // Non-temporal stores for large outputs (rows with a contiguous output only; see CompilePlan):
  // copy_run streams (unfenced: RunUnits fences once at its end), de-interleaved rows stream
  // from copy_strided_stream, other strided or gathered rows are staged in L1 and streamed from
  // there, and transpose_tile streams whole dst lines.
  bool stream_stores = false;

  uint32_t scan_count = 0;  // strict mode: one scan per tuple element
  uint32_t tuple_size = 1;  // flat index position = tuple position * tuple_size + component
  IndexScan scans[kMaxRank];

  // Kernels resolved at Compile time.
  const kernels::KernelSet* kernel_set = nullptr;
  kernels::CopyBytesFn copy_run = nullptr;
  kernels::CopyStridedFn copy_strided = nullptr;
  // With stream_stores and no stream_prefetch, for rows the kernel streams itself
  // (kernels::StreamsDirectly of the innermost loop's input stride); else null.
  kernels::CopyStridedFn copy_strided_stream = nullptr;
  kernels::GatherFn gather = nullptr;
  kernels::GatherBlocksFn gather_blocks = nullptr;
  kernels::ResolveIndicesFn resolve = nullptr;
  kernels::FindOutOfRangeFn find_out_of_range = nullptr;
  kernels::TransposeTileFn transpose_tile = nullptr;
  kernels::GatherRowFn gather_row = nullptr;  // fused_row_gather only
};

// ---- Pipeline stages (each a pure function) ----

// Reads and validates one tensor desc. `field` is the struct field name ("InputTensor").
// is_output enables output-only rules (no OWNED_BY_DML, no 0-stride or overlapping layout).
Status ReadTensor(const char* op_name, const char* field, const DML_TENSOR_DESC* desc,
                  bool is_output, TensorInfo* info);

// Validates every constraint of the spec for `desc` and fills `geometry`.
Status ValidateOperator(const DML_OPERATOR_DESC& desc, OpGeometry* geometry);

// Canonical (uncollapsed) form: one loop per output dimension, base offset, components.
void BuildCanonical(const OpGeometry& geometry, Plan* plan);

// Drops size-1 loops and merges neighbours that are contiguous in every operand. Returns
// the new loop count (>= 1). Worked example: a packed {8,64,2048,128} fp16 input sliced to
// [:, :, 512:1536, :] becomes loops {512 x 256 KiB-run}, i.e. sizes {512, 131072} elements.
uint32_t CollapseLoops(Loop* loops, uint32_t loop_count, uint32_t elem_bytes);

// Picks the kernel shape from the collapsed loops.
KernelShape Classify(const Plan& plan);

// Reorders loops into cache tiles where the row order would miss the cache on every element:
// K2 rows reading a transposed view (each input element on its own cache line) are tiled with
// the loop that walks the input contiguously; K4 rows gathering along an outer axis (e.g.
// GATHER_ELEMENTS axis 0) are strip-mined so a strip of the input stays in L2. Loop order
// never changes results: every output element is computed independently. No-op otherwise.
// concurrency: the device's threads (0 = unknown, planned as for 2); packed strips are kept
// narrow enough that every thread gets a scratch slot and a few strips of its own.
void TileForLocality(Plan* plan, uint32_t concurrency = 0);

// Decides the work split from the collapsed loops and the shape.
Partition MakePartition(const Plan& plan);

// Sets the fast-path flags (after MakePartition and after stream_stores is decided).
void ChooseFastPaths(Plan* plan);

// Builds the strict-mode scans of the index tensor.
void BuildIndexScans(Plan* plan);

// Validate + canonicalise + collapse + classify + partition + resolve kernels. concurrency: the
// threads the plan's Executes can use (Device::max_concurrency); 1 lets plain copies of large
// outputs stream (see the store policy in build.cc), many keep packed strips narrow (see
// TileForLocality), 0 (unknown) plans as for several (2).
Status CompilePlan(const DML_OPERATOR_DESC& desc, bool strict_indices, Plan* plan,
                   uint32_t concurrency = 0);

// Human-readable description (multi-line).
std::string DescribePlan(const Plan& plan);

// DMLCalcBufferTensorSize in 64-bit; 0 on unknown type or overflow.
uint64_t CalcTensorBytes(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t* sizes,
                         const uint32_t* strides);
// Element width in bytes (0 for unknown and for 4-bit types).
uint32_t ElementBytes(DML_TENSOR_DATA_TYPE type);
// 4 for 32-bit index types, 8 for 64-bit ones.
uint32_t IndexBytes(kernels::IndexType type);
const char* DataTypeName(DML_TENSOR_DATA_TYPE type);
const char* OperatorName(DML_OPERATOR_TYPE type);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_PLAN_H_
