// SPDX-License-Identifier: Apache-2.0
// Naive references of DEPTH_TO_SPACE(1) and SPACE_TO_DEPTH(1) (docs/semantics.md#depth_to_space):
// for every output coordinate, the input coordinate from the formula, one element copied.
#include <string>
#include <vector>

#include "reference/reference.h"
#include "reference/reference_internal.h"

namespace dmlcpu_test {
namespace {

using reference_internal::CopyElement;
using reference_internal::Error;
using reference_internal::MakeView;
using reference_internal::NextCoordinate;
using reference_internal::TensorView;

// `depth` is the {N, C·b·b, H, W} tensor, `space` the {N, C, H·b, W·b} one; `to_space` says
// which is the input. DCR: depth channel (i·b + j)·C + c; CRD: c·b·b + i·b + j, where (i, j) is
// the position inside the b × b block of space row h·b + i, column w·b + j.
ReferenceResult DepthSpace(const char* op, const DML_TENSOR_DESC* input_desc,
                           const DML_TENSOR_DESC* output_desc, uint32_t block, uint32_t order,
                           bool to_space, const void* input, void* output) {
  TensorView in, out;
  std::string error = MakeView(input_desc, "InputTensor", &in);
  if (error.empty()) error = MakeView(output_desc, "OutputTensor", &out);
  if (!error.empty()) return Error(std::string(op) + ": " + error);
  if (in.rank != 4 || out.rank != 4) return Error(std::string(op) + ": rank is not 4");
  if (in.data_type != out.data_type) return Error(std::string(op) + ": data types differ");
  if (block < 1 || order > 1) return Error(std::string(op) + ": bad BlockSize or Order");
  const TensorView& depth = to_space ? in : out;
  const TensorView& space = to_space ? out : in;
  const uint64_t b = block;
  const uint64_t c_space = space.sizes[1];
  if (uint64_t{depth.sizes[0]} != space.sizes[0] || depth.sizes[1] != c_space * b * b ||
      uint64_t{depth.sizes[2]} * b != space.sizes[2] ||
      uint64_t{depth.sizes[3]} * b != space.sizes[3]) {
    return Error(std::string(op) + ": sizes do not match the block size");
  }
  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> s(4, 0), d(4, 0);
  do {  // walk the space tensor
    const uint64_t h = s[2] / b, i = s[2] % b, w = s[3] / b, j = s[3] % b, c = s[1];
    d[0] = s[0];
    d[1] = order == 0 ? (i * b + j) * c_space + c : c * b * b + i * b + j;
    d[2] = h;
    d[3] = w;
    if (to_space) {
      CopyElement(in, input, d, out, output, s);
    } else {
      CopyElement(in, input, s, out, output, d);
    }
    ++result.elements_written;
  } while (NextCoordinate(space.sizes, &s));
  return result;
}

}  // namespace

ReferenceResult ReferenceDepthToSpace(const DML_DEPTH_TO_SPACE_OPERATOR_DESC& desc,
                                      const void* input, void* output) {
  return DepthSpace("DEPTH_TO_SPACE", desc.InputTensor, desc.OutputTensor, desc.BlockSize, 0,
                    /*to_space=*/true, input, output);
}

ReferenceResult ReferenceSpaceToDepth(const DML_SPACE_TO_DEPTH_OPERATOR_DESC& desc,
                                      const void* input, void* output) {
  return DepthSpace("SPACE_TO_DEPTH", desc.InputTensor, desc.OutputTensor, desc.BlockSize, 0,
                    /*to_space=*/false, input, output);
}

ReferenceResult ReferenceDepthToSpace1(const DML_DEPTH_TO_SPACE1_OPERATOR_DESC& desc,
                                       const void* input, void* output) {
  return DepthSpace("DEPTH_TO_SPACE1", desc.InputTensor, desc.OutputTensor, desc.BlockSize,
                    static_cast<uint32_t>(desc.Order), /*to_space=*/true, input, output);
}

ReferenceResult ReferenceSpaceToDepth1(const DML_SPACE_TO_DEPTH1_OPERATOR_DESC& desc,
                                       const void* input, void* output) {
  return DepthSpace("SPACE_TO_DEPTH1", desc.InputTensor, desc.OutputTensor, desc.BlockSize,
                    static_cast<uint32_t>(desc.Order), /*to_space=*/false, input, output);
}

}  // namespace dmlcpu_test
