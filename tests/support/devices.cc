// SPDX-License-Identifier: Apache-2.0
#include "support/devices.h"

#include <gtest/gtest.h>

#include "support/thread_pool.h"

namespace dmlcpu_test {

const std::vector<const dmlcpu::Device*>& ThreadedDevices() {
  static const dmlcpu::Device serial(dmlcpu::DeviceOptions{1, nullptr});
  static const dmlcpu::Device two_threads(dmlcpu::DeviceOptions{2, nullptr});
  static const dmlcpu::Device eight_threads(dmlcpu::DeviceOptions{8, nullptr});
  static const std::vector<const dmlcpu::Device*> devices = {&serial, &two_threads,
                                                             &eight_threads};
  return devices;
}

const std::vector<const dmlcpu::Device*>& DevicesWithEnginePool() {
  // Function-local statics are destroyed in reverse order: the pool outlives its device.
  const std::vector<const dmlcpu::Device*>& threaded = ThreadedDevices();
  static TestThreadPool pool(3);
  static const dmlcpu::Device engine_pool(pool.Options(4));
  static const std::vector<const dmlcpu::Device*> devices = [&] {
    std::vector<const dmlcpu::Device*> all = threaded;
    all.push_back(&engine_pool);
    return all;
  }();
  return devices;
}

std::string DescriptionOn(const dmlcpu::Device& device, const DML_OPERATOR_DESC& desc) {
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device.Compile(desc);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  return compiled.ok() ? compiled.value().Describe() : std::string();
}

}  // namespace dmlcpu_test
