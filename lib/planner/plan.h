// SPDX-License-Identifier: Apache-2.0
// The immutable program Compile produces and Execute runs (docs/design.md). Pure data: no
// Highway, no TBB.
//
// A compiled operator is a Program: a short list of Steps over its input and output bindings.
// Every step of today's operators is an affine copy ("affine gather"), planned into one
// canonical form:
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
#include <vector>

#include "kernels/kernels.h"
#include "planner/geometry.h"
#include "planner/scatter_plan.h"

namespace dmlcpu {
namespace internal {

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

// What one row (the innermost loop) is, from the collapsed loops.
enum class KernelShape : uint8_t {
  kOneRun,         // K0: a single contiguous run
  kRowsOfRuns,     // K1: rows of contiguous runs
  kStridedInner,   // K2: strided innermost dimension
  kBlockGather,    // K3: one index tuple per row; the row is a (maybe strided) block copy
  kElementGather,  // K4: an index tuple per element of the row
};

// How the loops were reordered for the cache (TileForLocality).
enum class Tiling : uint8_t {
  kNone,
  kStridedTiles,    // K2 rows reordered so each input line is used whole while in L1
  kTransposeTiles,  // K2 true transpose: the last two loops form one 2-D tile per unit
  kRunTiles,        // K1 rows reordered so each far-apart input stream is read a tile at a time
  kStrips,          // K4 rows strip-mined so a strip of the input stays in L2
  kPackedStrips,    // kStrips, each strip first copied into a scratch slot (Plan::pack_bytes)
};

// How Execute walks the units of a step: chosen once by ChooseStrategy, switched on once per
// unit range by the executor.
enum class Strategy : uint8_t {
  kContiguousRun,   // K0: one run, split into pieces
  kRowsOfRuns,      // K1: copy_run per row (piece)
  kStridedRows,     // K2: copy_strided per row (piece), loops maybe reordered in cache tiles
  kTransposeTiles,  // K2 transpose: transpose_tile per unit
  kBlockRows,       // K3: one tuple resolved per row, the row's block copied
  kIndexedBlocks,   // K3, indices walk loops[L-2]: resolved in chunks, blocks by gather_blocks
  kElementRows,     // K4: chunks of indices resolved to offsets, then gathered
  kFusedRowGather,  // K4: gather_row clamps, scales and loads in one pass per row (piece)
  kSharedIndexRows,  // K4, every row reads the same indices: resolved once, reused
  kPackedStrips,    // K4 strips gathered from a packed copy; kElementRows without a slot
};

struct StorePolicy {
  // Non-temporal stores (rows with a contiguous output only): copy_run streams unfenced (the
  // executor fences once per unit range), strided rows stream from copy_strided_stream when it
  // can write them directly, other strided or gathered rows are staged in L1 and streamed.
  bool non_temporal = false;
  // Rows with their borders (RowBorders) that tile the output's lines densely, too large
  // for the cache: assembled in an L1 window in output order, whole lines streamed
  // (LineStager), the rows' input prefetched ahead. The row kernels keep regular stores.
  bool staged_lines = false;
};

struct PrefetchPolicy {
  // K0-K3: software prefetches a fixed distance ahead along the input spans, across row and
  // block boundaries (descending reads, index-chosen blocks), where hardware prefetchers lose it.
  bool input_stream = false;
  // K4: the rows' dense forward index stream is prefetched a few KiB ahead.
  bool index_stream = false;
  // K4: bytes of input one row can read from its row base, prefetched for a later row (the
  // next; two ahead for short rows sharing indices) while the current one is gathered; 0: none.
  uint64_t next_row_span_bytes = 0;
  // K4 element rows of at most Tuning::kMaxItemPrefetchRowItems items over a wide span: the
  // next row's indices are resolved and each of its items' lines prefetched into L2.
  bool next_row_items = false;
};

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
  bool parallel = false;        // false below the serial cutoff: never touch the thread pool
};

// Elements written just before and just after each output row, in the same pass as the row
// (PADDING's borders along the innermost dimension: one pass over each output line instead of a
// copy and then border steps). The row's output is contiguous; rows may be split into pieces
// (the first piece writes the left border, the last the right one).
struct RowBorders {
  static constexpr uint32_t kMaxCopiedItems = 8;  // per side, when copied from the source row
  uint32_t left_items = 0;   // 0 and 0: no borders
  uint32_t right_items = 0;
  bool fill = false;         // every border element is fill_bits (any count)
  uint64_t fill_bits = 0;    // little-endian, the low elem_bytes bytes
  // !fill: border element k copies the source element at this byte offset from the row's first
  // source element (an element of the same source row: inside the step's read extent).
  int64_t left_src_bytes[kMaxCopiedItems] = {};
  int64_t right_src_bytes[kMaxCopiedItems] = {};
  // Border rows of each line (the loop just outside the row, PADDING's next dimension):
  // `top_rows` rows just before the line's first row and `bottom_rows` just after its last, each
  // with its left and right borders, written by the unit range that writes that first / last
  // row. Only on plans that RunWholeRows or staged lines run (tiling none, one piece per row,
  // regular-store row kernels, no input-stream prefetch). !fill: border row k copies the
  // source row this many bytes from the line's first source row (a row of the same line).
  static constexpr uint32_t kMaxCopiedRows = 8;  // per side, when copied from the source line
  uint32_t top_rows = 0;
  uint32_t bottom_rows = 0;
  int64_t top_src_bytes[kMaxCopiedRows] = {};
  int64_t bottom_src_bytes[kMaxCopiedRows] = {};
};

// The plan of one affine step: loops, strategy, policies, partition and resolved kernels.
struct Plan {
  uint32_t elem_bytes = 0;
  kernels::IndexType index_type = kernels::IndexType::kUint32;  // with components

