// SPDX-License-Identifier: Apache-2.0
// Run as `taskset -c 0 default_threads_probe 1` by ctest: a default device (max_threads = 0)
// must plan for exactly the CPUs the process may run on.
#include <cstdio>
#include <cstdlib>

#include "dmlcpu/dmlcpu.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s EXPECTED_CONCURRENCY\n", argv[0]);
    return 2;
  }
  const unsigned long expected = std::strtoul(argv[1], nullptr, 10);
  const dmlcpu::Device device;
  const uint32_t concurrency = device.max_concurrency();
  std::printf("Device().max_concurrency() = %u, expected %lu\n", concurrency, expected);
  return concurrency == expected ? 0 : 1;
}
