// SPDX-License-Identifier: Apache-2.0
// The scatter engine below the API: ValidateScatter -> BuildScatterPlan -> destination slices,
// against the naive reference (tests/reference/reference_scatter.cc). Random shapes of ranks
// 1-8, every element width, strided/broadcast operands, strided outputs with gaps, heavy
// duplicates, out-of-range indices (dropped), every reduction; the same bytes for 1, 2, 3 and 7
// slices run one after another, and for the TBB executor with 4 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "executor/executor.h"
#include "executor/scratch_pool.h"
#include "kernels/scatter_kernels.h"
#include "planner/op_scatter.h"
#include "reference/reference_scatter.h"

namespace dmlcpu {
namespace internal {
namespace {

using dmlcpu_test::RefReduction;
using dmlcpu_test::RefScatterOptions;

struct Tensor {
  DML_BUFFER_TENSOR_DESC buffer = {};
  DML_TENSOR_DESC desc = {};
  std::vector<uint32_t> sizes, strides;
  std::vector<uint8_t> data;
};

void Describe(Tensor* t, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
              std::vector<uint32_t> strides, uint32_t slack_bytes) {
  t->sizes = std::move(sizes);
  t->strides = std::move(strides);
  t->buffer.DataType = type;
  t->buffer.DimensionCount = static_cast<uint32_t>(t->sizes.size());
  t->buffer.Sizes = t->sizes.data();
  t->buffer.Strides = t->strides.empty() ? nullptr : t->strides.data();
  t->buffer.TotalTensorSizeInBytes =
      dmlcpu_test::MinimumTensorSizeBytes(type, t->buffer.DimensionCount, t->buffer.Sizes,
                                          t->buffer.Strides) + slack_bytes;
  t->desc = {DML_TENSOR_TYPE_BUFFER, &t->buffer};
  t->data.assign(t->buffer.TotalTensorSizeInBytes, 0);
}

std::vector<uint32_t> RandomStrides(std::mt19937_64& rng, const std::vector<uint32_t>& sizes,
                                    bool allow_broadcast) {
  const uint32_t mode = rng() % 4;
  if (mode == 0) return {};
  // A random permutation of the dimensions, each stride past the extent of the inner ones,
  // with gaps; inputs may broadcast (stride 0).
  std::vector<uint32_t> order(sizes.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (mode == 2) std::shuffle(order.begin(), order.end(), rng);
  std::vector<uint32_t> strides(sizes.size());
  uint64_t extent = 1;
  for (size_t k = order.size(); k-- > 0;) {
    const uint32_t d = order[k];
    if (allow_broadcast && mode == 3 && rng() % 3 == 0) {
      strides[d] = 0;
      continue;
    }
    strides[d] = static_cast<uint32_t>(extent + rng() % 2);
    extent = strides[d] * uint64_t{sizes[d]};
  }
  return strides;
}

const DML_TENSOR_DATA_TYPE kDataTypes[] = {
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_FLOAT64};
const DML_TENSOR_DATA_TYPE kIndexTypes[] = {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                            DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64};

struct Case {
  DML_OPERATOR_TYPE type;
  Tensor input, indices, updates, output;
  DML_SCATTER_OPERATOR_DESC elements = {};
  DML_SCATTER_ND_OPERATOR_DESC nd = {};
  DML_OPERATOR_DESC desc = {};
  RefScatterOptions options;
  std::string text;
};

void FillRandom(std::mt19937_64& rng, std::vector<uint8_t>* bytes) {
  for (auto& b : *bytes) b = static_cast<uint8_t>(rng());
}

// Index values: mostly in [-D, D) (signed) or [0, D), a few just outside, heavy duplicates.
void FillIndices(std::mt19937_64& rng, Tensor* t, const std::vector<uint64_t>& dims_per_component,
                 uint32_t tuple, bool allow_out_of_range) {
  const auto type = t->buffer.DataType;
  const uint32_t width = dmlcpu_test::DataTypeSizeBytes(type);
  const bool is_signed = dmlcpu_test::IsSignedIndexDataType(type);
  // Write every element slot of the buffer by its flat element number: slots past the tensor
  // hold values too, harmless.
  const size_t count = t->data.size() / width;
  const uint64_t few = 1 + rng() % 3;  // small value ranges make duplicates
  for (size_t e = 0; e < count; ++e) {
    // The tuple component of an element slot is only known for packed/strided layouts through
    // the coordinates; use the smallest dimension of all components to stay in range.
    uint64_t dim = dims_per_component[0];
    for (uint64_t d : dims_per_component) dim = std::min(dim, d);
    (void)tuple;
    int64_t v = static_cast<int64_t>(rng() % std::min<uint64_t>(dim, few * 2));
    if (is_signed && rng() % 3 == 0) v -= static_cast<int64_t>(dim);
    if (allow_out_of_range && rng() % 16 == 0) v = is_signed && rng() % 2 ? -static_cast<int64_t>(dim) - 1 - static_cast<int64_t>(rng() % 3) : static_cast<int64_t>(dim + rng() % 3);
    if (width == 4) {
      const auto w = static_cast<uint32_t>(v);
      std::memcpy(t->data.data() + e * 4, &w, 4);
    } else {
      std::memcpy(t->data.data() + e * 8, &v, 8);
    }
  }
}

std::unique_ptr<Case> RandomCase(std::mt19937_64& rng) {
  auto c = std::make_unique<Case>();
  c->type = rng() % 2 ? DML_OPERATOR_SCATTER : DML_OPERATOR_SCATTER_ND;
  const auto dtype = kDataTypes[rng() % (sizeof(kDataTypes) / sizeof(kDataTypes[0]))];
  const auto itype = kIndexTypes[rng() % 4];
  const uint32_t n = 1 + rng() % 8;
  const uint64_t budget = n <= 2 ? 40 : n <= 4 ? 6 : 3;
  std::vector<uint32_t> in_sizes(n);
  for (auto& s : in_sizes) s = static_cast<uint32_t>(1 + rng() % budget);
  std::vector<uint32_t> idx_sizes, upd_sizes;
  std::vector<uint64_t> dims;
  uint32_t tuple = 1;
  if (c->type == DML_OPERATOR_SCATTER) {
    const uint32_t axis = rng() % n;
    idx_sizes = in_sizes;
    idx_sizes[axis] = static_cast<uint32_t>(1 + rng() % (budget * 2));
    upd_sizes = idx_sizes;
    dims = {in_sizes[axis]};
    c->elements.Axis = axis;
    c->text = "SCATTER axis " + std::to_string(axis);
  } else {
    const uint32_t r = 1 + rng() % n;
    for (uint32_t i = 0; i + r < n; ++i) in_sizes[i] = 1;
    tuple = 1 + rng() % r;
    // q - 1 + r - t <= n  ->  q <= n + 1 - r + t, and q <= n.
    const uint32_t q_max = std::min(n, n + 1 - r + tuple);
    const uint32_t q = 1 + rng() % q_max;
    idx_sizes.assign(n, 1);
    for (uint32_t i = n - q; i + 1 < n; ++i) idx_sizes[i] = static_cast<uint32_t>(1 + rng() % budget);
    idx_sizes[n - 1] = tuple;
    const uint32_t m = (q - 1) + (r - tuple);
    upd_sizes.assign(n - m, 1);
    for (uint32_t i = n - q; i + 1 < n; ++i) upd_sizes.push_back(idx_sizes[i]);
    for (uint32_t i = n - r + tuple; i < n; ++i) upd_sizes.push_back(in_sizes[i]);
    for (uint32_t j = 0; j < tuple; ++j) dims.push_back(in_sizes[n - r + j]);
    c->nd.InputDimensionCount = r;
    c->nd.IndicesDimensionCount = q;
    c->text = "SCATTER_ND r " + std::to_string(r) + " q " + std::to_string(q);
  }
  Describe(&c->input, dtype, in_sizes, RandomStrides(rng, in_sizes, true), rng() % 8);
  Describe(&c->indices, itype, idx_sizes, RandomStrides(rng, idx_sizes, true), rng() % 8);
  Describe(&c->updates, dtype, upd_sizes, RandomStrides(rng, upd_sizes, true), rng() % 8);
  Describe(&c->output, dtype, in_sizes, RandomStrides(rng, in_sizes, false), rng() % 16);
  FillRandom(rng, &c->input.data);
  FillRandom(rng, &c->updates.data);
  FillRandom(rng, &c->output.data);  // stride gaps and tail must come back unchanged
  FillIndices(rng, &c->indices, dims, tuple, rng() % 2 == 0);
  const bool arithmetic = true;
  c->options.reduction = arithmetic ? static_cast<RefReduction>(rng() % 5) : RefReduction::kNone;
  c->options.uint16_as_bfloat16 = dtype == DML_TENSOR_DATA_TYPE_UINT16 && rng() % 2;
  if (c->type == DML_OPERATOR_SCATTER) {
    c->elements.InputTensor = &c->input.desc;
    c->elements.IndicesTensor = &c->indices.desc;
    c->elements.UpdatesTensor = &c->updates.desc;
    c->elements.OutputTensor = &c->output.desc;
    c->desc = {c->type, &c->elements};
  } else {
    c->nd.InputTensor = &c->input.desc;
    c->nd.IndicesTensor = &c->indices.desc;
    c->nd.UpdatesTensor = &c->updates.desc;
    c->nd.OutputTensor = &c->output.desc;
    c->desc = {c->type, &c->nd};
  }
  c->text += " type " + std::string(dmlcpu_test::DataTypeName(dtype)) + " idx " +
             dmlcpu_test::DataTypeName(itype) + " in " + dmlcpu_test::SizesToString(in_sizes) +
             " idx " + dmlcpu_test::SizesToString(idx_sizes) + " reduction " +
             std::to_string(static_cast<int>(c->options.reduction)) +
             (c->options.uint16_as_bfloat16 ? " bf16" : "");
  return c;
}

std::vector<uint8_t> RunReference(const Case& c, std::vector<uint8_t> output) {
  dmlcpu_test::ReferenceResult r =
      c.type == DML_OPERATOR_SCATTER
          ? dmlcpu_test::ReferenceScatter(c.elements, c.input.data.data(), c.indices.data.data(),
                                          c.updates.data.data(), output.data(), c.options)
          : dmlcpu_test::ReferenceScatterNd(c.nd, c.input.data.data(), c.indices.data.data(),
                                            c.updates.data.data(), output.data(), c.options);
  EXPECT_TRUE(r.ok) << r.error;
  return output;
}

// Copies the input into the output element by element (what the program's copy step does).
void CopyInput(const ScatterGeometry& g, const uint8_t* in, uint8_t* out) {
  const uint32_t n = g.output.rank;
  std::vector<uint64_t> coord(n, 0);
  while (true) {
    uint64_t io = 0, oo = 0;
    for (uint32_t d = 0; d < n; ++d) {
      io += coord[d] * g.input.strides_elems[d];
      oo += coord[d] * g.output.strides_elems[d];
    }
    std::memmove(out + oo * g.output.elem_bytes, in + io * g.input.elem_bytes,
                 g.output.elem_bytes);
    uint32_t d = n;
    while (d-- > 0) {
      if (++coord[d] < g.output.sizes[d]) break;
      coord[d] = 0;
    }
    if (d == UINT32_MAX) break;
  }
}

// The one-pass reductions serve the 32/64-bit types with one index per item; FLOAT16, 8/16-bit
// integers and tuples keep resolve + apply_elems.
TEST(ScatterEngine, PlanPicksTheOnePassReduction) {
  const auto plan_for = [](DML_TENSOR_DATA_TYPE type, bool nd) {
    Tensor input, indices, updates, output;
    Describe(&input, type, {64, 8}, {}, 0);
    Describe(&output, type, {64, 8}, {}, 0);
    Describe(&indices, DML_TENSOR_DATA_TYPE_INT64, {100, nd ? 1u : 8u}, {}, 0);
    Describe(&updates, type, {100, 8}, {}, 0);
    DML_SCATTER_OPERATOR_DESC elements = {&input.desc, &indices.desc, &updates.desc,
                                          &output.desc, 0};
    DML_SCATTER_ND_OPERATOR_DESC tuples = {&input.desc, &indices.desc, &updates.desc,
                                           &output.desc, 2, 2};
    const DML_OPERATOR_DESC desc = nd ? DML_OPERATOR_DESC{DML_OPERATOR_SCATTER_ND, &tuples}
                                      : DML_OPERATOR_DESC{DML_OPERATOR_SCATTER, &elements};
    ScatterGeometry g;
    EXPECT_TRUE(ValidateScatter(desc, &g).ok());
    ScatterSettings settings;
    settings.reduction = kernels::ScatterReduction::kAdd;
    ScatterPlan plan;
    EXPECT_TRUE(BuildScatterPlan(g, settings, &plan).ok());
    return plan;
  };
  EXPECT_NE(plan_for(DML_TENSOR_DATA_TYPE_FLOAT32, false).apply_indexed_reduce, nullptr);
  EXPECT_NE(plan_for(DML_TENSOR_DATA_TYPE_INT64, false).apply_indexed_reduce, nullptr);
  EXPECT_EQ(plan_for(DML_TENSOR_DATA_TYPE_FLOAT16, false).apply_indexed_reduce, nullptr);
  EXPECT_EQ(plan_for(DML_TENSOR_DATA_TYPE_INT8, false).apply_indexed_reduce, nullptr);
  EXPECT_EQ(plan_for(DML_TENSOR_DATA_TYPE_FLOAT32, true).apply_indexed_reduce, nullptr);
}

TEST(ScatterEngine, RandomAgainstReferenceForEverySliceCount) {
  std::mt19937_64 rng(20261126);
  ExecutorOptions executor_options;
  executor_options.max_threads = 4;
  Executor executor(executor_options);
  int checked = 0;
  // Plans with one tuple per row by loop count (1, 2, 3 or more): the executor walks each
  // differently (a single row, one line, lines under an odometer).
  int tuple_rows[3] = {};
  int owned = 0;  // plans whose slices own destinations through a table
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::unique_ptr<Case> c = RandomCase(rng);
    SCOPED_TRACE(c->text);
    ScatterGeometry g;
    Status s = ValidateScatter(c->desc, &g);
    ASSERT_TRUE(s.ok()) << s.message();
    ScatterSettings settings;
    settings.reduction = static_cast<kernels::ScatterReduction>(c->options.reduction);
    settings.uint16_as_bfloat16 = c->options.uint16_as_bfloat16;
    settings.concurrency = 4;
    settings.serial_cutoff_bytes = 0;  // every case may run in slices
    ScatterPlan plan;
    s = BuildScatterPlan(g, settings, &plan);
    ASSERT_TRUE(s.ok()) << s.message();
    if (plan.tuple_per_row) ++tuple_rows[std::min<uint32_t>(plan.loop_count, 3) - 1];
    const std::vector<uint8_t> expected = RunReference(*c, c->output.data);
    for (uint64_t slices : {1, 2, 3, 7}) {
      std::vector<uint8_t> out = c->output.data;
      CopyInput(g, c->input.data.data(), out.data());
      const ScatterArgs args = {out.data(), c->updates.data.data(), c->indices.data.data()};
      for (uint64_t k = 0; k < slices; ++k) RunScatterSlice(plan, args, k, slices);
      ASSERT_EQ(out, expected) << "slices " << slices;
      if (plan.owner_slots == 0 || slices == 1) continue;
      // The same slices owning destinations through a table; the slots no update reaches keep
      // whatever they held (here: random slice numbers).
      std::vector<uint8_t> owners(plan.owner_slots);
      for (uint8_t& o : owners) o = static_cast<uint8_t>(rng() % slices);
      out = c->output.data;
      CopyInput(g, c->input.data.data(), out.data());
      ScatterArgs owned_args = args;
      owned_args.output = out.data();
      RecordScatterOwners(plan, owned_args, slices, owners.data());
      owned_args.owners = owners.data();
      for (uint64_t k = 0; k < slices; ++k) RunScatterSlice(plan, owned_args, k, slices);
      ASSERT_EQ(out, expected) << "slices " << slices << " with owners";
    }
    owned += plan.owner_slots != 0;
    // The executor, without scratch (key ranges) and with it (the owner table or the block).
    ScratchPool pool(std::max<uint64_t>({plan.owner_slots, plan.block_bytes, 1}), 4);
    for (ScratchPool* scratch : {static_cast<ScratchPool*>(nullptr), &pool}) {
      std::vector<uint8_t> out = c->output.data;
      CopyInput(g, c->input.data.data(), out.data());
      executor.RunScatter(plan, {out.data(), c->updates.data.data(), c->indices.data.data(),
                                 nullptr, scratch});
      ASSERT_EQ(out, expected) << "executor" << (scratch ? " with scratch" : "");
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3000);
  EXPECT_GT(owned, 0);  // few here: OwnersKeepTheLastUpdate covers them
  EXPECT_GT(tuple_rows[0], 0);
  EXPECT_GT(tuple_rows[1], 0);
  EXPECT_GT(tuple_rows[2], 0);
}

// In place: the output buffer is the input buffer (same layout); the reference gets the same.
TEST(ScatterEngine, InPlaceMatchesOutOfPlace) {
  std::mt19937_64 rng(7);
  for (int iteration = 0; iteration < 500; ++iteration) {
    std::unique_ptr<Case> c = RandomCase(rng);
    SCOPED_TRACE(c->text);
    // Same layout for input and output.
    Describe(&c->output, c->input.buffer.DataType, c->input.sizes, c->input.strides, 0);
    bool broadcast = false;
    for (uint32_t s : c->input.strides) broadcast |= s == 0;
    if (broadcast) continue;  // an output cannot broadcast
    c->output.buffer.TotalTensorSizeInBytes = c->input.buffer.TotalTensorSizeInBytes;
    ScatterGeometry g;
    ASSERT_TRUE(ValidateScatter(c->desc, &g).ok());
    ASSERT_TRUE(SameLayout(g.input, g.output));
    ScatterSettings settings;
    settings.reduction = static_cast<kernels::ScatterReduction>(c->options.reduction);
    settings.uint16_as_bfloat16 = c->options.uint16_as_bfloat16;
    ScatterPlan plan;
    ASSERT_TRUE(BuildScatterPlan(g, settings, &plan).ok());
    std::vector<uint8_t> expected = RunReference(*c, c->input.data);  // reference out of place
    std::vector<uint8_t> buffer = c->input.data;  // in place: only the updates are applied
    RunScatterSlice(plan, {buffer.data(), c->updates.data.data(), c->indices.data.data()}, 0, 1);
    ASSERT_EQ(buffer, expected);
  }
}

// A SCATTER whose input and output share a layout (random strides with gaps, or packed), the
// updates spanning every output coordinate off the axis: the plan copies the input itself.
std::unique_ptr<Case> FusedCase(std::mt19937_64& rng, DML_TENSOR_DATA_TYPE dtype,
                                DML_TENSOR_DATA_TYPE itype, const std::vector<uint32_t>& in_sizes,
                                uint32_t axis, uint32_t axis_updates, bool packed) {
  auto c = std::make_unique<Case>();
  c->type = DML_OPERATOR_SCATTER;
  std::vector<uint32_t> idx_sizes = in_sizes;
  idx_sizes[axis] = axis_updates;
  const std::vector<uint32_t> strides = packed ? std::vector<uint32_t>{}
                                               : RandomStrides(rng, in_sizes, false);
  Describe(&c->input, dtype, in_sizes, strides, rng() % 8);
  Describe(&c->indices, itype, idx_sizes, RandomStrides(rng, idx_sizes, true), rng() % 8);
  Describe(&c->updates, dtype, idx_sizes, RandomStrides(rng, idx_sizes, true), rng() % 8);
  Describe(&c->output, dtype, in_sizes, strides, rng() % 16);
  FillRandom(rng, &c->input.data);
  FillRandom(rng, &c->updates.data);
  FillRandom(rng, &c->output.data);  // stride gaps and tail must come back unchanged
  FillIndices(rng, &c->indices, {in_sizes[axis]}, 1, rng() % 2 == 0);
  // Half of them without a reduction: only those take the scratch block.
  c->options.reduction = rng() % 2 ? RefReduction::kNone : static_cast<RefReduction>(rng() % 5);
  c->options.uint16_as_bfloat16 = dtype == DML_TENSOR_DATA_TYPE_UINT16 && rng() % 2;
  c->elements = {&c->input.desc, &c->indices.desc, &c->updates.desc, &c->output.desc, axis};
  c->desc = {c->type, &c->elements};
  c->text = "fused SCATTER axis " + std::to_string(axis) + " type " +
            dmlcpu_test::DataTypeName(dtype) + " idx " + dmlcpu_test::DataTypeName(itype) +
            " in " + dmlcpu_test::SizesToString(in_sizes) + " axis updates " +
            std::to_string(axis_updates) + (packed ? " packed" : " strided") + " reduction " +
            std::to_string(static_cast<int>(c->options.reduction));
  return c;
}

// The fused copy (ScatterPlan::fused_copy) and the scratch block (block_bytes) against the
// reference: strips and blocks that end mid-line and mid-slice, 1, 2, 3 and 7 slices, with and
// without a scratch slot, through the executor, and in place (no copy, block from the output).
TEST(ScatterEngine, FusedCopyAndBlocksMatchTheReference) {
  std::mt19937_64 rng(0xF05ED);
  ExecutorOptions executor_options;
  executor_options.max_threads = 3;
  Executor executor(executor_options);
  struct Shape {
    std::vector<uint32_t> sizes;
    uint32_t axis, axis_updates;
  };
  const Shape shapes[] = {
      // Comments give 256 KiB strips; every shape also runs with strips of up to 1 MiB.
      {{640, 1000}, 0, 700},    // axis 0: blocks of 96 fp32 columns, a partial last strip
      {{4100, 70}, 0, 33},      // one line of columns per block row (fp32: 16 columns)
      {{3, 33}, 0, 50},         // tiny: one strip
      {{600, 500}, 1, 500},     // axis 1: strips of whole rows
      {{37, 4000}, 1, 9},       // few updates per row: most of each row is the copy
      {{5, 300, 70}, 1, 400},   // a middle axis: fused, no block
      {{2, 3, 700, 40}, 3, 40}, // innermost of four
      {{2, 900, 3, 40}, 1, 2},  // two updates per row along the axis
  };
  const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT8,
                                        DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64};
  int fused = 0, blocks = 0, fused_blocks = 0, wide_blocks = 0;
  for (int iteration = 0; iteration < 96; ++iteration) {
    const Shape& shape = shapes[iteration % 8];
    const bool packed = iteration % 3 != 2;
    std::unique_ptr<Case> c = FusedCase(rng, types[(iteration / 8) % 4], kIndexTypes[rng() % 4],
                                        shape.sizes, shape.axis, shape.axis_updates, packed);
    SCOPED_TRACE(c->text);
    ScatterGeometry g;
    ASSERT_TRUE(ValidateScatter(c->desc, &g).ok());
    ScatterSettings settings;
    settings.reduction = static_cast<kernels::ScatterReduction>(c->options.reduction);
    settings.uint16_as_bfloat16 = c->options.uint16_as_bfloat16;
    settings.concurrency = 3;
    settings.serial_cutoff_bytes = 0;
    // Two of three passes over the shapes and types stream any output (the fused block).
    settings.stream_threshold_bytes = (iteration / 32) % 2 == 0 ? 0 : uint64_t{32} << 20;
    // Strips of 256 KiB (a scratch slot for each of 3 threads and two more in 1.25 MiB) or the
    // widest, 1 MiB: both for every shape (a fused block's strips are rows in 16 KiB).
    const bool narrow = (iteration / 8 + iteration) % 2 == 1;
    settings.max_scratch_bytes = narrow ? 5 * (uint64_t{256} << 10)
                                        : kDefaultTuning.max_scratch_bytes;
    ScatterPlan plan;
    ASSERT_TRUE(BuildScatterPlan(g, settings, &plan).ok());
    // Broadcast indices along the row give rows of one tuple and key ranges: not fused; the
    // output then gets the input first, as the program's copy step would.
    fused += plan.fused_copy;
    blocks += plan.block_bytes != 0 && !plan.fused_block;
    fused_blocks += plan.fused_block;
    wide_blocks += !narrow && !plan.fused_block && plan.block_bytes > (uint64_t{256} << 10);
    // A fused block is whole rows: as many as fit kFusedBlockBytes, at least one, at most all.
    if (plan.fused_block) {
      const uint64_t row_bytes = uint64_t{shape.sizes.back()} * g.output.elem_bytes;
      uint64_t rows = 1;
      for (size_t d = 0; d + 1 < shape.sizes.size(); ++d) rows *= shape.sizes[d];
      EXPECT_EQ(plan.block_items,
                std::min(std::max<uint64_t>(1, kFusedBlockBytes / row_bytes), rows));
      EXPECT_EQ(plan.block_bytes, plan.block_items * row_bytes);
    }
    // Narrow: at most 256 KiB, or one line (64 bytes) of columns of the tallest shape's rows.
    if (narrow) EXPECT_LE(plan.block_bytes, std::max<uint64_t>(uint64_t{256} << 10, 64 * 4100));
    // Strips in a block are spans of whole rows along the last axis, and only of outputs at
    // least the stream threshold (none of these small ones under the default).
    if (plan.fused_block) EXPECT_EQ(shape.axis + 1, shape.sizes.size());
    if (settings.stream_threshold_bytes != 0) EXPECT_FALSE(plan.fused_block);
    const std::vector<uint8_t> expected = RunReference(*c, c->output.data);
    // Slots as Compile sizes them: a block or an owner table (broadcast indices give rows of
    // one tuple, which may take one).
    ScratchPool pool(std::max<uint64_t>({plan.block_bytes, plan.owner_slots, 1}), 4);
    std::vector<uint8_t> start = c->output.data;
    if (!plan.fused_copy) CopyInput(g, c->input.data.data(), start.data());
    for (uint64_t slices : {1, 2, 3, 7}) {
      for (ScratchPool* scratch : {static_cast<ScratchPool*>(nullptr), &pool}) {
        std::vector<uint8_t> out = start;
        const ScatterArgs args = {out.data(), c->updates.data.data(), c->indices.data.data(),
                                  c->input.data.data(), scratch};
        for (uint64_t k = 0; k < slices; ++k) RunScatterSlice(plan, args, k, slices);
        ASSERT_EQ(out, expected) << "slices " << slices << (scratch ? " block" : "");
      }
    }
    std::vector<uint8_t> out = start;
    executor.RunScatter(plan, {out.data(), c->updates.data.data(), c->indices.data.data(),
                               c->input.data.data(), &pool});
    ASSERT_EQ(out, expected) << "executor";
    // In place: the output holds the input already; the block reads it from there.
    std::vector<uint8_t> in_place = c->output.data;
    CopyInput(g, c->input.data.data(), in_place.data());
    executor.RunScatter(plan, {in_place.data(), c->updates.data.data(), c->indices.data.data(),
                               nullptr, &pool});
    ASSERT_EQ(in_place, expected) << "in place";
  }
  EXPECT_GT(fused, 64);
  EXPECT_GT(blocks, 10);
  EXPECT_GT(fused_blocks, 10);
  EXPECT_GT(wide_blocks, 0);  // scratch blocks over 256 KiB (PlanSplitsByDestination pins sizes)
}

// Slices that own destinations through a table (ScatterPlan::owner_slots): rows of one tuple,
// one line or lines under an outer loop, heavy duplicates across every slice boundary, dropped
// and negative indices, strided outputs whose gaps and tail must not change, 2-16 slices whose
// tables start with stale slice numbers, and the executor with and without a scratch slot.
TEST(ScatterEngine, OwnersKeepTheLastUpdate) {
  std::mt19937_64 rng(0x0A1E5);
  ExecutorOptions executor_options;
  executor_options.max_threads = 4;
  Executor executor(executor_options);
  const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64};
  int lines_under_a_loop = 0, streamed = 0;
  for (int iteration = 0; iteration < 160; ++iteration) {
    const DML_TENSOR_DATA_TYPE dtype = types[iteration % 4];
    const DML_TENSOR_DATA_TYPE itype = kIndexTypes[rng() % 4];
    const uint32_t batch = iteration % 3 == 0 ? 1 : 1 + static_cast<uint32_t>(rng() % 4);
    const uint32_t rows = 16 + static_cast<uint32_t>(rng() % 600);
    const uint32_t dim = 1 + static_cast<uint32_t>(rng() % (iteration % 2 ? 5 : 400));
    // FLOAT16 rows of 1-2.2 KiB are streamed; the others are at most 41 elements.
    const uint32_t width = iteration % 4 == 1 ? 512 + static_cast<uint32_t>(rng() % 600)
                                              : 2 + static_cast<uint32_t>(rng() % 40);
    // {1, dim, width} input (r = 2), {batch, rows, 1} indices, {batch, rows, width} updates;
    // updates with a gap between batches keep the batch loop from merging with the rows.
    const bool gap = rng() % 2 == 0;
    Tensor input, indices, updates, output;
    Describe(&input, dtype, {1, dim, width}, {}, 0);
    Describe(&indices, itype, {batch, rows, 1}, {}, 0);
    Describe(&updates, dtype, {batch, rows, width},
             gap ? std::vector<uint32_t>{rows * width + 3, width, 1} : std::vector<uint32_t>{},
             0);
    Describe(&output, dtype, {1, dim, width}, RandomStrides(rng, {1, dim, width}, false),
             static_cast<uint32_t>(rng() % 16));
    FillRandom(rng, &input.data);
    FillRandom(rng, &updates.data);
    FillRandom(rng, &output.data);  // stride gaps and tail must come back unchanged
    FillIndices(rng, &indices, {dim}, 1, rng() % 2 == 0);
    DML_SCATTER_ND_OPERATOR_DESC nd = {&input.desc, &indices.desc, &updates.desc, &output.desc,
                                       2, 3};
    const std::string text = "batch " + std::to_string(batch) + " rows " +
                             std::to_string(rows) + " dim " + std::to_string(dim) + " width " +
                             std::to_string(width) + " type " +
                             dmlcpu_test::DataTypeName(dtype) + (gap ? " gap" : "");
    SCOPED_TRACE(text);
    ScatterGeometry g;
    ASSERT_TRUE(ValidateScatter(DML_OPERATOR_DESC{DML_OPERATOR_SCATTER_ND, &nd}, &g).ok());
    ScatterSettings settings;
    settings.concurrency = 4;
    settings.serial_cutoff_bytes = 0;
    ScatterPlan plan;
    ASSERT_TRUE(BuildScatterPlan(g, settings, &plan).ok());
    ASSERT_TRUE(plan.tuple_per_row);
    ASSERT_NE(plan.owner_slots, 0u) << "split loop " << plan.split_loop;
    lines_under_a_loop += plan.loop_count > 2;
    streamed += plan.stream_row != nullptr;
    std::vector<uint8_t> start = output.data;
    CopyInput(g, input.data.data(), start.data());
    std::vector<uint8_t> expected = start;
    const dmlcpu_test::ReferenceResult r = dmlcpu_test::ReferenceScatterNd(
        nd, input.data.data(), indices.data.data(), updates.data.data(), expected.data(),
        RefScatterOptions());
    ASSERT_TRUE(r.ok) << r.error;
    for (uint64_t slices : {2, 3, 7, 16}) {
      std::vector<uint8_t> owners(plan.owner_slots);
      for (uint8_t& o : owners) o = static_cast<uint8_t>(rng() % slices);
      std::vector<uint8_t> out = start;
      ScatterArgs args = {out.data(), updates.data.data(), indices.data.data()};
      RecordScatterOwners(plan, args, slices, owners.data());
      args.owners = owners.data();
      for (uint64_t k = 0; k < slices; ++k) RunScatterSlice(plan, args, k, slices);
      ASSERT_EQ(out, expected) << "slices " << slices;
    }
    // The pool's one slot starts as 0xEE: the executor's run with it must fill the table.
    ScratchPool pool(plan.owner_slots, 1);
    uint8_t* slot = pool.Acquire();
    std::memset(slot, 0xEE, plan.owner_slots);
    pool.Release(slot);
    for (ScratchPool* scratch : {static_cast<ScratchPool*>(nullptr), &pool}) {
      std::vector<uint8_t> out = start;
      executor.RunScatter(plan, {out.data(), updates.data.data(), indices.data.data(), nullptr,
                                 scratch});
      ASSERT_EQ(out, expected) << "executor" << (scratch ? " with the table" : "");
    }
    slot = pool.Acquire();
    ASSERT_NE(slot, nullptr) << "the executor released the slot";
    EXPECT_LT(std::count(slot, slot + plan.owner_slots, uint8_t{0xEE}),
              static_cast<std::ptrdiff_t>(plan.owner_slots))
        << "the executor did not fill the owner table";
    pool.Release(slot);
  }
  EXPECT_GE(lines_under_a_loop, 30);
  EXPECT_GE(streamed, 20);  // wide FLOAT16 rows of contiguous outputs
}

// Rows of one tuple streamed in a large output (kMinSpreadStreamRowBytes and up): row sizes
// around that threshold and the executor's 512-byte touch-ahead threshold, whole lines and
// not, outputs at every misalignment, more rows than the touch-ahead distance and than one
// resolve chunk, heavy duplicates (the last wins), for 1, 2 and 3 slices; guard bytes around
// the output and the bytes of unwritten rows never change.
TEST(ScatterEngine, StreamedShortRowsInALargeOutput) {
  std::mt19937_64 rng(0x57AEA3);
  constexpr uint64_t kGuardBytes = 64;
  int streamed = 0;
  for (const uint32_t row_bytes : {255u, 256u, 257u, 300u, 320u, 448u, 512u, 1000u}) {
    for (const uint32_t shift : {0u, 1u, 32u, 63u}) {
      const uint32_t rows = static_cast<uint32_t>(kMinSpreadStreamSpanBytes / row_bytes) + 3;
      const uint32_t updates = shift % 2 ? 40 : 600;  // 600: three resolve chunks
      const uint64_t distinct = shift == 1 ? 7 : rows;  // 7: heavy duplicates
      Tensor input, indices, upd, output;
      Describe(&input, DML_TENSOR_DATA_TYPE_UINT8, {rows, row_bytes}, {}, 0);
      Describe(&indices, DML_TENSOR_DATA_TYPE_INT64, {updates, 1}, {}, 0);
      Describe(&upd, DML_TENSOR_DATA_TYPE_UINT8, {updates, row_bytes}, {}, 0);
      Describe(&output, DML_TENSOR_DATA_TYPE_UINT8, {rows, row_bytes}, {}, 0);
      FillRandom(rng, &input.data);
      FillRandom(rng, &upd.data);
      for (uint32_t i = 0; i < updates; ++i) {
        const int64_t v = static_cast<int64_t>(rng() % distinct);
        std::memcpy(indices.data.data() + i * 8, &v, 8);
      }
      DML_SCATTER_ND_OPERATOR_DESC nd = {&input.desc, &indices.desc, &upd.desc, &output.desc, 2,
                                         2};
      ScatterGeometry g;
      ASSERT_TRUE(ValidateScatter(DML_OPERATOR_DESC{DML_OPERATOR_SCATTER_ND, &nd}, &g).ok());
      ScatterSettings settings;
      settings.concurrency = 2;
      ScatterPlan plan;
      ASSERT_TRUE(BuildScatterPlan(g, settings, &plan).ok());
      EXPECT_EQ(plan.stream_row != nullptr, row_bytes >= kMinSpreadStreamRowBytes)
          << "row bytes " << row_bytes;
      streamed += plan.stream_row != nullptr;
      std::vector<uint8_t> expected = input.data;
      const dmlcpu_test::ReferenceResult r = dmlcpu_test::ReferenceScatterNd(
          nd, input.data.data(), indices.data.data(), upd.data.data(), expected.data(),
          RefScatterOptions());
      ASSERT_TRUE(r.ok) << r.error;
      for (uint64_t slices : {1, 2, 3}) {
        std::vector<uint8_t> buffer(input.data.size() + 2 * kGuardBytes + shift, 0xC5);
        uint8_t* out = buffer.data() + kGuardBytes + shift;
        std::memcpy(out, input.data.data(), input.data.size());
        for (uint64_t k = 0; k < slices; ++k) {
          RunScatterSlice(plan, {out, upd.data.data(), indices.data.data()}, k, slices);
        }
        const std::vector<uint8_t> got(out, out + expected.size());
        ASSERT_EQ(got, expected) << "row bytes " << row_bytes << " shift " << shift << " slices "
                                 << slices;
        for (uint64_t i = 0; i < kGuardBytes + shift; ++i) {
          ASSERT_EQ(buffer[i], 0xC5) << "guard byte " << i << " before the output";
        }
        for (uint64_t i = kGuardBytes + shift + expected.size(); i < buffer.size(); ++i) {
          ASSERT_EQ(buffer[i], 0xC5) << "guard byte after the output";
        }
      }
    }
  }
  EXPECT_EQ(streamed, 7 * 4);
}

// The destination split the plan picks for the shapes (docs/design.md#scatter-steps).
TEST(ScatterEngine, PlanSplitsByDestination) {
  const auto plan_of = [](DML_OPERATOR_TYPE type, std::vector<uint32_t> in,
                          std::vector<uint32_t> idx, std::vector<uint32_t> upd, uint32_t a,
                          uint32_t b,
                          DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                          uint64_t serial_cutoff_bytes = uint64_t{64} << 10,
                          uint32_t concurrency = 2,
                          kernels::ScatterReduction reduction = kernels::ScatterReduction::kNone) {
    Tensor input, indices, updates, output;
    Describe(&input, data_type, in, {}, 0);
    Describe(&indices, DML_TENSOR_DATA_TYPE_INT64, idx, {}, 0);
    Describe(&updates, data_type, upd, {}, 0);
    Describe(&output, data_type, in, {}, 0);
    DML_SCATTER_OPERATOR_DESC e = {&input.desc, &indices.desc, &updates.desc, &output.desc, a};
    DML_SCATTER_ND_OPERATOR_DESC n = {&input.desc, &indices.desc, &updates.desc, &output.desc, a,
                                      b};
    ScatterGeometry g;
    EXPECT_TRUE(ValidateScatter(type == DML_OPERATOR_SCATTER ? DML_OPERATOR_DESC{type, &e}
                                                             : DML_OPERATOR_DESC{type, &n},
                                &g)
                    .ok());
    ScatterSettings settings;
    settings.concurrency = concurrency;
    settings.serial_cutoff_bytes = serial_cutoff_bytes;
    settings.reduction = reduction;
    ScatterPlan plan;
    EXPECT_TRUE(BuildScatterPlan(g, settings, &plan).ok());
    return plan;
  };
  // Axis 0 of {4096,4096}: rows walk the axis (output stride 0), columns are split.
  ScatterPlan p = plan_of(DML_OPERATOR_SCATTER, {4096, 4096}, {4096, 4096}, {4096, 4096}, 0, 0);
  ASSERT_EQ(p.loop_count, 2u);
  EXPECT_EQ(p.split_loop, 1u);
  EXPECT_EQ(p.loops[0].out_stride_bytes, 0);
  EXPECT_EQ(p.max_slices, 2u);
  // The input copied in by the step: strips of 64 columns x 4096 rows x 4 bytes = 1 MiB,
  // assembled in a scratch block of that size.
  EXPECT_TRUE(p.fused_copy);
  EXPECT_EQ(p.fused_axis_loop, 0u);
  EXPECT_EQ(p.strip_items, 64u);
  EXPECT_EQ(p.block_bytes, 1u << 20);
  // 30 threads: a slot for each and two more within the 16 MiB of scratch: 512 KiB strips.
  // From 62 threads on (the pool's 64 slots) 256 KiB strips, whatever the thread count.
  p = plan_of(DML_OPERATOR_SCATTER, {4096, 4096}, {4096, 4096}, {4096, 4096}, 0, 0,
              DML_TENSOR_DATA_TYPE_FLOAT32, uint64_t{64} << 10, 30);
  EXPECT_EQ(p.strip_items, 32u);
  EXPECT_EQ(p.block_bytes, 512u << 10);
  for (uint32_t threads : {62u, 300u}) {
    p = plan_of(DML_OPERATOR_SCATTER, {4096, 4096}, {4096, 4096}, {4096, 4096}, 0, 0,
                DML_TENSOR_DATA_TYPE_FLOAT32, uint64_t{64} << 10, threads);
    EXPECT_EQ(p.strip_items, 16u) << threads << " threads";
    EXPECT_EQ(p.block_bytes, 256u << 10) << threads << " threads";
  }
  // One update per column: the axis loop is gone, no fused copy (a copy step runs before).
  p = plan_of(DML_OPERATOR_SCATTER, {4096, 4096}, {1, 4096}, {1, 4096}, 0, 0);
  EXPECT_FALSE(p.fused_copy);
  EXPECT_EQ(p.block_bytes, 0u);
  // Axis 1: rows are split, 64 rows of 16 KiB per fused strip; out of place with a scratch
  // slot, one row at a time assembled in a block (rows of 1 KiB: 16 at a time).
  p = plan_of(DML_OPERATOR_SCATTER, {4096, 4096}, {4096, 4096}, {4096, 4096}, 1, 0);
  EXPECT_EQ(p.split_loop, 0u);
  EXPECT_TRUE(p.fused_copy);
  EXPECT_EQ(p.fused_axis_loop, 1u);
  EXPECT_EQ(p.strip_items, 64u);
  EXPECT_TRUE(p.fused_block);
  EXPECT_EQ(p.block_items, 1u);
  EXPECT_EQ(p.block_bytes, 16u << 10);
  p = plan_of(DML_OPERATOR_SCATTER, {65536, 256}, {65536, 256}, {65536, 256}, 1, 0);
  EXPECT_TRUE(p.fused_block);
  EXPECT_EQ(p.block_items, 16u);
  EXPECT_EQ(p.block_bytes, 16u << 10);
  // Rank 1 into bins: no destination loop, key ranges.
  p = plan_of(DML_OPERATOR_SCATTER, {65536}, {1u << 20}, {1u << 20}, 0, 0);
  EXPECT_EQ(p.split_loop, kNoSplitLoop);
  EXPECT_EQ(p.max_slices, 1u);  // key ranges: inline (docs/performance.md#scatter)
  EXPECT_EQ(p.key_span_bytes, 65536u * 4);
  // SCATTER_ND rows of 2 KiB: one tuple per row, applied as runs (streamed); many short rows
  // are not cut: slices take ranges of the 10000 rows and own destinations through a table of
  // one slot per 2 KiB of the 128 MiB output.
  p = plan_of(DML_OPERATOR_SCATTER_ND, {256, 256, 512}, {1, 10000, 2}, {1, 10000, 512}, 3, 2,
              DML_TENSOR_DATA_TYPE_FLOAT32, kDefaultTuning.scatter_serial_cutoff_bytes);
  EXPECT_TRUE(p.tuple_per_row);
  ASSERT_EQ(p.loop_count, 2u);
  EXPECT_EQ(p.loops[0].size, 10000);
  EXPECT_EQ(p.loops[1].size, 512);
  EXPECT_EQ(p.split_loop, kNoSplitLoop);
  EXPECT_EQ(p.max_slices, 2u);
  EXPECT_EQ(p.key_span_bytes, 256u * 256 * 512 * 4);
  EXPECT_NE(p.stream_row, nullptr);
  EXPECT_EQ(p.owner_slots, 256u * 256);
  EXPECT_EQ(p.owner_shift, 11u);
  // The same with a reduction: every update counts, so key ranges.
  p = plan_of(DML_OPERATOR_SCATTER_ND, {256, 256, 512}, {1, 10000, 2}, {1, 10000, 512}, 3, 2,
              DML_TENSOR_DATA_TYPE_FLOAT32, kDefaultTuning.scatter_serial_cutoff_bytes, 2,
              kernels::ScatterReduction::kAdd);
  EXPECT_EQ(p.split_loop, kNoSplitLoop);
  EXPECT_EQ(p.max_slices, 2u);
  EXPECT_EQ(p.owner_slots, 0u);
  // The KV-cache token write: 256 rows of 256 bytes, key ranges; about 200 KB moved is below the
  // scatter's serial cutoff (inline). Rows of 256 bytes in a 256 MiB cache are streamed.
  p = plan_of(DML_OPERATOR_SCATTER_ND, {8, 32, 4096, 128}, {8, 32, 1, 3}, {8, 32, 1, 128}, 4, 4,
              DML_TENSOR_DATA_TYPE_FLOAT16, kDefaultTuning.scatter_serial_cutoff_bytes);
  EXPECT_TRUE(p.tuple_per_row);
  EXPECT_EQ(p.split_loop, kNoSplitLoop);
  EXPECT_EQ(p.max_slices, 1u);
  EXPECT_EQ(p.owner_slots, 0u);
  EXPECT_NE(p.stream_row, nullptr);
  // Streamed short rows need both bounds: 255-byte rows in a large output, 256-byte rows in an
  // output just under kMinSpreadStreamSpanBytes, and 1 KiB rows anywhere.
  p = plan_of(DML_OPERATOR_SCATTER_ND, {20000, 255}, {40, 1}, {40, 255}, 2, 2,
              DML_TENSOR_DATA_TYPE_UINT8);
  EXPECT_EQ(p.stream_row, nullptr);
  p = plan_of(DML_OPERATOR_SCATTER_ND, {16384, 256}, {40, 1}, {40, 256}, 2, 2,
              DML_TENSOR_DATA_TYPE_UINT8);
  EXPECT_NE(p.stream_row, nullptr);
  p = plan_of(DML_OPERATOR_SCATTER_ND, {16383, 256}, {40, 1}, {40, 256}, 2, 2,
              DML_TENSOR_DATA_TYPE_UINT8);
  EXPECT_EQ(p.stream_row, nullptr);
  p = plan_of(DML_OPERATOR_SCATTER_ND, {8, 1024}, {40, 1}, {40, 1024}, 2, 2,
              DML_TENSOR_DATA_TYPE_UINT8);
  EXPECT_NE(p.stream_row, nullptr);
  // A few long rows of one tuple each: the row itself is split.
  p = plan_of(DML_OPERATOR_SCATTER_ND, {4, 1u << 16}, {3, 1}, {3, 1u << 16}, 2, 2);
  EXPECT_TRUE(p.tuple_per_row);
  EXPECT_EQ(p.split_loop, 1u);
  EXPECT_EQ(p.max_slices, 2u);
  // A tiny scatter runs inline.
  p = plan_of(DML_OPERATOR_SCATTER_ND, {100, 16}, {8, 1}, {8, 16}, 2, 2);
  EXPECT_EQ(p.max_slices, 1u);
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
