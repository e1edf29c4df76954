// SPDX-License-Identifier: Apache-2.0
// onnx_wire.h on hand-made protobuf bytes: every field the conformance test reads, packed and
// unpacked repeated scalars, unknown fields of each wire type skipped, and malformed input
// (truncated varints, lengths past the end of the enclosing message, bad wire types) failing
// with a message that names message, field and byte offset. Inputs are parsed from buffers of
// exactly their size, or from a prefix of a longer buffer whose extra bytes would make a read
// past the bound succeed.
#include "conformance/onnx_wire.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace dmlcpu_test {
namespace onnx_wire {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes Literal(std::initializer_list<int> values) {
  Bytes bytes;
  for (int v : values) bytes.push_back(static_cast<uint8_t>(v));
  return bytes;
}

// A small encoder for the larger messages (the literal tests pin the encoding itself).
Bytes Varint(uint64_t value) {
  Bytes bytes;
  while (value >= 0x80) {
    bytes.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  bytes.push_back(static_cast<uint8_t>(value));
  return bytes;
}
Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const Bytes& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}
Bytes Tag(uint32_t field, uint32_t wire_type) { return Varint(uint64_t{field} << 3 | wire_type); }
Bytes VarintField(uint32_t field, uint64_t value) { return Cat({Tag(field, 0), Varint(value)}); }
Bytes LenField(uint32_t field, const Bytes& payload) {
  return Cat({Tag(field, 2), Varint(payload.size()), payload});
}
Bytes StrField(uint32_t field, const std::string& s) {
  return LenField(field, Bytes(s.begin(), s.end()));
}
Bytes FloatField(uint32_t field, float f) {
  Bytes bytes = Tag(field, 5);
  uint8_t raw[4];
  std::memcpy(raw, &f, 4);
  bytes.insert(bytes.end(), raw, raw + 4);
  return bytes;
}

struct TensorResult {
  bool ok;
  TensorProto tensor;
  std::string error;
};

// Parses a copy of exactly `bytes`' size, so a read past the end is a heap overflow (ASan).
TensorResult Tensor(const Bytes& bytes) {
  TensorResult r;
  const Bytes exact(bytes);
  r.ok = ParseTensor(exact.data(), exact.size(), &r.tensor, &r.error);
  return r;
}

TEST(OnnxWireTest, EmptyInputIsAnEmptyMessage) {
  TensorProto t;
  std::string error;
  EXPECT_TRUE(ParseTensor(nullptr, 0, &t, &error));
  EXPECT_TRUE(t.dims.empty());
  EXPECT_EQ(t.data_type, 0);
  EXPECT_FALSE(t.has_raw_data);
  ModelProto m;
  EXPECT_TRUE(ParseModel(nullptr, 0, &m, &error));
  EXPECT_TRUE(m.graph.node.empty());
}

TEST(OnnxWireTest, TensorFieldsPackedAndUnpacked) {
  const TensorResult r = Tensor(Literal({
      0x0A, 0x02, 0x02, 0x03,                          // dims packed {2, 3}
      0x08, 0x04,                                      // dims unpacked 4
      0x10, 0x01,                                      // data_type FLOAT
      0x22, 0x08, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0,  // float_data {1, -2}
      0x25, 0x00, 0x00, 0x00, 0x3F,                    // float_data unpacked 0.5
      0x42, 0x01, 'x',                                 // name "x"
  }));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.tensor.dims, (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(r.tensor.data_type, 1);
  EXPECT_EQ(r.tensor.float_data, (std::vector<float>{1.0f, -2.0f, 0.5f}));
  EXPECT_EQ(r.tensor.name, "x");
  EXPECT_FALSE(r.tensor.has_raw_data);
}

TEST(OnnxWireTest, IntegerFieldsKeepSignAndWidth) {
  const TensorResult r = Tensor(Literal({
      // int32_data unpacked -1 (sign-extended to 10 bytes, as protobuf writes a negative int32)
      0x28, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
      // int32_data packed {300, -2}
      0x2A, 0x0C, 0xAC, 0x02, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
      // int64_data packed {1, INT64_MIN}
      0x3A, 0x0B, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
      // uint64_data unpacked UINT64_MAX, packed {7}
      0x58, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
      0x5A, 0x01, 0x07,
      // double_data unpacked 1.5, packed {-0.25}
      0x51, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x3F,
      0x52, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xD0, 0xBF,
  }));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.tensor.int32_data, (std::vector<int32_t>{-1, 300, -2}));
  EXPECT_EQ(r.tensor.int64_data,
            (std::vector<int64_t>{1, std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(r.tensor.uint64_data,
            (std::vector<uint64_t>{std::numeric_limits<uint64_t>::max(), 7}));
  EXPECT_EQ(r.tensor.double_data, (std::vector<double>{1.5, -0.25}));
}

TEST(OnnxWireTest, RawDataPresenceAndLastValueWins) {
  TensorResult r = Tensor(Literal({0x4A, 0x00}));  // raw_data present, empty
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.tensor.has_raw_data);
  EXPECT_TRUE(r.tensor.raw_data.empty());
  // raw_data "ab" then "c"; data_type 1 then 7: an optional field keeps its last value.
  r = Tensor(Literal({0x4A, 0x02, 'a', 'b', 0x10, 0x01, 0x4A, 0x01, 'c', 0x10, 0x07}));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.tensor.has_raw_data);
  EXPECT_EQ(r.tensor.raw_data, Literal({'c'}));
  EXPECT_EQ(r.tensor.data_type, 7);
}

TEST(OnnxWireTest, UnknownFieldsOfEveryWireTypeAreSkipped) {
  // data_type first: a payload misread as fields would overwrite it (or add dims).
  const TensorResult r = Tensor(Literal({
      0x10, 0x07,                                      // data_type INT64
      0x98, 0x06, 0x96, 0x01,                          // field 99 varint 150
      0xA1, 0x06, 0x10, 0x09, 0x10, 0x09, 0x10, 0x09, 0x10, 0x09,  // field 100 fixed64
      0xAD, 0x06, 0x10, 0x09, 0x10, 0x09,              // field 101 fixed32
      0x1A, 0x04, 0x10, 0x05, 0x08, 0x09,              // field 3 (segment), bytes like tags
      0x62, 0x02, 0x10, 0x06,                          // field 12 (doc_string)
  }));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.tensor.data_type, 7) << "a skipped payload was read as data_type";
  EXPECT_TRUE(r.tensor.dims.empty()) << "a skipped payload was read as dims";
}

// A model with every field the conformance test reads and some it skips.
Bytes EveryFieldModel() {
  const Bytes attr_tensor = Cat({VarintField(1, 1), VarintField(2, 7), VarintField(7, 5)});
  const Bytes node = Cat({
      StrField(1, "x"), StrField(1, ""), StrField(2, "y"), StrField(3, "n0"),
      StrField(4, "Gather"), StrField(7, ""), StrField(6, "doc (skipped)"),
      LenField(5, Cat({StrField(1, "axis"), VarintField(20, 2),
                       VarintField(3, static_cast<uint64_t>(int64_t{-1}))})),
      LenField(5, Cat({StrField(1, "perm"), LenField(8, Cat({Varint(1), Varint(2)})),
                       VarintField(8, 3)})),
      LenField(5, Cat({StrField(1, "mode"), StrField(4, "reflect")})),
      LenField(5, Cat({StrField(1, "value"), FloatField(2, 1.5f), FloatField(7, 2.0f),
                       FloatField(7, 3.0f), StrField(9, "a"), StrField(9, "b")})),
      LenField(5, Cat({StrField(1, "t"), LenField(5, attr_tensor)})),
      LenField(5, Cat({StrField(1, "g"), LenField(6, StrField(2, "subgraph (skipped)"))})),
  });
  const Bytes value_type = LenField(1, VarintField(1, 1));  // TypeProto.tensor_type (skipped)
  const Bytes graph = Cat({
      LenField(1, node), StrField(2, "graph"),
      LenField(5, Cat({StrField(8, "w"), VarintField(2, 6), VarintField(5, 9)})),
      LenField(11, Cat({StrField(1, "x"), LenField(2, value_type)})),
      LenField(11, StrField(1, "w")), LenField(12, StrField(1, "y")),
      LenField(13, StrField(1, "value_info (skipped)")),
  });
  const Bytes model = Cat({
      VarintField(1, 8), StrField(2, "producer (skipped)"),
      LenField(8, Cat({StrField(1, ""), VarintField(2, 13)})),
      LenField(8, Cat({StrField(1, "ai.onnx.ml"), VarintField(2, 3)})),
      LenField(7, graph),
  });
  return model;
}

TEST(OnnxWireTest, ModelGraphNodeAttributes) {
  const Bytes model = EveryFieldModel();
  ModelProto m;
  std::string error;
  ASSERT_TRUE(ParseModel(model.data(), model.size(), &m, &error)) << error;
  EXPECT_EQ(m.ir_version, 8);
  ASSERT_EQ(m.opset_import.size(), 2u);
  EXPECT_EQ(m.opset_import[0].domain, "");
  EXPECT_EQ(m.opset_import[0].version, 13);
  EXPECT_EQ(m.opset_import[1].domain, "ai.onnx.ml");
  EXPECT_EQ(m.opset_import[1].version, 3);
  const GraphProto& g = m.graph;
  EXPECT_EQ(g.name, "graph");
  ASSERT_EQ(g.initializer.size(), 1u);
  EXPECT_EQ(g.initializer[0].name, "w");
  EXPECT_EQ(g.initializer[0].int32_data, (std::vector<int32_t>{9}));
  ASSERT_EQ(g.input.size(), 2u);
  EXPECT_EQ(g.input[0].name, "x");
  EXPECT_EQ(g.input[1].name, "w");
  ASSERT_EQ(g.output.size(), 1u);
  EXPECT_EQ(g.output[0].name, "y");
  ASSERT_EQ(g.node.size(), 1u);
  const NodeProto& n = g.node[0];
  EXPECT_EQ(n.input, (std::vector<std::string>{"x", ""}));
  EXPECT_EQ(n.output, (std::vector<std::string>{"y"}));
  EXPECT_EQ(n.name, "n0");
  EXPECT_EQ(n.op_type, "Gather");
  EXPECT_EQ(n.domain, "");
  ASSERT_EQ(n.attribute.size(), 6u);
  EXPECT_EQ(n.attribute[0].name, "axis");
  EXPECT_EQ(n.attribute[0].type, 2);
  EXPECT_EQ(n.attribute[0].i, -1);
  EXPECT_EQ(n.attribute[1].ints, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(n.attribute[2].s, "reflect");
  EXPECT_EQ(n.attribute[3].f, 1.5f);
  EXPECT_EQ(n.attribute[3].floats, (std::vector<float>{2.0f, 3.0f}));
  EXPECT_EQ(n.attribute[3].strings, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(n.attribute[4].t.has_value());
  EXPECT_EQ(n.attribute[4].t->dims, (std::vector<int64_t>{1}));
  EXPECT_EQ(n.attribute[4].t->data_type, 7);
  EXPECT_EQ(n.attribute[4].t->int64_data, (std::vector<int64_t>{5}));
  EXPECT_FALSE(n.attribute[5].t.has_value());
  EXPECT_EQ(n.attribute[5].name, "g");
}

TEST(OnnxWireTest, RepeatedSubMessageFieldsMerge) {
  // graph twice: its nodes add up, its name is the last one.
  const Bytes model = Cat({LenField(7, Cat({LenField(1, StrField(4, "A")), StrField(2, "g1")})),
                           LenField(7, Cat({LenField(1, StrField(4, "B")), StrField(2, "g2")}))});
  ModelProto m;
  std::string error;
  ASSERT_TRUE(ParseModel(model.data(), model.size(), &m, &error)) << error;
  ASSERT_EQ(m.graph.node.size(), 2u);
  EXPECT_EQ(m.graph.node[0].op_type, "A");
  EXPECT_EQ(m.graph.node[1].op_type, "B");
  EXPECT_EQ(m.graph.name, "g2");
}

void ExpectTensorError(const Bytes& bytes, const std::string& message) {
  const TensorResult r = Tensor(bytes);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, message);
}

void ExpectModelError(const Bytes& bytes, const std::string& message) {
  ModelProto m;
  std::string error;
  EXPECT_FALSE(ParseModel(bytes.data(), bytes.size(), &m, &error));
  EXPECT_EQ(error, message);
}

TEST(OnnxWireTest, TruncatedAndOverlongVarintsFail) {
  ExpectTensorError(Literal({0x80}),
                    "TensorProto at byte 0: tag: truncated varint (the bytes end before its last "
                    "byte)");
  ExpectTensorError(Literal({0x10, 0x01, 0x10, 0x80, 0x80}),
                    "TensorProto.data_type (field 2) at byte 2: truncated varint (the bytes end "
                    "before its last byte)");
  // 10 bytes whose last is above 1, and 11 bytes: more than 64 bits.
  ExpectTensorError(Literal({0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}),
                    "TensorProto.data_type (field 2) at byte 0: varint longer than 64 bits");
  ExpectTensorError(
      Literal({0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
      "TensorProto.data_type (field 2) at byte 0: varint longer than 64 bits");
  ExpectTensorError(Literal({0x0A, 0x02, 0x01, 0x80, 0x01}),
                    "TensorProto.dims (field 1) at byte 0: packed element 1: truncated varint "
                    "(the bytes end before its last byte)");
  ExpectTensorError(Literal({0x4A, 0x80}),
                    "TensorProto.raw_data (field 9) at byte 0: length: truncated varint (the "
                    "bytes end before its last byte)");
}

TEST(OnnxWireTest, LengthsPastTheEndFail) {
  ExpectTensorError(Literal({0x42, 0x05, 'a', 'b'}),
                    "TensorProto.name (field 8) at byte 0: length 5 runs past the end of "
                    "TensorProto (2 bytes left)");
  ExpectTensorError(
      Literal({0x10, 0x01, 0x4A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}),
      "TensorProto.raw_data (field 9) at byte 2: length 18446744073709551615 runs past the end "
      "of TensorProto (0 bytes left)");
  ExpectTensorError(Literal({0xAA, 0x06, 0x03, 0x00}),  // unknown field 101, length-delimited
                    "TensorProto field 101 at byte 0: length 3 runs past the end of TensorProto "
                    "(1 bytes left)");
  // A node whose length fits the file but not its graph: the graph's bounds hold.
  const Bytes model = Cat({LenField(7, Literal({0x0A, 0x06, 0x22, 0x01})),
                           Literal({'A', 0x00, 0x00, 0x00})});
  ExpectModelError(model,
                   "GraphProto.node (field 1) at byte 2: length 6 runs past the end of "
                   "GraphProto (2 bytes left)");
}

TEST(OnnxWireTest, FixedWidthFieldsPastTheEndFail) {
  ExpectTensorError(Literal({0x25, 0x00, 0x00}),
                    "TensorProto.float_data (field 4) at byte 0: fixed32 needs 4 bytes, 2 left "
                    "in TensorProto");
  ExpectTensorError(Literal({0x51, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}),
                    "TensorProto.double_data (field 10) at byte 0: fixed64 needs 8 bytes, 7 left "
                    "in TensorProto");
  ExpectTensorError(Literal({0x22, 0x06, 0, 0, 0x80, 0x3F, 0, 0}),
                    "TensorProto.float_data (field 4) at byte 0: packed length 6 is not a "
                    "multiple of 4");
  ExpectTensorError(Literal({0x52, 0x04, 0, 0, 0x80, 0x3F}),
                    "TensorProto.double_data (field 10) at byte 0: packed length 4 is not a "
                    "multiple of 8");
}

TEST(OnnxWireTest, BadTagsAndWireTypesFail) {
  ExpectTensorError(Literal({0x00, 0x00}),
                    "TensorProto at byte 0: field number 0, expected in [1, 536870911]");
  ExpectTensorError(Literal({0x10, 0x01, 0x0B}),
                    "TensorProto.dims (field 1) at byte 2: wire type 3 (start group) (groups are "
                    "not used by onnx.proto and not supported)");
  ExpectTensorError(Literal({0x0C}),
                    "TensorProto.dims (field 1) at byte 0: wire type 4 (end group) (groups are "
                    "not used by onnx.proto and not supported)");
  ExpectTensorError(Literal({0x0E, 0x00}),
                    "TensorProto.dims (field 1) at byte 0: wire type 6 is not a protobuf wire "
                    "type");
  ExpectTensorError(Literal({0xFF, 0x01}),
                    "TensorProto field 31 at byte 0: wire type 7 is not a protobuf wire type");
  // Known fields with the wrong wire type.
  ExpectTensorError(Literal({0x12, 0x00}),
                    "TensorProto.data_type (field 2) at byte 0: wire type 2 (length-delimited), "
                    "expected 0 (varint)");
  ExpectTensorError(Literal({0x20, 0x01}),
                    "TensorProto.float_data (field 4) at byte 0: wire type 0 (varint), expected "
                    "5 (fixed32)");
  ExpectTensorError(Literal({0x0D, 0x00, 0x00, 0x00, 0x00}),
                    "TensorProto.dims (field 1) at byte 0: wire type 5 (fixed32), expected 0 "
                    "(varint)");
  ExpectTensorError(Literal({0x40, 0x01}),
                    "TensorProto.name (field 8) at byte 0: wire type 0 (varint), expected 2 "
                    "(length-delimited)");
  const Bytes model = LenField(7, Literal({0x0D, 0x00, 0x00, 0x00, 0x00}));  // node as fixed32
  ExpectModelError(model,
                   "GraphProto.node (field 1) at byte 2: wire type 5 (fixed32), expected 2 "
                   "(length-delimited)");
}

// Every prefix of a valid model, and bytes of it flipped: the parse succeeds or fails with a
// message, and never reads outside the buffer (exact-size copies; the asan preset checks).
TEST(OnnxWireTest, PrefixesAndFlippedBytesNeverReadOutside) {
  const Bytes model = EveryFieldModel();
  size_t failures = 0;
  for (size_t size = 0; size < model.size(); ++size) {
    const Bytes prefix(model.begin(), model.begin() + static_cast<std::ptrdiff_t>(size));
    ModelProto m;
    std::string error;
    if (!ParseModel(prefix.data(), prefix.size(), &m, &error)) {
      ++failures;
      EXPECT_FALSE(error.empty()) << "prefix of " << size << " bytes";
    }
  }
  EXPECT_GT(failures, model.size() / 2) << "most cuts fall inside a field";
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int i = 0; i < 2000; ++i) {
    Bytes mutated = model;
    for (int k = 0; k < 1 + i % 3; ++k) {
      mutated[next() % mutated.size()] ^= static_cast<uint8_t>(1u << (next() % 8));
    }
    ModelProto m;
    std::string error;
    if (!ParseModel(mutated.data(), mutated.size(), &m, &error)) {
      EXPECT_FALSE(error.empty()) << "mutation " << i;
    }
  }
}

// The parser gets a prefix of a buffer whose next bytes would complete the read: it must stop
// at the prefix's end.
TEST(OnnxWireTest, NothingIsReadPastTheGivenSize) {
  const Bytes buffer = Literal({0x42, 0x03, 'a', 'b', 'c', 0x10, 0x81, 0x01});
  TensorProto t;
  std::string error;
  EXPECT_FALSE(ParseTensor(buffer.data(), 4, &t, &error));
  EXPECT_EQ(error,
            "TensorProto.name (field 8) at byte 0: length 3 runs past the end of TensorProto "
            "(2 bytes left)");
  t = TensorProto();
  EXPECT_FALSE(ParseTensor(buffer.data(), 7, &t, &error));
  EXPECT_EQ(error,
            "TensorProto.data_type (field 2) at byte 5: truncated varint (the bytes end before "
            "its last byte)");
  t = TensorProto();
  ASSERT_TRUE(ParseTensor(buffer.data(), 8, &t, &error)) << error;
  EXPECT_EQ(t.name, "abc");
  EXPECT_EQ(t.data_type, 129);
}

TEST(OnnxWireTest, MissingFileFails) {
  Bytes bytes;
  std::string error;
  EXPECT_FALSE(ReadFileBytes("no/such/dir/model.onnx", &bytes, &error));
  EXPECT_NE(error.find("cannot open "), std::string::npos) << error;
  EXPECT_NE(error.find("model.onnx"), std::string::npos) << error;
}

}  // namespace
}  // namespace onnx_wire
}  // namespace dmlcpu_test
