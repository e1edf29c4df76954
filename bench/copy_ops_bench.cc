// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — ELEMENT_WISE_IDENTITY (transposes, expands), JOIN, SPLIT and TILE.
//
//   AttentionHeadsTranspose  {1,32,2048,128} fp16 -> perm {0,2,1,3} (heads to sequence-major)
//   KeyTranspose2D           {4096,4096} fp32 transposed (K^T), through IDENTITY
//   KvCacheAppendJoin        JOIN of {8,32,2047,128} and {8,32,1,128} fp16 on the sequence axis
//   QkvSplit                 {8,2048,12288} fp16 split into Q, K, V {8,2048,4096}
//   TileRows                 {1,1,4096} fp32 -> {1,2048,4096} (write-bound: write_ratio)
//   ExpandRows               {1,4096} fp32 -> {4096,4096} (write-bound: write_ratio)
//   Tiny*                    {4,16} ops of ONNX shape subgraphs: nanoseconds per Execute
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "bench_util.h"

namespace dmlcpu_bench {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFp16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE kFp32 = DML_TENSOR_DATA_TYPE_FLOAT32;

std::vector<uint32_t> Packed(const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> strides(sizes.size());
  uint32_t stride = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= sizes[d];
  }
  return strides;
}

// IDENTITY of `in_sizes` (packed) read in the order `perm` (a transpose), or with `in_strides`
// given directly (an expand: 0 strides) over the output sizes.
std::unique_ptr<CaseData> MakeIdentityCase(DML_TENSOR_DATA_TYPE type,
                                           std::vector<uint32_t> out_sizes,
                                           std::vector<uint32_t> view_strides,
                                           uint64_t input_elems, bool write_bound) {
  auto data = std::make_unique<CaseData>();
  const Tensor* input = data->AddTensor(type, out_sizes, view_strides);
  const Tensor* output = data->AddTensor(type, out_sizes);
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC desc{input->desc(), output->desc(), nullptr};
  data->SetOperator(DML_OPERATOR_ELEMENT_WISE_IDENTITY, desc);
  data->AllocateBuffers(*input, nullptr, *output);
  data->source_byte_offset = [input](uint64_t e) { return input->ByteOffsetOf(e); };
  data->read_bytes = input_elems * input->elem_bytes();
  data->written_bytes = output->data_bytes();
  data->copy_bytes = output->data_bytes();
  data->write_bound = write_bound;
  return data;
}

CaseSpec Transpose(std::string name, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> in_sizes,
                   std::vector<uint32_t> perm, CaseKind kind = CaseKind::kThroughput) {
  return {std::move(name), kind, [=] {
            const std::vector<uint32_t> in_strides = Packed(in_sizes);
            std::vector<uint32_t> out_sizes(perm.size()), view(perm.size());
            uint64_t elems = 1;
            for (size_t d = 0; d < perm.size(); ++d) {
              out_sizes[d] = in_sizes[perm[d]];
              view[d] = in_strides[perm[d]];
              elems *= in_sizes[d];
            }
            return MakeIdentityCase(type, out_sizes, view, elems, false);
          }};
}

CaseSpec Expand(std::string name, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> in_sizes,
                std::vector<uint32_t> out_sizes, CaseKind kind = CaseKind::kThroughput) {
  return {std::move(name), kind, [=] {
            const std::vector<uint32_t> in_strides = Packed(in_sizes);
            std::vector<uint32_t> view(out_sizes.size(), 0);
            uint64_t elems = 1;
            const size_t offset = out_sizes.size() - in_sizes.size();
            for (size_t d = 0; d < in_sizes.size(); ++d) {
              if (in_sizes[d] != 1) view[d + offset] = in_strides[d];
              elems *= in_sizes[d];
            }
            return MakeIdentityCase(type, out_sizes, view, elems, true);
          }};
}

