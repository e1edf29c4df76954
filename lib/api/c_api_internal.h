// SPDX-License-Identifier: Apache-2.0
// What the two halves of the C ABI share (c_api.cc, c_api_onnx.cc): the ONNX node handle and
// the last-error helpers of the rule in docs/abi.md.
#ifndef DMLCPU_API_C_API_INTERNAL_H_
#define DMLCPU_API_C_API_INTERNAL_H_

#include <cstdint>
#include <string>

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

}  // namespace dmlcpu_c

#endif  // DMLCPU_API_C_API_INTERNAL_H_
