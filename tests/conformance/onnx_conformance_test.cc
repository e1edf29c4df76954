// SPDX-License-Identifier: Apache-2.0
// ONNX backend node tests (libonnx-testdata, ONNX 1.12) through the ONNX adapter and dmlcpu.
//
// Every case directory of the adapter's ops is read: test_gather* (Gather, GatherElements,
// GatherND), test_slice*, Pad's test_{constant,edge,reflect,wrap}_pad*, test_depthtospace*,
// test_spacetodepth*, test_scatter* (ScatterND with its reductions, ScatterElements, the
// deprecated Scatter; compiled with the node's compile_options), and the copy-shaped ops' prefixes (onnx_movement_cases.h: Transpose,
// Expand, Concat, Split, Tile, Reshape, Squeeze, Unsqueeze, Flatten, Identity; every output
// checked, shape-only nodes alias their input while packed). model.onnx gives the node, its
// attributes and opset; test_data_set_*/input_*.pb and output_*.pb the tensors (both read with
// onnx_wire.h, not libprotobuf, so the Windows build runs this under wine too). Each is adapted
// with dmlcpu/onnx.h, compiled with IndexPolicy::kStrict (ONNX treats an out-of-range index as
// an error) and executed. The output must equal ONNX's
// expected output byte for byte. Each case runs twice:
//   Packed   every binding packed (Strides = null),
//   Strided  every input and the output re-laid in padded buffers (a gap after every dimension
//            and between innermost elements); the output's logical elements must match and
//            every other byte of the output buffer must keep its sentinel.
// Cases with an empty expected output (a 0-size dimension) must come back from the adapter as
// output_is_empty() with the expected shape; nothing is executed.
//
// The case directory is DMLCPU_ONNX_NODE_DIR (environment) or the one CMake found (a Windows
// build compiles in Z: + the host path, the host's / under wine).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/adapter_runner.h"
#include "conformance/onnx_movement_cases.h"
#include "conformance/onnx_wire.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"
#include "gtest/gtest.h"

