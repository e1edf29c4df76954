/* SPDX-License-Identifier: Apache-2.0 */
/* Win32-style names declared after dmlcpu's headers: C99 forbids a second typedef of a name, so
 * this compiles only if the headers declared none of them. */
#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu_c.h"

typedef char BOOL;
typedef char BYTE;
typedef short UINT;
typedef short INT;
typedef short INT8;
typedef short UINT8;
typedef char INT16;
typedef char UINT16;
typedef short INT32;
typedef short UINT32;
typedef short INT64;
typedef short UINT64;
typedef long double FLOAT;
typedef long double DOUBLE;

int main(void) {
  BOOL ok = 1;
  ok = ok && sizeof(DML_SCALAR_UNION) == 8;
  return ok ? 0 : 1;
}
