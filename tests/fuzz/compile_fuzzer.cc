// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point: any descriptor of the six operators through Compile, and Execute +
// reference comparison when it compiles. See fuzz_harness.h.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dmlcpu_fuzz::CompileFuzzOne(data, size);
  return 0;
}
