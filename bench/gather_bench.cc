// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1.
//
// Shapes come from the models that produce them (all indices INT64, as ONNX models carry them,
// drawn by SplitMix64 with a fixed seed per case; bench/peers/peers.py draws the same ones):
//   EmbeddingLookupLlama2{Fp16,Fp32}  token embedding, table {32000, 4096}, 512 random ids
//   EmbeddingLookupLlama3Fp16         table {128256, 4096} fp16, 2048 random ids
//   EmbeddingLookup*SortedRuns        the same tables, sorted ids made of runs of 8-32 ids
//   TokenPruningGather                keep 256 of 1024 tokens of {64, 1024, 64} (axis 1)
//   ChannelSelectGather               keep 512 of 1024 channels of {4096, 1024} (innermost axis)
//   TopKGatherElementsAxis{1,0}       GATHER_ELEMENTS {4096, 4096} with random indices
//   TopKGatherElementsAxis0FewRows    the same along axis 0 into 16 output rows (top-16 of 4096)
//   DetectionGatherNd                 10000 (y, x) pairs into a {256, 256, 512} feature map
//   SparseVoxelGatherNd               1,000,000 full 4-D coordinates into {64, 64, 64, 64}
//   BatchedTokenGatherNd1             GATHER_ND1, batch dim 1: {8, 1024, 256}, 2000 ids per batch
//   TinyEmbeddingGather               8 ids from {100, 16}: nanoseconds per Execute
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "bench_util.h"

