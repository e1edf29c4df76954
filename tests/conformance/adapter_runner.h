// SPDX-License-Identifier: Apache-2.0
// Test helper shared by the ONNX adapter suites: runs an adapted node on host tensors, with every
// binding packed or laid out with caller-chosen (padded) strides, and checks that nothing but
// the output's elements was written.
#ifndef DMLCPU_TESTS_CONFORMANCE_ADAPTER_RUNNER_H_
#define DMLCPU_TESTS_CONFORMANCE_ADAPTER_RUNNER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"
#include "gtest/gtest.h"

namespace dmlcpu_test {

// A tensor as plain values: ONNX element type, shape, packed little-endian bytes.
struct HostTensor {
  dmlcpu::onnx::ElementType type = dmlcpu::onnx::ElementType::kUndefined;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  uint64_t Elems() const {
    uint64_t elems = 1;
    for (int64_t d : shape) elems *= static_cast<uint64_t>(d);
    return elems;
  }
  dmlcpu::onnx::TensorType Type() const { return {type, shape}; }
};

// Calls fn(element offset in the buffer, row-major element index) for every element of `shape`
// laid out with `strides_elems` (empty = packed).
template <typename Fn>
void ForEachElement(const std::vector<int64_t>& shape, const std::vector<uint32_t>& strides_elems,
                    Fn fn) {
  std::vector<uint64_t> strides(shape.size());
  uint64_t count = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = strides_elems.empty() ? count : strides_elems[d];
    count *= static_cast<uint64_t>(shape[d]);
  }
  std::vector<int64_t> coord(shape.size(), 0);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      offset += static_cast<uint64_t>(coord[d]) * strides[d];
    }
    fn(offset, i);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++coord[d] < shape[d]) break;
      coord[d] = 0;
    }
  }
}

inline uint8_t Sentinel(size_t i) { return static_cast<uint8_t>(0xA5 ^ (i * 131)); }

// Lays `inputs` out (input i with `input_strides[i]`, empty = packed; stride gaps hold 0xCD),
// compiles `desc` with its compile_options (a scatter's reduction; whose layouts the caller already set to the same strides) and executes it
// into an output buffer pre-filled with a sentinel, then returns the output's logical elements
// (row-major, packed) in `output`. Fails if Compile or Execute fails or if any output byte that
// is not an element changed. Precondition: !desc.output_is_empty().
inline ::testing::AssertionResult ExecuteAdapted(
    const dmlcpu::Device& device, const dmlcpu::onnx::OperatorDesc& desc,
    const std::vector<const HostTensor*>& inputs,
    const std::vector<std::vector<uint32_t>>& input_strides,
    const std::vector<uint32_t>& output_strides, dmlcpu::IndexPolicy policy,
    std::vector<uint8_t>* output) {
  if (desc.input_count() != inputs.size()) {
    return ::testing::AssertionFailure() << desc.input_count() << " bindings, " << inputs.size()
                                         << " tensors";
  }
  auto op = device.Compile(desc.desc(), desc.compile_options(policy));
  if (!op.ok()) {
    return ::testing::AssertionFailure() << "Compile: " << op.status().message() << "\n  "
                                         << desc.ToString();
  }
  std::vector<std::vector<uint8_t>> buffers(inputs.size());
  std::vector<dmlcpu::Binding> bindings;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostTensor& t = *inputs[i];
    const uint32_t element_bytes = dmlcpu::onnx::ElementSizeBytes(t.type);
    buffers[i].assign(desc.input_bytes(i), 0xCD);
    bool fits = true;
    ForEachElement(t.shape, input_strides[i], [&](uint64_t offset, uint64_t index) {
      if ((offset + 1) * element_bytes > buffers[i].size()) {
        fits = false;
        return;
      }
      std::memcpy(buffers[i].data() + offset * element_bytes,
                  t.bytes.data() + index * element_bytes, element_bytes);
    });
    if (!fits) {
      return ::testing::AssertionFailure() << "input " << i << " does not fit input_bytes "
                                           << desc.input_bytes(i);
    }
    // A view that starts inside its buffer (Pad's crop) binds from there.
    const uint64_t offset = desc.input_offset_bytes(i);
    bindings.push_back({buffers[i].data() + offset, buffers[i].size() - offset});
  }
  const std::vector<std::vector<uint8_t>> originals = buffers;
  std::vector<uint8_t> out(desc.output_bytes());
  for (size_t i = 0; i < out.size(); ++i) out[i] = Sentinel(i);
  dmlcpu::OutputBinding out_binding{out.data(), out.size()};
  const dmlcpu::Status status = op->Execute(bindings.data(), bindings.size(), &out_binding, 1);
  if (!status.ok()) {
    return ::testing::AssertionFailure() << "Execute: " << status.message() << "\n  "
                                         << desc.ToString();
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (buffers[i] != originals[i]) {
      return ::testing::AssertionFailure() << "input " << i << " changed";
    }
  }

  const uint32_t element_bytes = dmlcpu::onnx::ElementSizeBytes(desc.output_element_type());
  output->assign(desc.output_elems() * element_bytes, 0);
  std::vector<bool> is_element(out.size(), false);
  bool fits = true;
  ForEachElement(desc.output_shape(), output_strides, [&](uint64_t offset, uint64_t index) {
    if ((offset + 1) * element_bytes > out.size()) {
      fits = false;
      return;
    }
    std::memcpy(output->data() + index * element_bytes, out.data() + offset * element_bytes,
                element_bytes);
    for (uint32_t b = 0; b < element_bytes; ++b) is_element[offset * element_bytes + b] = true;
  });
  if (!fits) {
    return ::testing::AssertionFailure() << "output does not fit output_bytes "
                                         << desc.output_bytes();
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (!is_element[i] && out[i] != Sentinel(i)) {
      return ::testing::AssertionFailure() << "output byte " << i << " outside the elements was "
                                           << "written\n  " << desc.ToString();
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_CONFORMANCE_ADAPTER_RUNNER_H_
