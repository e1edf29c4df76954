// SPDX-License-Identifier: Apache-2.0
// Kernel dispatch of portable builds (DMLCPU_PORTABLE): no Highway, the scalar set only.
#include <vector>

#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {

const KernelSet& BestKernels() { return ScalarKernels(); }

std::vector<const KernelSet*> AllSupportedKernels() { return {&ScalarKernels()}; }

}  // namespace kernels
}  // namespace dmlcpu