namespace dmlcpu_bench {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFp16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE kFp32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE kInt64 = DML_TENSOR_DATA_TYPE_INT64;

using Dims = std::vector<uint32_t>;
using IndexValues = std::shared_ptr<const std::vector<int64_t>>;

// Row-major coordinates of linear position `e` in `sizes`.
std::vector<uint64_t> CoordsOf(uint64_t e, const Dims& sizes) {
  std::vector<uint64_t> coords(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    coords[d] = e % sizes[d];
    e /= sizes[d];
  }
  return coords;
}

uint64_t LinearOf(const std::vector<uint64_t>& coords, const Dims& sizes) {
  uint64_t linear = 0;
  for (size_t d = 0; d < sizes.size(); ++d) linear = linear * sizes[d] + coords[d];
  return linear;
}

// Fills the byte accounting shared by every gather: the elements written are read once from
// the input, the whole indices tensor is read, and the baselines copy the output's bytes.
void SetGatherAccounting(CaseData* data, const Tensor& output, uint64_t block_elems) {
  data->read_bytes = output.data_bytes() + data->indices.size_bytes();
  data->written_bytes = output.data_bytes();
  data->copy_bytes = output.data_bytes();
  data->bound_block_elems = block_elems;
}

struct GatherParams {
  DML_TENSOR_DATA_TYPE data_type = kFp32;
  Dims input_sizes;
  Dims indices_sizes;
  Dims output_sizes;
  uint32_t axis = 0;
  uint32_t index_dimensions = 1;
  uint64_t block_elems = 0;  // contiguous input elements per index (0 = latency case, no bound)
  std::function<std::vector<int64_t>()> make_indices;
};

// GATHER, with the source mapping written from the pseudocode of docs/semantics.md#gather.
std::unique_ptr<CaseData> MakeGatherCase(const GatherParams& p) {
  auto data = std::make_unique<CaseData>();
  const Tensor* input = data->AddTensor(p.data_type, p.input_sizes);
  const Tensor* indices = data->AddTensor(kInt64, p.indices_sizes);
  const Tensor* output = data->AddTensor(p.data_type, p.output_sizes);
  data->SetOperator(DML_OPERATOR_GATHER,
                    DML_GATHER_OPERATOR_DESC{input->desc(), indices->desc(), output->desc(),
                                             p.axis, p.index_dimensions});
  const IndexValues values = std::make_shared<const std::vector<int64_t>>(p.make_indices());
  data->AllocateBuffers(*input, values.get(), *output);
  SetGatherAccounting(data.get(), *output, p.block_elems);
  data->source_byte_offset = [p, values, input](uint64_t e) {
    const size_t rank = p.input_sizes.size();
    const int64_t k = p.index_dimensions;
    const int64_t axis = p.axis;
    const std::vector<uint64_t> o = CoordsOf(e, p.output_sizes);
    std::vector<uint64_t> idx_coord(rank, 0);
    for (int64_t m = 0; m < k; ++m) idx_coord[rank - k + m] = o[axis - k + 1 + m];
    std::vector<uint64_t> in_coord(rank, 0);
    in_coord[axis] = static_cast<uint64_t>((*values)[LinearOf(idx_coord, p.indices_sizes)]);
    for (int64_t j = 0; j < static_cast<int64_t>(rank); ++j) {
      if (j > axis) in_coord[j] = o[j];
      if (j < axis) in_coord[j] = j - k + 1 >= 0 ? o[j - k + 1] : 0;
    }
    return input->ByteOffsetOf(LinearOf(in_coord, p.input_sizes));
  };
  return data;
}

// GATHER_ELEMENTS on a square fp32 matrix into out_rows output rows (out_rows = side: square),
// with random INT64 indices (docs/semantics.md#gather_elements).
std::unique_ptr<CaseData> MakeGatherElementsCase(uint32_t side, uint32_t axis, uint64_t seed,
                                                 uint32_t out_rows) {
  auto data = std::make_unique<CaseData>();
  const Dims out_sizes = {out_rows, side};
  const Tensor* input = data->AddTensor(kFp32, {side, side});
  const Tensor* indices = data->AddTensor(kInt64, out_sizes);
  const Tensor* output = data->AddTensor(kFp32, out_sizes);
  data->SetOperator(DML_OPERATOR_GATHER_ELEMENTS,
                    DML_GATHER_ELEMENTS_OPERATOR_DESC{input->desc(), indices->desc(),
                                                      output->desc(), axis});
  const IndexValues values = std::make_shared<const std::vector<int64_t>>(
      RandomIndices(seed, uint64_t{out_rows} * side, side));
  data->AllocateBuffers(*input, values.get(), *output);
  SetGatherAccounting(data.get(), *output, 1);
  // Called once per output element by the bound computation: no allocation here.
  data->source_byte_offset = [side, axis, values](uint64_t e) {
    const uint64_t row = e / side;
    const uint64_t column = e % side;
    const uint64_t index = static_cast<uint64_t>((*values)[e]);
    return (axis == 0 ? index * side + column : row * side + index) * sizeof(float);
  };
  return data;
}

struct GatherNdParams {
  Dims input_sizes;
  Dims indices_sizes;
  Dims output_sizes;
  uint32_t input_dimension_count = 0;    // r
  uint32_t indices_dimension_count = 0;  // q
  uint32_t batch_dimension_count = 0;    // b; GATHER_ND when 0 and !use_nd1
  bool use_nd1 = false;
  uint64_t block_elems = 0;
  std::function<std::vector<int64_t>()> make_indices;
};

// GATHER_ND / GATHER_ND1 on fp32 data, mapping from the pseudocode of
// docs/semantics.md#gather_nd1.
std::unique_ptr<CaseData> MakeGatherNdCase(const GatherNdParams& p) {
  auto data = std::make_unique<CaseData>();
  const Tensor* input = data->AddTensor(kFp32, p.input_sizes);
  const Tensor* indices = data->AddTensor(kInt64, p.indices_sizes);
  const Tensor* output = data->AddTensor(kFp32, p.output_sizes);
  if (p.use_nd1) {
    data->SetOperator(DML_OPERATOR_GATHER_ND1,
                      DML_GATHER_ND1_OPERATOR_DESC{input->desc(), indices->desc(), output->desc(),
                                                   p.input_dimension_count,
                                                   p.indices_dimension_count,
                                                   p.batch_dimension_count});
  } else {
    data->SetOperator(DML_OPERATOR_GATHER_ND,
                      DML_GATHER_ND_OPERATOR_DESC{input->desc(), indices->desc(), output->desc(),
                                                  p.input_dimension_count,
                                                  p.indices_dimension_count});
  }
  const IndexValues values = std::make_shared<const std::vector<int64_t>>(p.make_indices());
  data->AllocateBuffers(*input, values.get(), *output);
  SetGatherAccounting(data.get(), *output, p.block_elems);
  data->source_byte_offset = [p, values, input](uint64_t e) {
    const int64_t n = p.input_sizes.size();
    const int64_t r = p.input_dimension_count;
    const int64_t q = p.indices_dimension_count;
    const int64_t b = p.batch_dimension_count;
    const int64_t t = p.indices_sizes[n - 1];
    const int64_t m = (q - 1) + (r - b - t);
    const std::vector<uint64_t> o = CoordsOf(e, p.output_sizes);
    const uint64_t* oo = o.data() + (n - m);
    std::vector<uint64_t> idx_coord(n, 0);
    for (int64_t i = 0; i < q - 1; ++i) idx_coord[n - q + i] = oo[i];
    std::vector<uint64_t> in_coord(n, 0);
    for (int64_t i = 0; i < b; ++i) in_coord[n - r + i] = oo[i];
    for (int64_t j = 0; j < t; ++j) {
      idx_coord[n - 1] = j;
      in_coord[n - r + b + j] =
          static_cast<uint64_t>((*values)[LinearOf(idx_coord, p.indices_sizes)]);
    }
    for (int64_t i = 0; i < m - (q - 1); ++i) in_coord[n - r + b + t + i] = oo[q - 1 + i];
    return input->ByteOffsetOf(LinearOf(in_coord, p.input_sizes));
  };
  return data;
}

CaseSpec Gather(std::string name, GatherParams params, CaseKind kind = CaseKind::kThroughput) {
  return CaseSpec{std::move(name), kind, [params] { return MakeGatherCase(params); }};
}

// Embedding lookup: GATHER axis 0 of a {vocab, hidden} table with `ids` rows.
GatherParams Embedding(DML_TENSOR_DATA_TYPE data_type, uint32_t vocab, uint32_t hidden,
                       uint32_t ids, std::function<std::vector<int64_t>()> make_indices) {
  return GatherParams{data_type, {vocab, hidden}, {1, ids}, {ids, hidden}, 0, 1, hidden,
                      std::move(make_indices)};
}

std::vector<CaseSpec> GatherCases() {
  constexpr uint32_t kLlama2Vocab = 32000;
  constexpr uint32_t kLlama3Vocab = 128256;
  constexpr uint32_t kHidden = 4096;
  std::vector<CaseSpec> cases;
  // Seeds 1..: one stream per case (peers.py uses the same numbers).
  cases.push_back(Gather("EmbeddingLookupLlama2Fp16",
                         Embedding(kFp16, kLlama2Vocab, kHidden, 512,
                                   [] { return RandomIndices(1, 512, kLlama2Vocab); })));
  cases.push_back(Gather("EmbeddingLookupLlama2Fp32",
                         Embedding(kFp32, kLlama2Vocab, kHidden, 512,
                                   [] { return RandomIndices(2, 512, kLlama2Vocab); })));
  cases.push_back(Gather("EmbeddingLookupLlama2SortedRuns",
                         Embedding(kFp16, kLlama2Vocab, kHidden, 512, [] {
                           return SortedRunIndices(3, 512, kLlama2Vocab, 8, 32);
                         })));
  cases.push_back(Gather("EmbeddingLookupLlama3Fp16",
                         Embedding(kFp16, kLlama3Vocab, kHidden, 2048,
                                   [] { return RandomIndices(4, 2048, kLlama3Vocab); })));
  cases.push_back(Gather("EmbeddingLookupLlama3SortedRuns",
                         Embedding(kFp16, kLlama3Vocab, kHidden, 2048, [] {
                           return SortedRunIndices(5, 2048, kLlama3Vocab, 8, 32);
                         })));
  // {64, 1024, 64}, 256 ids on axis 1 -> {64, 256, 64}: 256-byte blocks.
  cases.push_back(Gather("TokenPruningGather",
                         GatherParams{kFp32, {64, 1024, 64}, {1, 1, 256}, {64, 256, 64}, 1, 1,
                                      64, [] { return RandomIndices(6, 256, 1024); }}));
  // {4096, 1024}, 512 ids on the innermost axis -> {4096, 512}: one element per index.
  cases.push_back(Gather("ChannelSelectGather",
                         GatherParams{kFp32, {4096, 1024}, {1, 512}, {4096, 512}, 1, 1, 1,
                                      [] { return RandomIndices(7, 512, 1024); }}));
  cases.push_back(CaseSpec{"TopKGatherElementsAxis1", CaseKind::kThroughput,
                           [] { return MakeGatherElementsCase(4096, 1, 8, 4096); }});
  cases.push_back(CaseSpec{"TopKGatherElementsAxis0", CaseKind::kThroughput,
                           [] { return MakeGatherElementsCase(4096, 0, 9, 4096); }});
  cases.push_back(CaseSpec{"TopKGatherElementsAxis0FewRows", CaseKind::kThroughput,
                           [] { return MakeGatherElementsCase(4096, 0, 12, 16); }});
  // 10000 (y, x) pairs into {256, 256, 512}: r = 3, indices {1, 10000, 2}, q = 2
  // -> output {1, 10000, 512}.
  cases.push_back(CaseSpec{"DetectionGatherNd", CaseKind::kThroughput, [] {
    return MakeGatherNdCase(GatherNdParams{{256, 256, 512}, {1, 10000, 2}, {1, 10000, 512}, 3, 2,
                                           0, false, 512,
                                           [] { return RandomTuples(10, 10000, {256, 256}); }});
  }});
  // 1,000,000 full coordinates into {64, 64, 64, 64}: r = 4, indices {1, 1, 1000000, 4}, q = 2.
  cases.push_back(CaseSpec{"SparseVoxelGatherNd", CaseKind::kThroughput, [] {
    return MakeGatherNdCase(GatherNdParams{
        {64, 64, 64, 64}, {1, 1, 1000000, 4}, {1, 1, 1, 1000000}, 4, 2, 0, false, 1,
        [] { return RandomTuples(11, 1000000, {64, 64, 64, 64}); }});
  }});
  // GATHER_ND1 with one batch dim: input {8, 1024, 256} (r = 3), indices {8, 2000, 1} (q = 3),
  // b = 1 -> output {8, 2000, 256}.
  cases.push_back(CaseSpec{"BatchedTokenGatherNd1", CaseKind::kThroughput, [] {
    return MakeGatherNdCase(GatherNdParams{{8, 1024, 256}, {8, 2000, 1}, {8, 2000, 256}, 3, 3, 1,
                                           true, 256,
                                           [] { return RandomIndices(12, 8 * 2000, 1024); }});
  }});
  // 8 ids from {100, 16}: per-call overhead.
  cases.push_back(Gather("TinyEmbeddingGather",
                         GatherParams{kFp32, {100, 16}, {1, 8}, {8, 16}, 0, 1, 0,
                                      [] { return RandomIndices(13, 8, 100); }},
                         CaseKind::kExecuteLatency));
  return cases;
}

}  // namespace

void RegisterGatherBenchmarks() { RegisterCases(GatherCases()); }

}  // namespace dmlcpu_bench
