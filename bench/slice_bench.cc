// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — SLICE / SLICE1 (strided slices, flips, strided views).
//
// Shapes come from the models that produce them:
//   KvCacheWindow       a sliding attention window over a KV cache {batch, heads, seq, head_dim}
//   HeadSplit           half of the attention heads of a {batch, heads, seq, head_dim} tensor
//   ResNetStride2Subsample   the stride-2 1x1 shortcut of a ResNet downsampling block
//   InterleavedChannelSelect one channel out of interleaved RGB pixels ([:, 1::3])
//   HorizontalFlip / VerticalFlip  data augmentation flips (SLICE1 with a -1 stride)
//   KeyTransposeView    materialising K^T for attention (input read through strides {1, 4096})
//   StridedOutputRows   writing into every other row of a larger buffer (output strides)
//   *View               permuted copies (IDENTITY, DEPTH_TO_SPACE) spelled as a full SLICE1 of a
//                       strided view of the input: NCHW -> NHWC, attention heads to the sequence
//                       axis, DepthToSpace in DCR and CRD order
//   ShapeSubgraphSlice  the tiny slices of ONNX shape subgraphs: nanoseconds per Execute
//   CompileRank8Slice1  Compile latency of a rank-8 SLICE1
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "bench_util.h"

namespace dmlcpu_bench {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFp16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE kFp32 = DML_TENSOR_DATA_TYPE_FLOAT32;

// Output size of a SLICE1 window dimension with the largest allowed count.
uint32_t WindowOutputSize(uint32_t window_size, int32_t stride) {
  const uint32_t step = static_cast<uint32_t>(stride < 0 ? -stride : stride);
  return 1 + (window_size - 1) / step;
}

// A slice case, built fluently:
//   SliceParams().Type(kFp16).Input({8, 64, 2048, 128}).Window({0, 0, 512, 0}, {8, 64, 1024, 128})
struct SliceParams {
  SliceParams& Type(DML_TENSOR_DATA_TYPE t) { data_type = t; return *this; }
  SliceParams& Input(std::vector<uint32_t> sizes, std::vector<uint32_t> strides_elems = {}) {
    input_sizes = std::move(sizes);
    input_strides_elems = std::move(strides_elems);
    return *this;
  }
  // SLICE1 window; strides default to 1.
  SliceParams& Window(std::vector<uint32_t> window_offsets, std::vector<uint32_t> sizes,
                      std::vector<int32_t> window_strides = {}) {
    offsets = std::move(window_offsets);
    window_sizes = std::move(sizes);
    strides = window_strides.empty() ? std::vector<int32_t>(offsets.size(), 1)
                                     : std::move(window_strides);
    return *this;
  }
  // Use SLICE (60) instead of SLICE1 (111): `output_sizes` are SLICE's Sizes, strides > 0.
  SliceParams& LegacySlice(std::vector<uint32_t> slice_offsets,
                           std::vector<uint32_t> output_sizes,
                           std::vector<int32_t> slice_strides) {
    legacy_slice = true;
    offsets = std::move(slice_offsets);
    window_sizes = std::move(output_sizes);
    strides = std::move(slice_strides);
    return *this;
  }
  SliceParams& OutputStrides(std::vector<uint32_t> strides_elems) {
    output_strides_elems = std::move(strides_elems);
    return *this;
  }

