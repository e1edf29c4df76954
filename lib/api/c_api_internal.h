// SPDX-License-Identifier: Apache-2.0
// What the parts of the C ABI share (c_api.cc, c_api_onnx*.cc): the ONNX node handle, its
// builders' helpers and the last-error helpers of the rule in docs/abi.md.
#ifndef DMLCPU_API_C_API_INTERNAL_H_
#define DMLCPU_API_C_API_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/onnx.h"
#include "dmlcpu/status.h"

struct dmlcpu_onnx_node {
  dmlcpu::onnx::OperatorDesc node;
};

namespace dmlcpu_c {

// Records `message` as this thread's last error and returns `code`.
dmlcpu_status Fail(dmlcpu_status code, std::string message);
// DMLCPU_OK, or the status's code with its message recorded.
dmlcpu_status FromStatus(const dmlcpu::Status& s);
// Copies text into buffer (NUL-terminated, truncated to capacity); returns text.size().
uint64_t CopyText(const std::string& text, char* buffer, uint64_t capacity);

// Copies a C tensor type; DMLCPU_INVALID_ARGUMENT (naming `function` and `name`) when it is null
// or its shape is null for a non-zero rank, DMLCPU_UNSUPPORTED beyond onnx::kMaxRank.
dmlcpu_status ToTensorType(const char* function, const char* name,
                           const dmlcpu_onnx_tensor_type* in, dmlcpu::onnx::TensorType* out);
// *out = a new node holding `node`'s value, or its error.
dmlcpu_status FinishNode(const char* function,
                         dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc>&& node,
                         dmlcpu_onnx_node** out);
// `count` values from `values` (NULL allowed only when count is 0) into *out.
dmlcpu_status ToVector(const char* function, const char* name, const int64_t* values,
                       uint32_t count, std::vector<int64_t>* out);

}  // namespace dmlcpu_c

#endif  // DMLCPU_API_C_API_INTERNAL_H_
