// SPDX-License-Identifier: Apache-2.0
// A reader of the protobuf wire format for the few ONNX messages the conformance test reads
// (model.onnx and test_data_set_*/{input,output}_*.pb of ONNX's node tests), so the test needs
// neither libprotobuf nor libonnx (neither is packaged for mingw).
//
// Field numbers are onnx.proto's (proto2). Each struct keeps only the fields the test uses;
// every other field of any wire type 0, 1, 2 or 5 is skipped. Repeated scalars are read packed
// and unpacked. Repeated occurrences of an optional field behave as in protobuf: the last
// scalar wins, sub-messages merge. Malformed input (a truncated varint, a length past the end of
// its message, a group or reserved wire type, a known field with the wrong wire type) fails
// with a message naming the message, field and byte offset; nothing is read outside the input.
#ifndef DMLCPU_TESTS_CONFORMANCE_ONNX_WIRE_H_
#define DMLCPU_TESTS_CONFORMANCE_ONNX_WIRE_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dmlcpu_test {
namespace onnx_wire {

// TensorProto. data_type holds onnx.proto's TensorProto.DataType values.
struct TensorProto {
  std::vector<int64_t> dims;             // 1
  int32_t data_type = 0;                 // 2
  std::vector<float> float_data;         // 4
  std::vector<int32_t> int32_data;       // 5
  std::vector<std::string> string_data;  // 6
  std::vector<int64_t> int64_data;       // 7
  std::string name;                      // 8
  bool has_raw_data = false;            // raw_data was present (possibly empty)
  std::vector<uint8_t> raw_data;         // 9
  std::vector<double> double_data;       // 10
  std::vector<uint64_t> uint64_data;     // 11
};

// AttributeProto. type holds onnx.proto's AttributeProto.AttributeType values.
struct AttributeProto {
  std::string name;                  // 1
  float f = 0.0f;                    // 2
  int64_t i = 0;                     // 3
  std::string s;                     // 4
  std::optional<TensorProto> t;      // 5
  std::vector<float> floats;         // 7
  std::vector<int64_t> ints;         // 8
  std::vector<std::string> strings;  // 9
  int32_t type = 0;                  // 20
};

struct NodeProto {
  std::vector<std::string> input;         // 1
  std::vector<std::string> output;        // 2
  std::string name;                       // 3
  std::string op_type;                    // 4
  std::vector<AttributeProto> attribute;  // 5
  std::string domain;                     // 7
};

// ValueInfoProto: only the name (its TypeProto is skipped).
struct ValueInfoProto {
  std::string name;  // 1
};

struct GraphProto {
  std::vector<NodeProto> node;           // 1
  std::string name;                      // 2
  std::vector<TensorProto> initializer;  // 5
  std::vector<ValueInfoProto> input;     // 11
  std::vector<ValueInfoProto> output;    // 12
};

struct OperatorSetIdProto {
  std::string domain;   // 1
  int64_t version = 0;  // 2
};

struct ModelProto {
  int64_t ir_version = 0;                        // 1
  GraphProto graph;                              // 7
  std::vector<OperatorSetIdProto> opset_import;  // 8
};

// Parse `size_bytes` bytes at `data` (null when size_bytes is 0 is fine) into a
// default-constructed message. False with *error set (what, which message and field, byte
// offset) on malformed input.
bool ParseModel(const uint8_t* data, size_t size_bytes, ModelProto* model, std::string* error);
bool ParseTensor(const uint8_t* data, size_t size_bytes, TensorProto* tensor,
                 std::string* error);

// A whole file into memory. False with *error set when it cannot be opened or read.
bool ReadFileBytes(const std::filesystem::path& path, std::vector<uint8_t>* bytes,
                   std::string* error);

}  // namespace onnx_wire
}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_CONFORMANCE_ONNX_WIRE_H_
