// SPDX-License-Identifier: Apache-2.0
// Naive reference of SLICE_GRAD (docs/semantics.md#slice_grad): the output gradient is zero
// except where the forward SLICE1 read, which receives the input gradient.
#include <cstring>
#include <string>
#include <vector>

#include "reference/reference.h"
#include "reference/reference_internal.h"

namespace dmlcpu_test {

using reference_internal::CopyElement;
using reference_internal::Error;
using reference_internal::MakeView;
using reference_internal::NextCoordinate;
using reference_internal::TensorView;

ReferenceResult ReferenceSliceGrad(const DML_SLICE_GRAD_OPERATOR_DESC& desc,
                                   const void* input_gradient, void* output_gradient) {
  TensorView in, out;
  std::string error = MakeView(desc.InputGradientTensor, "InputGradientTensor", &in);
  if (error.empty()) error = MakeView(desc.OutputGradientTensor, "OutputGradientTensor", &out);
  if (!error.empty()) return Error("SLICE_GRAD: " + error);
  const uint32_t n = out.rank;
  if (in.rank != n || desc.DimensionCount != n) return Error("SLICE_GRAD: ranks differ");
  if (in.data_type != out.data_type) return Error("SLICE_GRAD: data types differ");
  if (desc.InputWindowOffsets == nullptr || desc.InputWindowSizes == nullptr ||
      desc.InputWindowStrides == nullptr) {
    return Error("SLICE_GRAD: null attribute array");
  }
  std::vector<int64_t> start(n);
  for (uint32_t d = 0; d < n; ++d) {
    const int64_t offset = desc.InputWindowOffsets[d];
    const int64_t window = desc.InputWindowSizes[d];
    const int64_t stride = desc.InputWindowStrides[d];
    if (window < 1 || offset + window > out.sizes[d]) {
      return Error("SLICE_GRAD: window outside the output gradient");
    }
    if (stride == 0) return Error("SLICE_GRAD: zero stride");
    const int64_t step = stride < 0 ? -stride : stride;
    if (in.sizes[d] > 1 + (window - 1) / step) return Error("SLICE_GRAD: gradient too large");
    start[d] = offset + (stride < 0 ? window - 1 : 0);
  }

  ReferenceResult result;
  result.ok = true;
  // OutputGradient = 0 ...
  std::vector<uint64_t> o(n, 0);
  do {
    std::memset(static_cast<uint8_t*>(output_gradient) + out.ByteOffset(o), 0, out.element_bytes);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  // ... then OutputGradient[start + InputWindowStrides * g] = InputGradient[g].
  std::vector<uint64_t> g(n, 0), target(n, 0);
  do {
    for (uint32_t d = 0; d < n; ++d) {
      const int64_t c =
          start[d] + int64_t{desc.InputWindowStrides[d]} * static_cast<int64_t>(g[d]);
      if (c < 0 || c >= static_cast<int64_t>(out.sizes[d])) {
        return Error("SLICE_GRAD: write outside the output (reference bug)");
      }
      target[d] = static_cast<uint64_t>(c);
    }
    CopyElement(in, input_gradient, g, out, output_gradient, target);
  } while (NextCoordinate(in.sizes, &g));
  return result;
}

}  // namespace dmlcpu_test