namespace {

namespace fs = std::filesystem;
namespace pb = dmlcpu_test::onnx_wire;
using dmlcpu::onnx::ElementType;
using dmlcpu::onnx::OperatorDesc;

// The 98 cases ONNX 1.12 ships; the runner runs whatever matches, this list makes a missing or
// different data set fail loudly instead of running nothing.
const char* const kExpectedCases[] = {
    "test_gather_0",
    "test_gather_1",
    "test_gather_2d_indices",
    "test_gather_elements_0",
    "test_gather_elements_1",
    "test_gather_elements_negative_indices",
    "test_gather_negative_indices",
    "test_gathernd_example_float32",
    "test_gathernd_example_int32",
    "test_gathernd_example_int32_batch_dim1",
    "test_slice",
    "test_slice_default_axes",
    "test_slice_default_steps",
    "test_slice_end_out_of_bounds",
    "test_slice_neg",
    "test_slice_neg_steps",
    "test_slice_negative_axes",
    "test_slice_start_out_of_bounds",
    "test_scatter_elements_with_axis",
    "test_scatter_elements_with_duplicate_indices",
    "test_scatter_elements_with_negative_indices",
    "test_scatter_elements_without_axis",
    "test_scatter_with_axis",
    "test_scatter_without_axis",
    "test_scatternd",
    "test_scatternd_add",
    "test_scatternd_multiply",
    "test_constant_pad",
    "test_edge_pad",
    "test_reflect_pad",
    "test_depthtospace_crd_mode",
    "test_depthtospace_crd_mode_example",
    "test_depthtospace_dcr_mode",
    "test_depthtospace_example",
    "test_spacetodepth",
    "test_spacetodepth_example",
    // Transpose, Expand, Concat, Split, Tile, Reshape, Squeeze, Unsqueeze, Flatten, Identity.
    "test_concat_1d_axis_0",
    "test_concat_1d_axis_negative_1",
    "test_concat_2d_axis_0",
    "test_concat_2d_axis_1",
    "test_concat_2d_axis_negative_1",
    "test_concat_2d_axis_negative_2",
    "test_concat_3d_axis_0",
    "test_concat_3d_axis_1",
    "test_concat_3d_axis_2",
    "test_concat_3d_axis_negative_1",
    "test_concat_3d_axis_negative_2",
    "test_concat_3d_axis_negative_3",
    "test_expand_dim_changed",
    "test_expand_dim_unchanged",
    "test_flatten_axis0",
    "test_flatten_axis1",
    "test_flatten_axis2",
    "test_flatten_axis3",
    "test_flatten_default_axis",
    "test_flatten_negative_axis1",
    "test_flatten_negative_axis2",
    "test_flatten_negative_axis3",
    "test_flatten_negative_axis4",
    "test_identity",
    "test_identity_opt",
    "test_identity_sequence",
    "test_reshape_allowzero_reordered",
    "test_reshape_extended_dims",
    "test_reshape_negative_dim",
    "test_reshape_negative_extended_dims",
    "test_reshape_one_dim",
    "test_reshape_reduced_dims",
    "test_reshape_reordered_all_dims",
    "test_reshape_reordered_last_dims",
    "test_reshape_zero_and_negative_dim",
    "test_reshape_zero_dim",
    "test_split_equal_parts_1d",
    "test_split_equal_parts_2d",
    "test_split_equal_parts_default_axis",
    "test_split_variable_parts_1d",
    "test_split_variable_parts_2d",
    "test_split_variable_parts_default_axis",
    "test_split_zero_size_splits",
    "test_squeeze",
    "test_squeeze_negative_axes",
    "test_tile",
    "test_tile_precomputed",
    "test_transpose_all_permutations_0",
    "test_transpose_all_permutations_1",
    "test_transpose_all_permutations_2",
    "test_transpose_all_permutations_3",
    "test_transpose_all_permutations_4",
    "test_transpose_all_permutations_5",
    "test_transpose_default",
    "test_unsqueeze_axis_0",
    "test_unsqueeze_axis_1",
    "test_unsqueeze_axis_2",
    "test_unsqueeze_axis_3",
    "test_unsqueeze_negative_axes",
    "test_unsqueeze_three_axes",
    "test_unsqueeze_two_axes",
    "test_unsqueeze_unsorted_axes",
};

std::string NodeDir() {
  const char* env = std::getenv("DMLCPU_ONNX_NODE_DIR");
  return env != nullptr && env[0] != '\0' ? env : DMLCPU_ONNX_NODE_DIR;
}

std::vector<std::string> ListCases() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(NodeDir(), error)) {
    const std::string name = entry.path().filename().string();
    // Pad's node tests: test_constant_pad*, test_edge_pad*, test_reflect_pad*, test_wrap_pad*
    // (the other *pad* names are pooling, convolution and GridSample tests).
    const bool pad = name.rfind("test_constant_pad", 0) == 0 ||
                     name.rfind("test_edge_pad", 0) == 0 ||
                     name.rfind("test_reflect_pad", 0) == 0 ||
                     name.rfind("test_wrap_pad", 0) == 0;
    bool movement = false;
    for (const char* prefix : dmlcpu_test::kMovementCasePrefixes) {
      movement = movement || name.rfind(prefix, 0) == 0;
    }
    if (entry.is_directory() &&
        (name.rfind("test_gather", 0) == 0 || name.rfind("test_slice", 0) == 0 || pad ||
         name.rfind("test_scatter", 0) == 0 ||
         name.rfind("test_depthtospace", 0) == 0 || name.rfind("test_spacetodepth", 0) == 0 ||
         movement)) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

using Tensor = dmlcpu_test::HostTensor;

template <typename T, typename Values>
void AppendAs(const Values& values, std::vector<uint8_t>* bytes) {
  for (const auto& v : values) {
    const T narrowed = static_cast<T>(v);
    const auto* p = reinterpret_cast<const uint8_t*>(&narrowed);
    bytes->insert(bytes->end(), p, p + sizeof(T));
  }
}

// TensorProto -> Tensor: raw_data, or the typed field ONNX stores that element type in
// (onnx.proto: 8/16-bit types, FLOAT16, BFLOAT16 and BOOL in int32_data, UINT32/UINT64 in
// uint64_data).
::testing::AssertionResult ToTensor(const pb::TensorProto& proto, Tensor* tensor) {
  tensor->type = static_cast<ElementType>(proto.data_type);
  tensor->shape = proto.dims;
  tensor->bytes.clear();
  if (proto.has_raw_data) {
    tensor->bytes = proto.raw_data;
  } else {
    switch (tensor->type) {
      case ElementType::kFloat: AppendAs<float>(proto.float_data, &tensor->bytes); break;
      case ElementType::kDouble: AppendAs<double>(proto.double_data, &tensor->bytes); break;
      case ElementType::kInt64: AppendAs<int64_t>(proto.int64_data, &tensor->bytes); break;
      case ElementType::kInt32: AppendAs<int32_t>(proto.int32_data, &tensor->bytes); break;
      case ElementType::kUint32: AppendAs<uint32_t>(proto.uint64_data, &tensor->bytes); break;
      case ElementType::kUint64: AppendAs<uint64_t>(proto.uint64_data, &tensor->bytes); break;
      case ElementType::kInt16: AppendAs<int16_t>(proto.int32_data, &tensor->bytes); break;
      case ElementType::kUint16:
      case ElementType::kFloat16:
      case ElementType::kBfloat16:
        AppendAs<uint16_t>(proto.int32_data, &tensor->bytes);
        break;
      case ElementType::kInt8: AppendAs<int8_t>(proto.int32_data, &tensor->bytes); break;
      case ElementType::kUint8:
      case ElementType::kBool:
        AppendAs<uint8_t>(proto.int32_data, &tensor->bytes);
        break;
      default:
        return ::testing::AssertionFailure()
               << "tensor " << proto.name << ": element type " << proto.data_type
               << " not readable";
    }
  }
  const uint64_t expected = tensor->Elems() * dmlcpu::onnx::ElementSizeBytes(tensor->type);
  if (tensor->bytes.size() != expected) {
    return ::testing::AssertionFailure() << "tensor " << proto.name << ": "
                                         << tensor->bytes.size() << " bytes, expected "
                                         << expected;
  }
  return ::testing::AssertionSuccess();
}

bool Parse(const std::vector<uint8_t>& bytes, pb::ModelProto* model, std::string* error) {
  return pb::ParseModel(bytes.data(), bytes.size(), model, error);
}
bool Parse(const std::vector<uint8_t>& bytes, pb::TensorProto* tensor, std::string* error) {
  return pb::ParseTensor(bytes.data(), bytes.size(), tensor, error);
}

// A model.onnx or a data set's .pb through onnx_wire.h.
template <typename Message>
::testing::AssertionResult ReadProto(const fs::path& path, Message* message) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!pb::ReadFileBytes(path, &bytes, &error)) return ::testing::AssertionFailure() << error;
  if (!Parse(bytes, message, &error)) {
    return ::testing::AssertionFailure() << "cannot parse " << path.string() << ": " << error;
  }
  return ::testing::AssertionSuccess();
}

