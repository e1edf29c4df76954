/* SPDX-License-Identifier: Apache-2.0 */
/* Code written against DirectML.h asks for the Win32 names with DMLCPU_WIN32_TYPES. */
#define DMLCPU_WIN32_TYPES
#include "dmlcpu/dmlcpu_c.h"

int main(void) {
  const UINT sizes[2] = {2, 3};
  const INT strides[2] = {-3, 1};
  BOOL ok = 1;
  UINT64 total = dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL);
  DML_SLICE1_OPERATOR_DESC slice;
  slice.InputWindowStrides = strides;
  ok = ok && total == 24 && slice.InputWindowStrides[0] == -3;
  return ok ? 0 : 1;
}
