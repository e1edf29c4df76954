// SPDX-License-Identifier: Apache-2.0
// Runs an adapted copy-shaped ONNX node (onnx_movement.cc) on host tensors and checks every
// output: several outputs, empty parts that are not bindings, shape-only nodes that alias their
// input while packed, padded strided layouts whose gaps must stay untouched.
#ifndef DMLCPU_TESTS_CONFORMANCE_ONNX_MOVEMENT_RUNNER_H_
#define DMLCPU_TESTS_CONFORMANCE_ONNX_MOVEMENT_RUNNER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/adapter_runner.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"
#include "gtest/gtest.h"

namespace dmlcpu_test {

// Whether `strides_elems` (empty = packed) lay `shape` out packed (size-1 dimensions aside).
inline bool EffectivelyPacked(const std::vector<int64_t>& shape,
                              const std::vector<uint32_t>& strides_elems) {
  uint64_t packed = 1;
  for (size_t d = strides_elems.size(); d-- > 0;) {
    if (shape[d] != 1 && strides_elems[d] != packed) return false;
    packed *= static_cast<uint64_t>(shape[d]);
  }
  return true;
}

// How the non-empty bindings are laid out.
struct MovementLayout {
  bool strided_inputs = false;
  bool strided_outputs = false;
};

// Runs the adapted node on `inputs` laid out as `layout` says and checks every output against
// `expected` (elements equal, every other byte of each output binding untouched).
inline void RunMovementNode(dmlcpu::onnx::OperatorDesc desc,
                            const std::vector<const HostTensor*>& inputs,
                            const std::vector<HostTensor>& expected, MovementLayout layout) {
  namespace onnx = dmlcpu::onnx;
  SCOPED_TRACE(std::string("inputs ") + (layout.strided_inputs ? "strided" : "packed") +
               ", outputs " + (layout.strided_outputs ? "strided" : "packed"));
  ASSERT_EQ(desc.input_count(), inputs.size());
  ASSERT_EQ(desc.output_count(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(desc.output_shape(i), expected[i].shape) << "output " << i;
    EXPECT_EQ(desc.output_element_type(i), expected[i].type) << "output " << i;
    EXPECT_EQ(desc.output_is_empty(i), expected[i].Elems() == 0) << "output " << i;
  }
  if (desc.output_is_empty()) {
    for (const HostTensor& e : expected) EXPECT_EQ(e.Elems(), 0u);
    EXPECT_EQ(desc.desc().Type, DML_OPERATOR_INVALID);
    return;
  }
  std::vector<std::vector<uint32_t>> in_strides(inputs.size()), out_strides(expected.size());
  for (size_t i = 0; i < inputs.size() && layout.strided_inputs; ++i) {
    in_strides[i] = onnx::PaddedStridesElems(inputs[i]->shape, 1 + i, 2);
    const dmlcpu::Status s = desc.SetInputStrides(i, in_strides[i]);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  for (size_t i = 0; i < expected.size() && layout.strided_outputs; ++i) {
    out_strides[i] = onnx::PaddedStridesElems(expected[i].shape, 3, 3);
    const dmlcpu::Status s = desc.SetOutputStrides(i, out_strides[i]);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  if (desc.is_alias()) {
    // Nothing to execute: the output is the input's bytes, which both layouts must allow.
    ASSERT_TRUE(EffectivelyPacked(inputs.at(0)->shape, in_strides.at(0)) &&
                EffectivelyPacked(expected.at(0).shape, out_strides.at(0)))
        << desc.ToString();
    EXPECT_EQ(desc.desc().Type, DML_OPERATOR_INVALID);
    EXPECT_EQ(inputs.at(0)->bytes, expected.at(0).bytes);
    return;
  }
  ASSERT_NE(desc.desc().Type, DML_OPERATOR_INVALID) << desc.ToString();

  // Bindings: the non-empty inputs and outputs, in order.
  std::vector<std::vector<uint8_t>> in_buffers;
  std::vector<dmlcpu::Binding> in_bindings;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (desc.input_is_empty(i)) continue;
    const uint32_t width = onnx::ElementSizeBytes(inputs[i]->type);
    std::vector<uint8_t> buffer(desc.input_bytes(i), 0xCD);
    ForEachElement(inputs[i]->shape, in_strides[i], [&](uint64_t offset, uint64_t index) {
      ASSERT_LE((offset + 1) * width, buffer.size());
      std::memcpy(buffer.data() + offset * width, inputs[i]->bytes.data() + index * width, width);
    });
    in_buffers.push_back(std::move(buffer));
  }
  for (auto& b : in_buffers) in_bindings.push_back({b.data(), b.size()});
  std::vector<std::vector<uint8_t>> out_buffers;
  std::vector<size_t> out_index;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (desc.output_is_empty(i)) continue;
    std::vector<uint8_t> buffer(desc.output_bytes(i));
    for (size_t b = 0; b < buffer.size(); ++b) buffer[b] = Sentinel(b + 7 * i);
    out_buffers.push_back(std::move(buffer));
    out_index.push_back(i);
  }
  std::vector<dmlcpu::OutputBinding> out_bindings;
  for (auto& b : out_buffers) out_bindings.push_back({b.data(), b.size()});

  for (const uint32_t threads : {1u, 0u}) {
    dmlcpu::Device device(dmlcpu::DeviceOptions{threads, nullptr});
    auto op = device.Compile(desc.desc());
    ASSERT_TRUE(op.ok()) << op.status().message() << "\n  " << desc.ToString();
    const dmlcpu::Status s = op->Execute(in_bindings.data(), in_bindings.size(),
                                         out_bindings.data(), out_bindings.size());
    ASSERT_TRUE(s.ok()) << s.message() << "\n  " << desc.ToString();
    for (size_t k = 0; k < out_buffers.size(); ++k) {
      const size_t i = out_index[k];
      const uint32_t width = onnx::ElementSizeBytes(expected[i].type);
      std::vector<uint8_t> values(expected[i].bytes.size());
      std::vector<bool> is_element(out_buffers[k].size(), false);
      ForEachElement(expected[i].shape, out_strides[i], [&](uint64_t offset, uint64_t index) {
        ASSERT_LE((offset + 1) * width, out_buffers[k].size());
        std::memcpy(values.data() + index * width, out_buffers[k].data() + offset * width,
                    width);
        for (uint32_t b = 0; b < width; ++b) is_element[offset * width + b] = true;
      });
      EXPECT_EQ(values, expected[i].bytes) << "output " << i << "\n  " << desc.ToString();
      for (size_t b = 0; b < out_buffers[k].size(); ++b) {
        if (!is_element[b]) {
          ASSERT_EQ(out_buffers[k][b], Sentinel(b + 7 * i))
              << "output " << i << " byte " << b << " outside the elements was written";
        }
      }
    }
  }
}

// The packed run and the strided ones: every binding strided where the node can take it;
// shape-only nodes whose shapes differ run input-strided and output-strided separately (both at
// once must be refused).
inline void RunMovementCase(const dmlcpu::onnx::OperatorDesc& desc,
                            const std::vector<const HostTensor*>& inputs,
                            const std::vector<HostTensor>& expected, bool strided) {
  if (!strided) {
    RunMovementNode(desc, inputs, expected, {});
    return;
  }
  const std::string op = desc.onnx_op();
  const bool shape_only = op == "Reshape" || op == "Flatten" || op == "Squeeze" ||
                          op == "Unsqueeze" || op == "Identity";
  if (!shape_only || inputs[0]->shape == expected[0].shape) {
    RunMovementNode(desc, inputs, expected, {true, true});
    if (!shape_only) return;
  }
  RunMovementNode(desc, inputs, expected, {true, false});
  RunMovementNode(desc, inputs, expected, {false, true});
  const std::vector<uint32_t> in_strides =
      dmlcpu::onnx::PaddedStridesElems(inputs[0]->shape, 1, 2);
  const std::vector<uint32_t> out_strides =
      dmlcpu::onnx::PaddedStridesElems(expected[0].shape, 3, 3);
  if (inputs[0]->shape != expected[0].shape && !desc.output_is_empty() &&
      !EffectivelyPacked(inputs[0]->shape, in_strides) &&
      !EffectivelyPacked(expected[0].shape, out_strides)) {
    dmlcpu::onnx::OperatorDesc both = desc;
    ASSERT_TRUE(both.SetInputStrides(0, in_strides).ok());
    const dmlcpu::Status s = both.SetOutputStrides(out_strides);
    EXPECT_EQ(s.code(), dmlcpu::StatusCode::kUnsupported) << s.message();
    EXPECT_FALSE(both.is_alias());
    EXPECT_EQ(both.desc().Type, DML_OPERATOR_ELEMENT_WISE_IDENTITY)
        << "the output is packed again";
  }
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_CONFORMANCE_ONNX_MOVEMENT_RUNNER_H_
