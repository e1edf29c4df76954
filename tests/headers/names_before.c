/* SPDX-License-Identifier: Apache-2.0 */
/* A C99 engine with its own Win32-style names, declared before dmlcpu's headers (incompatible
 * with the typedefs dml_compat.h once made). */
typedef unsigned char BOOL;
typedef unsigned char BYTE;
typedef unsigned long UINT;
typedef long INT;
typedef unsigned long UINT32;
typedef unsigned long long UINT64;
typedef double FLOAT;

#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/version.h"

int main(void) {
  BOOL ok = 1;
  const uint32_t sizes[1] = {4};
  /* The structs are written with <stdint.h> types. */
  DML_BUFFER_TENSOR_DESC buffer = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes,
                                   NULL, 16, 0};
  ok = ok && buffer.Sizes[0] == 4;
  ok = ok && DMLCPU_VERSION / 1000000 == DMLCPU_VERSION_MAJOR;
  return ok ? 0 : 1;
}
