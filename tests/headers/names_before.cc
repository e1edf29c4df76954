// SPDX-License-Identifier: Apache-2.0
// A C++17 engine with its own Win32-style names before dmlcpu's headers; dmlcpu.h must also
// not bring oneTBB in.
typedef unsigned char BOOL;
typedef unsigned char BYTE;
typedef unsigned long UINT;
typedef long INT;
typedef unsigned long UINT32;
typedef double FLOAT;

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/onnx.h"

#if defined(TBB_VERSION_MAJOR) || defined(__TBB_task_arena_H) || defined(__TBB_tbb_stddef_H)
#error "dmlcpu.h included a oneTBB header"
#endif

int main() {
  BOOL ok = 1;
  dmlcpu::DeviceOptions options;
  ok = ok && options.tbb_arena == nullptr;
  static_assert(DMLCPU_VERSION_MAJOR >= 0, "version.h comes with dmlcpu.h");
  ok = ok && dmlcpu::onnx::ElementSizeBytes(dmlcpu::onnx::ElementType::kFloat) == 4;
  return ok ? 0 : 1;
}