// JOIN of `parts` (packed) on `axis`, or SPLIT of their concatenation into them.
std::unique_ptr<CaseData> MakeJoinSplitCase(DML_TENSOR_DATA_TYPE type,
                                            const std::vector<std::vector<uint32_t>>& parts,
                                            uint32_t axis, bool join) {
  auto data = std::make_unique<CaseData>();
  std::vector<uint32_t> whole_sizes = parts[0];
  whole_sizes[axis] = 0;
  std::vector<const Tensor*> part_tensors;
  for (const auto& p : parts) {
    whole_sizes[axis] += p[axis];
    part_tensors.push_back(data->AddTensor(type, p));
  }
  const Tensor* whole = data->AddTensor(type, whole_sizes);
  // The operator struct and its tensor-desc array, kept alive together.
  struct Holder {
    DML_JOIN_OPERATOR_DESC join{};
    DML_SPLIT_OPERATOR_DESC split{};
    std::vector<DML_TENSOR_DESC> descs;
  };
  auto holder = std::make_shared<Holder>();
  for (const Tensor* t : part_tensors) holder->descs.push_back(*t->desc());
  const uint32_t count = static_cast<uint32_t>(parts.size());
  if (join) {
    holder->join = {count, holder->descs.data(), whole->desc(), axis};
    data->op = {DML_OPERATOR_JOIN, &holder->join};
    data->AllocateBuffers(*part_tensors[0], nullptr, *whole);
    for (size_t k = 1; k < part_tensors.size(); ++k) {
      data->more_inputs.emplace_back(part_tensors[k]->total_bytes());
      data->more_inputs.back().FillPattern(static_cast<uint32_t>(k));
    }
  } else {
    holder->split = {whole->desc(), count, holder->descs.data(), axis};
    data->op = {DML_OPERATOR_SPLIT, &holder->split};
    data->AllocateBuffers(*whole, nullptr, *part_tensors[0]);
    for (size_t k = 1; k < part_tensors.size(); ++k) {
      data->more_outputs.emplace_back(part_tensors[k]->total_bytes());
      data->more_outputs.back().FillPattern(static_cast<uint32_t>(k));
    }
  }
  data->op_desc_storage = holder;
  data->read_bytes = whole->data_bytes();
  data->written_bytes = whole->data_bytes();
  data->copy_bytes = whole->data_bytes();
  return data;
}

CaseSpec JoinSplit(std::string name, DML_TENSOR_DATA_TYPE type,
                   std::vector<std::vector<uint32_t>> parts, uint32_t axis, bool join,
                   CaseKind kind = CaseKind::kThroughput) {
  return {std::move(name), kind,
          [=] { return MakeJoinSplitCase(type, parts, axis, join); }};
}

CaseSpec Tile(std::string name, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> in_sizes,
              std::vector<uint32_t> repeats, CaseKind kind = CaseKind::kThroughput) {
  return {std::move(name), kind, [=] {
            auto data = std::make_unique<CaseData>();
            std::vector<uint32_t> out_sizes = in_sizes;
            for (size_t d = 0; d < out_sizes.size(); ++d) out_sizes[d] *= repeats[d];
            const Tensor* input = data->AddTensor(type, in_sizes);
            const Tensor* output = data->AddTensor(type, out_sizes);
            DML_TILE_OPERATOR_DESC desc{input->desc(), output->desc(),
                                        static_cast<uint32_t>(repeats.size()),
                                        data->KeepUints(repeats)};
            data->SetOperator(DML_OPERATOR_TILE, desc);
            data->AllocateBuffers(*input, nullptr, *output);
            data->source_byte_offset = [input, in_sizes, out_sizes](uint64_t e) {
              // Output coordinate (row-major) mod the input's sizes.
              uint64_t linear = 0, scale = 1;
              for (size_t d = out_sizes.size(); d-- > 0;) {
                linear += (e % out_sizes[d]) % in_sizes[d] * scale;
                scale *= in_sizes[d];
                e /= out_sizes[d];
              }
              return input->ByteOffsetOf(linear);
            };
            data->read_bytes = input->data_bytes();
            data->written_bytes = output->data_bytes();
            data->copy_bytes = output->data_bytes();
            data->write_bound = true;
            return data;
          }};
}

std::vector<CaseSpec> CopyOpsCases() {
  std::vector<CaseSpec> cases;
  cases.push_back(Transpose("AttentionHeadsTranspose", kFp16, {1, 32, 2048, 128}, {0, 2, 1, 3}));
  cases.push_back(Transpose("KeyTranspose2D", kFp32, {4096, 4096}, {1, 0}));
  cases.push_back(JoinSplit("KvCacheAppendJoin", kFp16, {{8, 32, 2047, 128}, {8, 32, 1, 128}}, 2,
                            /*join=*/true));
  cases.push_back(JoinSplit("QkvSplit", kFp16,
                            {{8, 2048, 4096}, {8, 2048, 4096}, {8, 2048, 4096}}, 2,
                            /*join=*/false));
  cases.push_back(Tile("TileRows", kFp32, {1, 1, 4096}, {1, 2048, 1}));
  cases.push_back(Expand("ExpandRows", kFp32, {1, 4096}, {4096, 4096}));
  cases.push_back(Transpose("TinyTranspose", kFp32, {4, 16}, {1, 0}, CaseKind::kExecuteLatency));
  cases.push_back(Expand("TinyExpand", kFp32, {1, 16}, {4, 16}, CaseKind::kExecuteLatency));
  cases.push_back(JoinSplit("TinyConcat", kFp32, {{4, 8}, {4, 8}}, 1, /*join=*/true,
                            CaseKind::kExecuteLatency));
  cases.push_back(JoinSplit("TinySplit", kFp32, {{4, 8}, {4, 8}}, 1, /*join=*/false,
                            CaseKind::kExecuteLatency));
  cases.push_back(Tile("TinyTile", kFp32, {4, 4}, {1, 4}, CaseKind::kExecuteLatency));
  return cases;
}

}  // namespace

void RegisterCopyOpsBenchmarks() { RegisterCases(CopyOpsCases()); }

}  // namespace dmlcpu_bench
