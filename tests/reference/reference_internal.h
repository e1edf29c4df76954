// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the reference's files (reference.cc and each family's
// reference_<family>.cc). Test-internal: only tests/reference/ includes it.
#ifndef DMLCPU_TESTS_REFERENCE_REFERENCE_INTERNAL_H_
#define DMLCPU_TESTS_REFERENCE_REFERENCE_INTERNAL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "reference/reference.h"

namespace dmlcpu_test {
namespace reference_internal {

constexpr uint32_t kMaxRank = 8;

// One tensor as the reference sees it: sizes and element strides (packed when the desc has
// none), plus the element width. Coordinates are uint64_t to keep the arithmetic obvious.
struct TensorView {
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
  uint32_t rank = 0;
  std::vector<uint32_t> sizes;
  std::vector<uint64_t> strides_elems;
  uint32_t element_bytes = 0;

  uint64_t ByteOffset(const std::vector<uint64_t>& coord) const {
    uint64_t offset_elems = 0;
    for (uint32_t d = 0; d < rank; ++d) offset_elems += coord[d] * strides_elems[d];
    return offset_elems * element_bytes;
  }
};

// Fills `view` from a tensor desc (buffer tensor, rank 1-8, sizes >= 1, a sized data type);
// returns an error message prefixed with `name` (empty on success).
std::string MakeView(const DML_TENSOR_DESC* tensor, const char* name, TensorView* view);

// Advances `coord` to the next coordinate of `sizes` in row-major order; false after the last.
bool NextCoordinate(const std::vector<uint32_t>& sizes, std::vector<uint64_t>* coord);

// Copies one element (out.element_bytes wide) from input[in_coord] to output[out_coord].
inline void CopyElement(const TensorView& in, const void* input,
                        const std::vector<uint64_t>& in_coord, const TensorView& out, void* output,
                        const std::vector<uint64_t>& out_coord) {
  std::memcpy(static_cast<uint8_t*>(output) + out.ByteOffset(out_coord),
              static_cast<const uint8_t*>(input) + in.ByteOffset(in_coord), out.element_bytes);
}

inline ReferenceResult Error(std::string message) {
  ReferenceResult result;
  result.ok = false;
  result.error = std::move(message);
  return result;
}

}  // namespace reference_internal
}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_REFERENCE_REFERENCE_INTERNAL_H_
