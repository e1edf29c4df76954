// SPDX-License-Identifier: Apache-2.0
// What the copy-operator tests share: tensor descriptions, a case (operator, tensors,
// misalignment) and its run against the reference.
#ifndef DMLCPU_TESTS_OPERATORS_COPY_OPS_CASES_H_
#define DMLCPU_TESTS_OPERATORS_COPY_OPS_CASES_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"
#include "support/devices.h"
#include "support/tester.h"

namespace dmlcpu_test {

using Holder = std::unique_ptr<TensorDescHolder>;

inline Holder Make(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                   std::vector<uint32_t> strides = {}) {
  return std::make_unique<TensorDescHolder>(type, std::move(sizes), std::move(strides));
}

// One operator with its tensors: inputs and outputs in binding order, each with its misalignment.
struct Case {
  DML_OPERATOR_DESC op{};
  std::vector<const TensorDescHolder*> inputs;
  std::vector<const TensorDescHolder*> outputs;
  uint32_t misalign_bytes = 0;
  uint64_t binding_extra_bytes = 0;
  std::string description;
};

// Runs `c` on every device and on the reference from the same random inputs: every output binding
// must equal the reference's over its whole region (elements, gaps, tail and guards, all
// pre-filled with the sentinel), and the inputs must come back unchanged.
inline void RunAndCompare(const Case& c, uint64_t seed) {
  SCOPED_TRACE(c.description + " seed=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<GuardedBuffer> inputs;
  std::vector<std::vector<uint8_t>> snapshots;
  std::vector<const void*> input_ptrs;
  std::vector<dmlcpu::Binding> bindings;
  for (const TensorDescHolder* t : c.inputs) {
    inputs.emplace_back(t->total_bytes() + c.binding_extra_bytes, c.misalign_bytes);
    inputs.back().FillSentinel();
    inputs.back().FillRandom(rng);
    snapshots.push_back(inputs.back().RegionCopy());
  }
  for (GuardedBuffer& b : inputs) {
    input_ptrs.push_back(b.data());
    bindings.push_back({b.data(), b.size_bytes()});
  }
  std::vector<GuardedBuffer> expected;
  std::vector<void*> expected_ptrs;
  for (const TensorDescHolder* t : c.outputs) {
    expected.emplace_back(t->total_bytes() + c.binding_extra_bytes, c.misalign_bytes);
    expected.back().FillSentinel();
  }
  for (GuardedBuffer& b : expected) expected_ptrs.push_back(b.data());
  const ReferenceResult ref = RunReference(c.op, input_ptrs.data(), expected_ptrs.data());
  ASSERT_TRUE(ref.ok) << ref.error;

  for (const dmlcpu::Device* device : ThreadedDevices()) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = device->Compile(c.op);
    ASSERT_TRUE(op.ok()) << op.status().message();
    std::vector<GuardedBuffer> got;
    std::vector<dmlcpu::OutputBinding> out_bindings;
    for (const TensorDescHolder* t : c.outputs) {
      got.emplace_back(t->total_bytes() + c.binding_extra_bytes, c.misalign_bytes);
      got.back().FillSentinel();
    }
    for (GuardedBuffer& b : got) out_bindings.push_back({b.data(), b.size_bytes()});
    const dmlcpu::Status s =
        op->Execute(bindings.data(), bindings.size(), out_bindings.data(), out_bindings.size());
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_TRUE(got[k].RegionEquals(expected[k].RegionCopy()))
          << "output " << k << " differs from the reference, threads "
          << device->max_concurrency() << "\n"
          << op->Describe();
    }
    for (size_t k = 0; k < inputs.size(); ++k) {
      ASSERT_TRUE(inputs[k].RegionEquals(snapshots[k])) << "input " << k << " was modified";
    }
  }
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_OPERATORS_COPY_OPS_CASES_H_
