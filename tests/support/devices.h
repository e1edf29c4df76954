// SPDX-License-Identifier: Apache-2.0
// The devices the operator suites run each case on, created on first use and shared by every
// suite of a test binary, and the plan a device makes of a descriptor.
#ifndef DMLCPU_TESTS_SUPPORT_DEVICES_H_
#define DMLCPU_TESTS_SUPPORT_DEVICES_H_

#include <string>
#include <vector>

#include "dmlcpu/dmlcpu.h"

namespace dmlcpu_test {

// Devices capped at 1, 2 and 8 threads (oneTBB; serial where the build has no oneTBB).
const std::vector<const dmlcpu::Device*>& ThreadedDevices();

// ThreadedDevices() and a device whose parallel_for is an engine-owned pool of plain threads
// (3 workers and the caller, up to 4 tasks per call).
const std::vector<const dmlcpu::Device*>& DevicesWithEnginePool();

// The plan `device` makes of `desc`, as Describe prints it (empty, and a test failure, when it
// does not compile).
std::string DescriptionOn(const dmlcpu::Device& device, const DML_OPERATOR_DESC& desc);

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_DEVICES_H_
