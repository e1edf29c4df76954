// SPDX-License-Identifier: Apache-2.0
// The descriptor the D3D12 backend hands to DirectML: the caller's, or an equivalent one that
// avoids a DirectML bug of docs/semantics.md#observed-directml-behaviour.
#ifndef DMLCPU_BACKENDS_D3D12_WORKAROUND_DESC_H_
#define DMLCPU_BACKENDS_D3D12_WORKAROUND_DESC_H_

#include <cstdint>
#include <vector>

#include "dmlcpu/dml_compat.h"

namespace dmlcpu {
namespace internal {
namespace d3d12 {

// A copy of a validated descriptor, rewritten where DirectML needs it (raw: unchanged). Valid as
// long as the caller's descriptor and this object live.
class WorkaroundDesc {
 public:
  WorkaroundDesc(const DML_OPERATOR_DESC& desc, bool raw);
  WorkaroundDesc(const WorkaroundDesc&) = delete;
  WorkaroundDesc& operator=(const WorkaroundDesc&) = delete;

  const DML_OPERATOR_DESC* get() const { return &desc_; }

 private:
  // Shrinks each of n windows to the elements `kept_sizes` of them actually touch at the given
  // strides (the window's far end stays in place for negative strides).
  void ShrinkWindows(uint32_t n, const uint32_t* offsets, const uint32_t* sizes,
                     const int32_t* strides, const uint32_t* kept_sizes);

  DML_OPERATOR_DESC desc_;
  DML_GATHER_OPERATOR_DESC gather_ = {};
  DML_SLICE1_OPERATOR_DESC slice1_ = {};
  DML_SLICE_GRAD_OPERATOR_DESC slice_grad_ = {};
  std::vector<uint32_t> offsets_, sizes_;
};

}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_BACKENDS_D3D12_WORKAROUND_DESC_H_
