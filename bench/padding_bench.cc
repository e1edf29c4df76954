// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — PADDING, depth/space and SLICE_GRAD.
//
//   ConvInputPadConstant / ConvInputPadReflect  a ResNet stage's activations {32,64,56,56}
//                       padded by 1 on H and W before a 3x3 convolution (zeros / reflection)
//   PixelShuffleDcr / PixelShuffleCrd  DepthToSpace block 2 of {1,256,128,128} (super-resolution
//                       heads): DCR (ONNX's default) and CRD (PyTorch's PixelShuffle)
//   PatchUnshuffle      SpaceToDepth block 2 of {1,64,256,256}
//   SliceGradWindow     the gradient of [:, :, 512:1536, :] of {8,32,2048,128} fp16
//   TinyPad / TinyDepthToSpace / TinySliceGrad  {4,16}-sized ops: ns per Execute
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "bench_util.h"

namespace dmlcpu_bench {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFp16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE kFp32 = DML_TENSOR_DATA_TYPE_FLOAT32;

// Row-major coordinate of linear element e of `sizes`.
std::vector<uint64_t> Coordinate(const std::vector<uint32_t>& sizes, uint64_t e) {
  std::vector<uint64_t> c(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    c[d] = e % sizes[d];
    e /= sizes[d];
  }
  return c;
}

uint64_t PackedOffset(const std::vector<uint32_t>& sizes, const std::vector<uint64_t>& c,
                      uint32_t elem_bytes) {
  uint64_t off = 0;
  for (size_t d = 0; d < sizes.size(); ++d) off = off * sizes[d] + c[d];
  return off * elem_bytes;
}

CaseSpec Pad(std::string name, std::vector<uint32_t> input_sizes, std::vector<uint32_t> start,
             std::vector<uint32_t> end, DML_PADDING_MODE mode,
             CaseKind kind = CaseKind::kThroughput) {
  return CaseSpec{std::move(name), kind, [=] {
    auto data = std::make_unique<CaseData>();
    std::vector<uint32_t> out_sizes(input_sizes.size());
    for (size_t d = 0; d < out_sizes.size(); ++d) out_sizes[d] = input_sizes[d] + start[d] + end[d];
    const Tensor* input = data->AddTensor(kFp32, input_sizes);
    const Tensor* output = data->AddTensor(kFp32, out_sizes);
    const uint32_t rank = static_cast<uint32_t>(input_sizes.size());
    DML_PADDING_OPERATOR_DESC desc{input->desc(), output->desc(), mode, 0.0f, rank,
                                   data->KeepUints(start), data->KeepUints(end)};
    data->SetOperator(DML_OPERATOR_PADDING, desc);
    if (mode == DML_PADDING_MODE_REFLECTION) {  // every output element has a source
      data->source_byte_offset = [=](uint64_t e) {
        std::vector<uint64_t> c = Coordinate(out_sizes, e);
        for (size_t d = 0; d < c.size(); ++d) {
          const int64_t n = input_sizes[d];
          int64_t s = static_cast<int64_t>(c[d]) - start[d];
          if (n > 1) {
            const int64_t p = 2 * (n - 1);
            s = ((s % p) + p) % p;
            if (s >= n) s = p - s;
          } else {
            s = 0;
          }
          c[d] = static_cast<uint64_t>(s);
        }
        return PackedOffset(input_sizes, c, 4);
      };
    }
    data->AllocateBuffers(*input, nullptr, *output);
    data->read_bytes = input->data_bytes();
    data->written_bytes = output->data_bytes();
    data->copy_bytes = output->data_bytes();
    return data;
  }};
}

CaseSpec DepthSpace(std::string name, DML_OPERATOR_TYPE type, std::vector<uint32_t> input_sizes,
                    uint32_t block, DML_DEPTH_SPACE_ORDER order,
                    CaseKind kind = CaseKind::kThroughput) {
  return CaseSpec{std::move(name), kind, [=] {
    auto data = std::make_unique<CaseData>();
    const bool to_space = type == DML_OPERATOR_DEPTH_TO_SPACE1;
    const uint32_t bb = block * block;
    const std::vector<uint32_t> out_sizes =
        to_space ? std::vector<uint32_t>{input_sizes[0], input_sizes[1] / bb,
                                         input_sizes[2] * block, input_sizes[3] * block}
                 : std::vector<uint32_t>{input_sizes[0], input_sizes[1] * bb,
                                         input_sizes[2] / block, input_sizes[3] / block};
    const Tensor* input = data->AddTensor(kFp32, input_sizes);
    const Tensor* output = data->AddTensor(kFp32, out_sizes);
    if (to_space) {
      data->SetOperator(type, DML_DEPTH_TO_SPACE1_OPERATOR_DESC{input->desc(), output->desc(),
                                                                block, order});
    } else {
      data->SetOperator(type, DML_SPACE_TO_DEPTH1_OPERATOR_DESC{input->desc(), output->desc(),
                                                                block, order});
    }
    // DCR: depth channel (i*b + j)*C + c; CRD: c*b*b + i*b + j (C: the space channels).
    data->source_byte_offset = [=](uint64_t e) {
      const std::vector<uint64_t> o = Coordinate(out_sizes, e);
      const std::vector<uint32_t>& space = to_space ? out_sizes : input_sizes;
      const uint64_t c_space = space[1];
      std::vector<uint64_t> s(4), d(4);
      if (to_space) {
        s = o;
      } else {
        const uint64_t ch = o[1];
        const uint64_t c = order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? ch % c_space
                                                                           : ch / bb;
        const uint64_t ij = order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? ch / c_space
                                                                            : ch % bb;
        s = {o[0], c, o[2] * block + ij / block, o[3] * block + ij % block};
      }
      const uint64_t i = s[2] % block, j = s[3] % block;
      d = {s[0],
           order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? (i * block + j) * c_space + s[1]
                                                           : s[1] * bb + i * block + j,
           s[2] / block, s[3] / block};
      return to_space ? PackedOffset(input_sizes, d, 4) : PackedOffset(input_sizes, s, 4);
    };
    data->AllocateBuffers(*input, nullptr, *output);
    data->read_bytes = input->data_bytes();
    data->written_bytes = output->data_bytes();
    data->copy_bytes = output->data_bytes();
    return data;
  }};
}

CaseSpec SliceGrad(std::string name, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> out_sizes,
                   std::vector<uint32_t> offsets, std::vector<uint32_t> window,
                   CaseKind kind = CaseKind::kThroughput) {
  return CaseSpec{std::move(name), kind, [=] {
    auto data = std::make_unique<CaseData>();
    const Tensor* input = data->AddTensor(type, window);
    const Tensor* output = data->AddTensor(type, out_sizes);
    const uint32_t rank = static_cast<uint32_t>(out_sizes.size());
    DML_SLICE_GRAD_OPERATOR_DESC desc{input->desc(),         output->desc(),
                                      rank,                  data->KeepUints(offsets),
                                      data->KeepUints(window),
                                      data->KeepInts(std::vector<int32_t>(rank, 1))};
    data->SetOperator(DML_OPERATOR_SLICE_GRAD, desc);
    data->AllocateBuffers(*input, nullptr, *output);
    data->read_bytes = input->data_bytes();
    data->written_bytes = output->data_bytes();
    data->copy_bytes = output->data_bytes();
    return data;
  }};
}

std::vector<CaseSpec> PaddingCases() {
  std::vector<CaseSpec> cases;
  cases.push_back(Pad("ConvInputPadConstant", {32, 64, 56, 56}, {0, 0, 1, 1}, {0, 0, 1, 1},
                      DML_PADDING_MODE_CONSTANT));
  cases.push_back(Pad("ConvInputPadReflect", {32, 64, 56, 56}, {0, 0, 1, 1}, {0, 0, 1, 1},
                      DML_PADDING_MODE_REFLECTION));
  cases.push_back(DepthSpace("PixelShuffleDcr", DML_OPERATOR_DEPTH_TO_SPACE1, {1, 256, 128, 128},
                             2, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW));
  cases.push_back(DepthSpace("PixelShuffleCrd", DML_OPERATOR_DEPTH_TO_SPACE1, {1, 256, 128, 128},
                             2, DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH));
  cases.push_back(DepthSpace("PatchUnshuffle", DML_OPERATOR_SPACE_TO_DEPTH1, {1, 64, 256, 256}, 2,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW));
  cases.push_back(SliceGrad("SliceGradWindow", kFp16, {8, 32, 2048, 128}, {0, 0, 512, 0},
                            {8, 32, 1024, 128}));
  cases.push_back(Pad("TinyPad", {4, 16}, {1, 1}, {1, 1}, DML_PADDING_MODE_CONSTANT,
                      CaseKind::kExecuteLatency));
  cases.push_back(Pad("TinyPadReflect", {4, 16}, {1, 1}, {1, 1}, DML_PADDING_MODE_REFLECTION,
                      CaseKind::kExecuteLatency));
  cases.push_back(DepthSpace("TinyDepthToSpace", DML_OPERATOR_DEPTH_TO_SPACE1, {1, 4, 2, 8}, 2,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, CaseKind::kExecuteLatency));
  cases.push_back(SliceGrad("TinySliceGrad", kFp32, {4, 16}, {1, 4}, {2, 8},
                            CaseKind::kExecuteLatency));
  return cases;
}

}  // namespace

void RegisterPaddingBenchmarks() { RegisterCases(PaddingCases()); }

}  // namespace dmlcpu_bench