  int64_t in_base_bytes = 0;
  uint32_t loop_count = 1;
  Loop loops[kMaxRank];
  uint32_t component_count = 0;
  IndexComponent components[kMaxRank];

  KernelShape shape = KernelShape::kOneRun;
  Tiling tiling = Tiling::kNone;
  Strategy strategy = Strategy::kContiguousRun;
  StorePolicy store;
  PrefetchPolicy prefetch;
  // kIndexedBlocks: adjacent output blocks of >= kMinMergeBlockBytes whose sources are
  // adjacent too are copied as one run.
  bool merge_runs = false;
  // Set on every step of a co-run group (Step::co_run_with_next) whose steps all satisfy
  // CoRunsByRow (ProgramBuilder::CoRunIndependentSteps): the executor runs it row by row.
  bool co_run_by_row = false;
  // kPackedStrips: bytes of one packed strip (the gathered axis' dim_size rows of the strip's
  // row bytes, contiguous); 0 otherwise.
  uint64_t pack_bytes = 0;
  RowBorders borders;  // kContiguousRun, kRowsOfRuns and kStridedRows only
  Partition partition;

  // Kernels resolved at Compile time (null where the strategy calls none).
  const kernels::KernelSet* kernel_set = nullptr;
  kernels::CopyBytesFn copy_run = nullptr;
  kernels::CopyStridedFn copy_strided = nullptr;
  // With non-temporal stores and no input-stream prefetch, for rows the kernel streams itself
  // (kernels::StreamsDirectly of the innermost loop's input stride); else null.
  kernels::CopyStridedFn copy_strided_stream = nullptr;
  kernels::GatherFn gather = nullptr;
  kernels::GatherBlocksFn gather_blocks = nullptr;
  kernels::ResolveIndicesFn resolve = nullptr;
  kernels::TransposeTileFn transpose_tile = nullptr;
  // kFusedRowGather, and kPackedStrips whose rows have contiguous indices and output.
  kernels::GatherRowFn gather_row = nullptr;
};

// Whether a member of a co-run group copies whole rows on its own (rows of runs, one piece per
// row; no prefetch, tiles, borders or staging). A group of such steps runs row by row, short
// rows a few at a time (executor: RunCoRunRows).
inline bool CoRunsByRow(const Plan& plan) {
  const RowBorders& b = plan.borders;
  return plan.strategy == Strategy::kRowsOfRuns && plan.loop_count >= 2 &&
         plan.partition.pieces_per_row == 1 && !plan.prefetch.input_stream &&
         !plan.store.staged_lines && plan.tiling == Tiling::kNone &&
         b.left_items + b.right_items + b.top_rows + b.bottom_rows == 0;
}

// Strict-mode scan of the index tensor for one tuple element: the elements addressed by
// `loops` (sizes + index byte strides) from `offset_bytes`, each checked against dim_size.
struct IndexScan {
  uint32_t loop_count = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides_bytes[kMaxRank] = {};
  int64_t offset_bytes = 0;
  uint64_t dim_size = 1;
  uint32_t component = 0;
  uint32_t input_dim = 0;  // the InputTensor dimension it indexes (for messages)
};

// Every index a program reads, checked before any step runs (IndexPolicy::kStrict).
struct IndexScans {
  uint32_t indices_binding = 0;  // the input binding holding the indices
  kernels::IndexType index_type = kernels::IndexType::kUint32;
  uint32_t scan_count = 0;  // 0: nothing to check
  uint32_t tuple_size = 1;  // flat index position = tuple position * tuple_size + component
  IndexScan scans[kMaxRank];
  kernels::FindOutOfRangeFn find_out_of_range = nullptr;
};

enum class StepKind : uint8_t {
  // output[window] = source (affine copy or gather; Plan's canonical form).
  kAffineCopy,
  // output[window] = one constant element: an affine copy whose source is Step::fill_bits, read
  // with input stride 0 on every loop (the copy kernels broadcast it).
  kFill,
  // output[dest(indices, u)] = op(output[...], updates[u]) for every update u, in index order
  // (SCATTER, SCATTER_ND): Step::scatter, not Step::plan (scatter_plan.h).
  kScatter,
};

// Where an affine copy reads: an input binding, or an output binding that earlier steps of
// the same program wrote (TILE's doubling copies, PADDING's mirrored columns). The planner
// keeps such a step's read and write windows disjoint.
enum class StepSource : uint8_t { kInput, kOutput };

constexpr uint32_t kNoBinding = ~uint32_t{0};

struct Step {
  StepKind kind = StepKind::kAffineCopy;
  StepSource source = StepSource::kInput;
  uint32_t input_binding = 0;  // the source binding (an output binding with kOutput)
  uint32_t indices_binding = kNoBinding;
  uint32_t output_binding = 0;
  // Where the step's walk starts in its output binding, in bytes: its window's start, unless
  // OrientForInputStream turned a loop (its plan's in_base_bytes places the read the same way).
  int64_t out_base_bytes = 0;
  // kFill: the element's bit pattern, little-endian in the low elem_bytes bytes.
  uint64_t fill_bits = 0;
  // Skipped when Execute binds outputs[0] to inputs[Program::in_place_input] (the scatters'
  // copy of the input into the output).
  bool skip_in_place = false;
  // Runs interleaved with the next step, row by row where CoRunsByRow holds for the whole group,
  // else a grain of each in turn (their partitions have the same unit count, and no step of the
  // group reads what another writes): a SPLIT then reads its input front to back once instead of
  // once per output. At most kMaxCoRunSteps in a group.
  bool co_run_with_next = false;
  Plan plan;
  ScatterPlan scatter;  // kScatter: input_binding holds the updates
};

inline constexpr uint32_t kMaxCoRunSteps = 8;

// One binding of a program: its struct field ("InputTensors[2]") and validated tensor.
struct BindingInfo {
  std::string field;
  TensorInfo tensor;
};

struct Program {
  OpGeometry geometry;
  uint32_t input_count = 1;   // bindings Execute expects, in struct-field order
  uint32_t output_count = 1;
  std::vector<BindingInfo> inputs;   // input_count entries
  std::vector<BindingInfo> outputs;  // output_count entries
  // An input that outputs[0] may be bound to (the same pointer; the layouts were proven equal
  // at Compile), or kNoBinding: every overlap is an error.
  uint32_t in_place_input = kNoBinding;
  bool strict_indices = false;
  IndexScans index_scans;     // strict_indices only
  std::vector<Step> steps;    // run one after another, each parallel inside
  uint64_t max_pack_bytes = 0;  // the largest Plan::pack_bytes: scratch slot size, 0 for none
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_PLAN_H_