// Integer values of an INT32/INT64 tensor (Slice's starts/ends/axes/steps).
std::vector<int64_t> ToInt64s(const Tensor& t) {
  std::vector<int64_t> values(t.Elems());
  for (size_t i = 0; i < values.size(); ++i) {
    if (t.type == ElementType::kInt32) {
      int32_t v;
      std::memcpy(&v, t.bytes.data() + 4 * i, 4);
      values[i] = v;
    } else {
      std::memcpy(&values[i], t.bytes.data() + 8 * i, 8);
    }
  }
  return values;
}

// One ONNX node test case with one of its data sets.
struct NodeCase {
  std::string name;
  pb::NodeProto node;
  int64_t opset = 0;
  std::vector<std::optional<Tensor>> inputs;  // per node input; nullopt = omitted ("")
  Tensor expected;                            // output 0
  std::vector<Tensor> outputs;                // every output
};

const pb::AttributeProto* FindAttribute(const pb::NodeProto& node, const char* name) {
  for (const auto& attribute : node.attribute) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

int64_t IntAttribute(const pb::NodeProto& node, const char* name, int64_t default_value) {
  const pb::AttributeProto* a = FindAttribute(node, name);
  return a != nullptr ? a->i : default_value;
}

std::vector<int64_t> IntsAttribute(const pb::NodeProto& node, const char* name) {
  const pb::AttributeProto* a = FindAttribute(node, name);
  if (a == nullptr) return {};
  return a->ints;
}

std::vector<fs::path> DataSets(const fs::path& dir) {
  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(entry.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

::testing::AssertionResult LoadCase(const std::string& name, const fs::path& data_set,
                                    NodeCase* c) {
  const fs::path dir = fs::path(NodeDir()) / name;
  pb::ModelProto model;
  ::testing::AssertionResult ok = ReadProto(dir / "model.onnx", &model);
  if (!ok) return ok;
  const pb::GraphProto& graph = model.graph;
  if (graph.node.size() != 1) {
    return ::testing::AssertionFailure() << name << ": " << graph.node.size() << " nodes";
  }
  c->name = name;
  c->node = graph.node[0];
  for (const auto& opset : model.opset_import) {
    if (opset.domain.empty() || opset.domain == "ai.onnx") c->opset = opset.version;
  }
  // Graph inputs (not initializers) map to input_<i>.pb in order.
  std::map<std::string, Tensor> values;
  for (const auto& initializer : graph.initializer) {
    ok = ToTensor(initializer, &values[initializer.name]);
    if (!ok) return ok;
  }
  int file_index = 0;
  for (const auto& input : graph.input) {
    if (values.count(input.name) != 0) continue;
    pb::TensorProto proto;
    ok = ReadProto(data_set / ("input_" + std::to_string(file_index++) + ".pb"), &proto);
    if (ok) ok = ToTensor(proto, &values[input.name]);
    if (!ok) return ok;
  }
  c->inputs.clear();
  for (const std::string& input : c->node.input) {
    if (input.empty()) {
      c->inputs.emplace_back();
      continue;
    }
    auto it = values.find(input);
    if (it == values.end()) return ::testing::AssertionFailure() << "no value for " << input;
    c->inputs.emplace_back(it->second);
  }
  c->outputs.assign(c->node.output.size(), Tensor());
  for (size_t i = 0; i < c->outputs.size(); ++i) {
    pb::TensorProto output;
    ok = ReadProto(data_set / ("output_" + std::to_string(i) + ".pb"), &output);
    if (ok) ok = ToTensor(output, &c->outputs[i]);
    if (!ok) return ok;
  }
  c->expected = c->outputs.at(0);
  return ok;
}

// The node through the adapter. `bindings` receives the tensors DirectML binds, in order.
dmlcpu::StatusOr<OperatorDesc> Adapt(const NodeCase& c, std::vector<const Tensor*>* bindings) {
  const std::string& op = c.node.op_type;
  auto input = [&](size_t i) -> const std::optional<Tensor>& {
    static const std::optional<Tensor> kAbsent;
    return i < c.inputs.size() ? c.inputs[i] : kAbsent;
  };
  bindings->clear();
  bindings->push_back(&*input(0));
  if (op == "Gather" || op == "GatherElements" || op == "GatherND") {
    bindings->push_back(&*input(1));
    if (op == "Gather") {
      return dmlcpu::onnx::Gather(input(0)->Type(), input(1)->Type(),
                                  IntAttribute(c.node, "axis", 0));
    }
    if (op == "GatherElements") {
      return dmlcpu::onnx::GatherElements(input(0)->Type(), input(1)->Type(),
                                          IntAttribute(c.node, "axis", 0));
    }
    return dmlcpu::onnx::GatherNd(input(0)->Type(), input(1)->Type(),
                                  IntAttribute(c.node, "batch_dims", 0));
  }
  if (op == "ScatterND" || op == "ScatterElements" || op == "Scatter") {
    bindings->push_back(&*input(1));
    bindings->push_back(&*input(2));
    const pb::AttributeProto* reduction = FindAttribute(c.node, "reduction");
    const std::string mode = reduction != nullptr ? reduction->s : "none";
    if (op == "ScatterND") {
      return dmlcpu::onnx::ScatterNd(input(0)->Type(), input(1)->Type(), input(2)->Type(), mode,
                                     c.opset);
    }
    if (op == "ScatterElements") {
      return dmlcpu::onnx::ScatterElements(input(0)->Type(), input(1)->Type(), input(2)->Type(),
                                           IntAttribute(c.node, "axis", 0), mode, c.opset);
    }
    if (reduction != nullptr) {
      return dmlcpu::Status(dmlcpu::StatusCode::kInvalidArgument, "Scatter has no reduction");
    }
    return dmlcpu::onnx::Scatter(input(0)->Type(), input(1)->Type(), input(2)->Type(),
                                 IntAttribute(c.node, "axis", 0), c.opset);
  }
  if (op == "Slice") {
    dmlcpu::onnx::SliceParams params;
    if (c.opset >= 10) {  // starts, ends, axes, steps arrive as input tensors
      params.starts = ToInt64s(*input(1));
      params.ends = ToInt64s(*input(2));
      if (input(3)) params.axes = ToInt64s(*input(3));
      if (input(4)) params.steps = ToInt64s(*input(4));
    } else {
      params.starts = IntsAttribute(c.node, "starts");
      params.ends = IntsAttribute(c.node, "ends");
      params.axes = IntsAttribute(c.node, "axes");
    }
    return dmlcpu::onnx::Slice(input(0)->Type(), params);
  }
  if (op == "Pad") {
    dmlcpu::onnx::PadParams params;
    const pb::AttributeProto* mode = FindAttribute(c.node, "mode");
    if (mode != nullptr) params.mode = mode->s;
    const uint32_t element_bytes = dmlcpu::onnx::ElementSizeBytes(input(0)->type);
    if (c.opset >= 11) {  // pads, constant_value, axes arrive as input tensors
      params.pads = ToInt64s(*input(1));
      if (input(2)) params.constant_value = input(2)->bytes;
      if (input(3)) params.axes = ToInt64s(*input(3));
    } else {
      params.pads = IntsAttribute(c.node, "pads");
      const pb::AttributeProto* value = FindAttribute(c.node, "value");
      if (value != nullptr && input(0)->type == ElementType::kFloat) {
        const float f = value->f;
        params.constant_value.resize(element_bytes);
        std::memcpy(params.constant_value.data(), &f, sizeof(f));
      }
    }
    return dmlcpu::onnx::Pad(input(0)->Type(), params);
  }
  if (op == "DepthToSpace") {
    const pb::AttributeProto* mode = FindAttribute(c.node, "mode");
    return dmlcpu::onnx::DepthToSpace(input(0)->Type(), IntAttribute(c.node, "blocksize", 0),
                                      mode != nullptr ? mode->s : "DCR");
  }
  if (op == "SpaceToDepth") {
    return dmlcpu::onnx::SpaceToDepth(input(0)->Type(), IntAttribute(c.node, "blocksize", 0));
  }
  return dmlcpu::Status(dmlcpu::StatusCode::kUnsupported, "no adapter for " + op);
}

enum class Layout { kPacked, kStrided };

// Runs one loaded case; all checks are gtest expectations.
void RunCase(const NodeCase& c, Layout layout) {
  SCOPED_TRACE(c.name + " (" + c.node.op_type + ", opset " + std::to_string(c.opset) + ")");
  if (dmlcpu_test::IsMovementOp(c.node.op_type)) {
    std::vector<const Tensor*> data_inputs;
    auto adapted = dmlcpu_test::AdaptMovement(c.node, c.opset, c.outputs.size(), c.inputs,
                                              &data_inputs);
    ASSERT_TRUE(adapted.ok()) << adapted.status().message();
    dmlcpu_test::RunMovementCase(*adapted, data_inputs, c.outputs, layout == Layout::kStrided);
    return;
  }
  std::vector<const Tensor*> bindings;
  dmlcpu::StatusOr<OperatorDesc> adapted = Adapt(c, &bindings);
  ASSERT_TRUE(adapted.ok()) << adapted.status().message();
  OperatorDesc& desc = adapted.value();
  EXPECT_EQ(desc.output_shape(), c.expected.shape);
  EXPECT_EQ(desc.output_element_type(), c.expected.type);
  ASSERT_EQ(desc.input_count(), bindings.size());

  if (c.expected.Elems() == 0) {
    // DirectML has no empty tensors: the adapter reports the empty output, nothing runs.
    EXPECT_TRUE(desc.output_is_empty()) << desc.ToString();
    EXPECT_EQ(desc.desc().Type, DML_OPERATOR_INVALID);
    EXPECT_EQ(desc.output_bytes(), 0u);
    EXPECT_TRUE(c.expected.bytes.empty());
    return;
  }
  ASSERT_FALSE(desc.output_is_empty());

  std::vector<std::vector<uint32_t>> input_strides(bindings.size());
  std::vector<uint32_t> output_strides;
  if (layout == Layout::kStrided) {
    for (size_t i = 0; i < bindings.size(); ++i) {
      input_strides[i] = dmlcpu::onnx::PaddedStridesElems(bindings[i]->shape, 1 + i, 2);
      ASSERT_TRUE(desc.SetInputStrides(i, input_strides[i]).ok());
    }
    output_strides = dmlcpu::onnx::PaddedStridesElems(c.expected.shape, 3, 3);
    ASSERT_TRUE(desc.SetOutputStrides(output_strides).ok());
  }
  dmlcpu::Device device;
  std::vector<uint8_t> output;
  ASSERT_TRUE(dmlcpu_test::ExecuteAdapted(device, desc, bindings, input_strides, output_strides,
                                          dmlcpu::IndexPolicy::kStrict, &output));
  EXPECT_EQ(output, c.expected.bytes)
      << "output differs from ONNX's expected output\n  " << desc.ToString();
}

class OnnxNodeTest : public ::testing::TestWithParam<std::string> {
 protected:
  void Run(Layout layout) {
    if (dmlcpu_test::IsNonTensorMovementCase(GetParam())) {
      GTEST_SKIP() << GetParam() << ": an Identity of a sequence or an optional, not a tensor";
    }
    const std::vector<fs::path> sets = DataSets(fs::path(NodeDir()) / GetParam());
    ASSERT_FALSE(sets.empty());
    for (const fs::path& set : sets) {
      NodeCase c;
      ASSERT_TRUE(LoadCase(GetParam(), set, &c));
      RunCase(c, layout);
    }
  }
};

TEST_P(OnnxNodeTest, Packed) { Run(Layout::kPacked); }
TEST_P(OnnxNodeTest, Strided) { Run(Layout::kStrided); }

INSTANTIATE_TEST_SUITE_P(Onnx, OnnxNodeTest, ::testing::ValuesIn(ListCases()),
                         [](const ::testing::TestParamInfo<std::string>& case_info) {
                           return case_info.param;
                         });

TEST(OnnxNodeCasesTest, EveryExpectedCaseIsPresent) {
  const std::vector<std::string> found = ListCases();
  for (const char* name : kExpectedCases) {
    EXPECT_NE(std::find(found.begin(), found.end(), name), found.end())
        << name << " missing from " << NodeDir();
  }
}

// ONNX 1.12 ships no gather/slice case that is expected to fail, so the failures ONNX specifies
// are derived from real cases: an out-of-range index and a zero step.
TEST(OnnxNodeErrorTest, GatherIndexOutOfRangeFailsUnderStrictPolicy) {
  NodeCase c;
  const fs::path dir = fs::path(NodeDir()) / "test_gather_negative_indices";
  ASSERT_TRUE(LoadCase("test_gather_negative_indices", DataSets(dir).at(0), &c));
  Tensor& indices = *c.inputs.at(1);  // data {10}, INT64 indices {3}
  ASSERT_EQ(indices.type, ElementType::kInt64);
  const int64_t bad = -11;
  std::memcpy(indices.bytes.data() + 8, &bad, 8);
  std::vector<const Tensor*> bindings;
  auto desc = Adapt(c, &bindings);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  dmlcpu::Device device;
  auto op = device.Compile(desc->desc(), {dmlcpu::IndexPolicy::kStrict});
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<uint8_t> output(desc->output_bytes(), 0x5A);
  dmlcpu::Status status = op->Execute(
      {{bindings[0]->bytes.data(), bindings[0]->bytes.size()},
       {bindings[1]->bytes.data(), bindings[1]->bytes.size()}},
      {{output.data(), output.size()}});
  EXPECT_EQ(status.code(), dmlcpu::StatusCode::kOutOfRange);
  EXPECT_NE(status.message().find("-11"), std::string::npos) << status.message();
  EXPECT_EQ(output, std::vector<uint8_t>(output.size(), 0x5A)) << "output must stay untouched";
}

// ScatterND's out-of-range tuple under kStrict: kOutOfRange naming the value, the output (the
// data's copy included) untouched; the reduction (add) comes from the model.
TEST(OnnxNodeErrorTest, ScatterNdIndexOutOfRangeFailsUnderStrictPolicy) {
  NodeCase c;
  const fs::path dir = fs::path(NodeDir()) / "test_scatternd_add";
  ASSERT_TRUE(LoadCase("test_scatternd_add", DataSets(dir).at(0), &c));
  Tensor& indices = *c.inputs.at(1);  // data {4,4,4}, INT64 indices {2,1}
  ASSERT_EQ(indices.type, ElementType::kInt64);
  const int64_t bad = 4;
  std::memcpy(indices.bytes.data() + 8, &bad, 8);
  std::vector<const Tensor*> bindings;
  auto desc = Adapt(c, &bindings);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc->scatter_reduction(), dmlcpu::ScatterReduction::kAdd);
  dmlcpu::Device device;
  auto op = device.Compile(desc->desc(), desc->compile_options(dmlcpu::IndexPolicy::kStrict));
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<uint8_t> output(desc->output_bytes(), 0x5A);
  std::vector<dmlcpu::Binding> inputs;
  for (const Tensor* t : bindings) inputs.push_back({t->bytes.data(), t->bytes.size()});
  dmlcpu::OutputBinding out{output.data(), output.size()};
  dmlcpu::Status status = op->Execute(inputs.data(), inputs.size(), &out, 1);
  EXPECT_EQ(status.code(), dmlcpu::StatusCode::kOutOfRange);
  EXPECT_NE(status.message().find(" is 4, expected in [-4, 3]"), std::string::npos)
      << status.message();
  EXPECT_EQ(output, std::vector<uint8_t>(output.size(), 0x5A)) << "output must stay untouched";
}

TEST(OnnxNodeErrorTest, SliceZeroStepIsRejected) {
  NodeCase c;
  const fs::path dir = fs::path(NodeDir()) / "test_slice_neg_steps";
  ASSERT_TRUE(LoadCase("test_slice_neg_steps", DataSets(dir).at(0), &c));
  Tensor& steps = *c.inputs.at(4);
  ASSERT_EQ(steps.type, ElementType::kInt64);
  std::memset(steps.bytes.data() + 8, 0, 8);
  std::vector<const Tensor*> bindings;
  auto desc = Adapt(c, &bindings);
  ASSERT_FALSE(desc.ok());
  EXPECT_EQ(desc.status().code(), dmlcpu::StatusCode::kInvalidArgument);
  EXPECT_EQ(desc.status().message(), "Slice: steps[1] is 0, expected non-zero");
}

}  // namespace
