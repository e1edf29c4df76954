// SPDX-License-Identifier: Apache-2.0
// Win32-style names declared after dmlcpu's headers with other types than dml_compat.h once
// gave them: a conflicting typedef would not compile.
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/onnx.h"

typedef char BOOL;
typedef char BYTE;
typedef short UINT;
typedef short INT;
typedef short UINT32;
typedef short UINT64;
typedef long double FLOAT;

int main() {
  BOOL ok = 1;
  ok = ok && sizeof(DML_BUFFER_TENSOR_DESC) >= 40;
  return ok ? 0 : 1;
}
