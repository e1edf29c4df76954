// SPDX-License-Identifier: Apache-2.0
// The copy-shaped ONNX ops (Transpose, Expand, Identity, Reshape, Flatten, Squeeze, Unsqueeze,
// Concat, Split, Tile) in the conformance test: how a node's inputs and attributes reach the
// adapter, and one run with every output checked (several outputs, empty parts that are not
// bindings, shape-only nodes that alias their input while packed).
#ifndef DMLCPU_TESTS_CONFORMANCE_ONNX_MOVEMENT_CASES_H_
#define DMLCPU_TESTS_CONFORMANCE_ONNX_MOVEMENT_CASES_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance/onnx_movement_runner.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"
#include "conformance/onnx_wire.h"
#include "gtest/gtest.h"

namespace dmlcpu_test {

// Test-case directory prefixes of these ops in ONNX's node tests.
inline const char* const kMovementCasePrefixes[] = {
    "test_transpose", "test_expand", "test_concat",  "test_split",   "test_tile",
    "test_reshape",   "test_squeeze", "test_unsqueeze", "test_flatten", "test_identity"};

// Cases of those prefixes whose node is not a tensor op: Identity of a sequence and of an
// optional (ONNX types the adapter, a tensor adapter, does not have).
inline bool IsNonTensorMovementCase(const std::string& name) {
  return name == "test_identity_sequence" || name == "test_identity_opt";
}

inline bool IsMovementOp(const std::string& op) {
  return op == "Transpose" || op == "Expand" || op == "Identity" || op == "Reshape" ||
         op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" || op == "Concat" ||
         op == "Split" || op == "Tile";
}

namespace movement_internal {

inline const onnx_wire::AttributeProto* Attribute(const onnx_wire::NodeProto& node,
                                                 const char* name) {
  for (const auto& a : node.attribute) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

inline std::vector<int64_t> Int64s(const HostTensor& t) {
  std::vector<int64_t> values(t.Elems());
  for (size_t i = 0; i < values.size(); ++i) {
    if (t.type == dmlcpu::onnx::ElementType::kInt32) {
      int32_t v;
      std::memcpy(&v, t.bytes.data() + 4 * i, 4);
      values[i] = v;
    } else {
      std::memcpy(&values[i], t.bytes.data() + 8 * i, 8);
    }
  }
  return values;
}

}  // namespace movement_internal

// The node through the adapter; `data_inputs` receives the node's tensor inputs (those that are
// DirectML tensors, in binding order before empty ones are dropped).
inline dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc> AdaptMovement(
    const onnx_wire::NodeProto& node, int64_t opset, size_t output_count,
    const std::vector<std::optional<HostTensor>>& inputs,
    std::vector<const HostTensor*>* data_inputs) {
  using movement_internal::Attribute;
  using movement_internal::Int64s;
  namespace onnx = dmlcpu::onnx;
  const std::string& op = node.op_type;
  auto ints = [&](const char* name) {
    const onnx_wire::AttributeProto* a = Attribute(node, name);
    return a == nullptr ? std::vector<int64_t>{} : a->ints;
  };
  auto integer = [&](const char* name, int64_t fallback) {
    const onnx_wire::AttributeProto* a = Attribute(node, name);
    return a == nullptr ? fallback : a->i;
  };
  auto input_values = [&](size_t i) {
    return i < inputs.size() && inputs[i] ? Int64s(*inputs[i]) : std::vector<int64_t>{};
  };
  data_inputs->clear();
  if (op == "Concat") {
    std::vector<onnx::TensorType> types;
    for (const auto& in : inputs) {
      data_inputs->push_back(&*in);
      types.push_back(in->Type());
    }
    return onnx::Concat(types, integer("axis", 0));
  }
  data_inputs->push_back(&*inputs.at(0));
  const onnx::TensorType t = inputs.at(0)->Type();
  if (op == "Transpose") return onnx::Transpose(t, ints("perm"));
  if (op == "Expand") return onnx::Expand(t, input_values(1));
  if (op == "Identity") return onnx::Identity(t);
  if (op == "Reshape") return onnx::Reshape(t, input_values(1), integer("allowzero", 0) != 0);
  if (op == "Flatten") return onnx::Flatten(t, integer("axis", 1));
  if (op == "Squeeze") return onnx::Squeeze(t, opset >= 13 ? input_values(1) : ints("axes"));
  if (op == "Unsqueeze") return onnx::Unsqueeze(t, opset >= 13 ? input_values(1) : ints("axes"));
  if (op == "Tile") return onnx::Tile(t, input_values(1));
  onnx::SplitParams params;
  params.split = opset >= 13 ? input_values(1) : ints("split");
  params.num_outputs = integer("num_outputs", 0);
  params.output_count = output_count;
  return onnx::Split(t, integer("axis", 0), params);
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_CONFORMANCE_ONNX_MOVEMENT_CASES_H_
