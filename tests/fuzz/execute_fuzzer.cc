// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point: valid descriptors, hostile bindings. See fuzz_harness.h.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dmlcpu_fuzz::ExecuteFuzzOne(data, size);
  return 0;
}