  DML_TENSOR_DATA_TYPE data_type = kFp32;
  std::vector<uint32_t> input_sizes;
  std::vector<uint32_t> input_strides_elems;  // empty = packed
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> window_sizes;
  std::vector<int32_t> strides;
  std::vector<uint32_t> output_strides_elems;  // empty = packed
  bool legacy_slice = false;
};

std::unique_ptr<CaseData> MakeSliceCase(const SliceParams& p) {
  auto data = std::make_unique<CaseData>();
  std::vector<uint32_t> output_sizes(p.offsets.size());
  for (size_t d = 0; d < output_sizes.size(); ++d) {
    output_sizes[d] = p.legacy_slice ? p.window_sizes[d]
                                     : WindowOutputSize(p.window_sizes[d], p.strides[d]);
  }
  const Tensor* input = data->AddTensor(p.data_type, p.input_sizes, p.input_strides_elems);
  const Tensor* output = data->AddTensor(p.data_type, output_sizes, p.output_strides_elems);
  const uint32_t rank = static_cast<uint32_t>(p.offsets.size());
  if (p.legacy_slice) {
    std::vector<uint32_t> strides_u(p.strides.begin(), p.strides.end());
    DML_SLICE_OPERATOR_DESC desc{input->desc(), output->desc(), rank, data->KeepUints(p.offsets),
                                 data->KeepUints(p.window_sizes), data->KeepUints(strides_u)};
    data->SetOperator(DML_OPERATOR_SLICE, desc);
    // SLICE reads Offsets + Strides * o: the SLICE1 mapping with positive strides.
    std::vector<uint32_t> spans(rank);
    for (uint32_t d = 0; d < rank; ++d) {
      spans[d] = (p.window_sizes[d] - 1) * static_cast<uint32_t>(p.strides[d]) + 1;
    }
    data->source_byte_offset = SliceSource(*input, *output, p.offsets, spans, p.strides);
  } else {
    DML_SLICE1_OPERATOR_DESC desc{input->desc(), output->desc(), rank,
                                  data->KeepUints(p.offsets), data->KeepUints(p.window_sizes),
                                  data->KeepInts(p.strides)};
    data->SetOperator(DML_OPERATOR_SLICE1, desc);
    data->source_byte_offset =
        SliceSource(*input, *output, p.offsets, p.window_sizes, p.strides);
  }
  data->AllocateBuffers(*input, nullptr, *output);
  data->read_bytes = output->data_bytes();
  data->written_bytes = output->data_bytes();
  data->copy_bytes = output->data_bytes();
  return data;
}

CaseSpec Slice(std::string name, SliceParams params, CaseKind kind = CaseKind::kThroughput) {
  return CaseSpec{std::move(name), kind, [params] { return MakeSliceCase(params); }};
}

std::vector<CaseSpec> SliceCases() {
  std::vector<CaseSpec> cases;
  // {batch 8, heads 64, seq 2048, head_dim 128} fp16 -> [:, :, 512:1536, :]. 256 MiB in, 128 out.
  cases.push_back(Slice("KvCacheWindow", SliceParams()
                                             .Type(kFp16)
                                             .Input({8, 64, 2048, 128})
                                             .Window({0, 0, 512, 0}, {8, 64, 1024, 128})));
  // {8, 64, 2048, 128} fp32 -> [:, 16:48] with SLICE. 512 MiB in, 256 out.
  cases.push_back(Slice("HeadSplit", SliceParams()
                                         .Input({8, 64, 2048, 128})
                                         .LegacySlice({0, 16, 0, 0}, {8, 32, 2048, 128},
                                                      {1, 1, 1, 1})));
  // {4096, 4096} -> [::2, ::2] with SLICE (output {2048, 2048}).
  cases.push_back(Slice("ResNetStride2Subsample",
                        SliceParams().Input({4096, 4096}).LegacySlice({0, 0}, {2048, 2048},
                                                                      {2, 2})));
  // {4096, 4096} -> [:, 1::3] (output {4096, 1365}).
  cases.push_back(Slice("InterleavedChannelSelect",
                        SliceParams().Input({4096, 4096}).Window({0, 1}, {4096, 4095}, {1, 3})));
  // Flip the last / the first axis of {4096, 4096}.
  cases.push_back(Slice("HorizontalFlip",
                        SliceParams().Input({4096, 4096}).Window({0, 0}, {4096, 4096}, {1, -1})));
  cases.push_back(Slice("VerticalFlip",
                        SliceParams().Input({4096, 4096}).Window({0, 0}, {4096, 4096}, {-1, 1})));
  // A transposed view: logical {4096, 4096} read through input strides {1, 4096}.
  cases.push_back(Slice("KeyTransposeView", SliceParams()
                                                .Input({4096, 4096}, {1, 4096})
                                                .Window({0, 0}, {4096, 4096})));
  // NCHW -> NHWC of {32, 64, 56, 56} (a ResNet activation): the NCHW buffer viewed as
  // {N, H, W, C} with strides {C*H*W, W, 1, H*W}.
  cases.push_back(Slice("NchwToNhwcView", SliceParams()
                                              .Input({32, 56, 56, 64}, {200704, 56, 1, 3136})
                                              .Window({0, 0, 0, 0}, {32, 56, 56, 64})));
  // Attention heads {1, 32, 2048, 128} fp16 with perm {0, 2, 1, 3}: {batch, seq, heads, dim}.
  cases.push_back(Slice("AttentionHeadsView",
                        SliceParams()
                            .Type(kFp16)
                            .Input({1, 2048, 32, 128}, {8388608, 128, 262144, 1})
                            .Window({0, 0, 0, 0}, {1, 2048, 32, 128})));
  // DepthToSpace of {1, 256, 128, 128} with block 2 -> {1, 64, 256, 256}: the input viewed
  // 6-D as {n, c, h, i, w, j} (output row h*2+i, column w*2+j), channel (i*2+j)*64 + c (DCR)
  // or c*4 + i*2 + j (CRD).
  cases.push_back(Slice("DepthToSpaceDcrView",
                        SliceParams()
                            .Input({1, 64, 128, 2, 128, 2},
                                   {4194304, 16384, 128, 2097152, 1, 1048576})
                            .Window({0, 0, 0, 0, 0, 0}, {1, 64, 128, 2, 128, 2})));
  cases.push_back(Slice("DepthToSpaceCrdView",
                        SliceParams()
                            .Input({1, 64, 128, 2, 128, 2}, {4194304, 65536, 128, 32768, 1, 16384})
                            .Window({0, 0, 0, 0, 0, 0}, {1, 64, 128, 2, 128, 2})));
  // {2048, 4096} written into every other row of a {4096, 4096} buffer (output strides).
  cases.push_back(Slice("StridedOutputRows", SliceParams()
                                                 .Input({2048, 4096})
                                                 .Window({0, 0}, {2048, 4096})
                                                 .OutputStrides({8192, 1})));
  // {4, 16} -> [1:3, 4:12]: per-call overhead.
  cases.push_back(Slice("ShapeSubgraphSlice",
                        SliceParams().Input({4, 16}).Window({1, 4}, {2, 8}),
                        CaseKind::kExecuteLatency));
  // Rank-8 SLICE1 with mixed strides: Compile latency.
  cases.push_back(Slice("CompileRank8Slice1",
                        SliceParams()
                            .Input({4, 4, 4, 4, 4, 4, 4, 32})
                            .Window({1, 0, 1, 0, 1, 0, 1, 0}, {2, 4, 2, 4, 2, 4, 2, 32},
                                    {1, 2, -1, 2, 1, -2, 1, 3}),
                        CaseKind::kCompileLatency));
  return cases;
}

}  // namespace

void RegisterSliceBenchmarks() { RegisterCases(SliceCases()); }

}  // namespace dmlcpu_bench
