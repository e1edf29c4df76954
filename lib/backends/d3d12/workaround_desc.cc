// SPDX-License-Identifier: Apache-2.0
// WorkaroundDesc: the DirectML bugs the D3D12 backend avoids with an equivalent descriptor.
#include "backends/d3d12/workaround_desc.h"

namespace dmlcpu {
namespace internal {
namespace d3d12 {

void WorkaroundDesc::ShrinkWindows(uint32_t n, const uint32_t* offsets, const uint32_t* sizes,
                                   const int32_t* strides, const uint32_t* kept_sizes) {
  offsets_.assign(offsets, offsets + n);
  sizes_.assign(sizes, sizes + n);
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t stride = strides[i];
    const uint32_t step = static_cast<uint32_t>(stride < 0 ? -stride : stride);
    const uint32_t touched = (kept_sizes[i] - 1) * step + 1;  // <= the window (validated)
    if (stride < 0) offsets_[i] += sizes_[i] - touched;       // the window's end stays in place
    sizes_[i] = touched;
  }
}

WorkaroundDesc::WorkaroundDesc(const DML_OPERATOR_DESC& desc, bool raw) : desc_(desc) {
  if (raw) return;
  if (desc.Type == DML_OPERATOR_GATHER) {
    // GATHER with IndexDimensions - 1 > Axis (and N + IndexDimensions - 1 > 8) writes the
    // output in the wrong places, and corrupted DirectML's memory under wine. The leading
    // IndexDimensions - 1 - Axis index dims are dropped from the output, so they are 1:
    // IndexDimensions = Axis + 1 describes the same gather.
    gather_ = *static_cast<const DML_GATHER_OPERATOR_DESC*>(desc.Desc);
    if (gather_.IndexDimensions > gather_.Axis + 1) gather_.IndexDimensions = gather_.Axis + 1;
    desc_.Desc = &gather_;
  } else if (desc.Type == DML_OPERATOR_SLICE1) {
    // SLICE1 whose window covers a whole dimension at stride +1 but whose output keeps fewer
    // elements reads as if the output kept them all. Shrinking every window to the elements
    // actually read (the same ones, in the same order) avoids it.
    slice1_ = *static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc.Desc);
    const auto* out = static_cast<const DML_BUFFER_TENSOR_DESC*>(slice1_.OutputTensor->Desc);
    ShrinkWindows(slice1_.DimensionCount, slice1_.InputWindowOffsets, slice1_.InputWindowSizes,
                  slice1_.InputWindowStrides, out->Sizes);
    slice1_.InputWindowOffsets = offsets_.data();
    slice1_.InputWindowSizes = sizes_.data();
    desc_.Desc = &slice1_;
  } else if (desc.Type == DML_OPERATOR_SLICE_GRAD) {
    // SLICE_GRAD has the same bug (its gradient written as if it filled the window): the
    // same shrinking, with the input gradient's sizes.
    slice_grad_ = *static_cast<const DML_SLICE_GRAD_OPERATOR_DESC*>(desc.Desc);
    const auto* grad =
        static_cast<const DML_BUFFER_TENSOR_DESC*>(slice_grad_.InputGradientTensor->Desc);
    ShrinkWindows(slice_grad_.DimensionCount, slice_grad_.InputWindowOffsets,
                  slice_grad_.InputWindowSizes, slice_grad_.InputWindowStrides, grad->Sizes);
    slice_grad_.InputWindowOffsets = offsets_.data();
    slice_grad_.InputWindowSizes = sizes_.data();
    desc_.Desc = &slice_grad_;
  }
}

}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu
