// SPDX-License-Identifier: Apache-2.0
// What the ONNX model suites share: row-major coordinates of a shape, shapes as text, random
// draws, and index tensors built from and read as plain integers.
#ifndef DMLCPU_TESTS_CONFORMANCE_ONNX_MODEL_UTIL_H_
#define DMLCPU_TESTS_CONFORMANCE_ONNX_MODEL_UTIL_H_

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "conformance/adapter_runner.h"
#include "dmlcpu/onnx.h"

namespace dmlcpu_test {

// Every element type the adapter accepts for data.
inline const dmlcpu::onnx::ElementType kOnnxDataTypes[] = {
    dmlcpu::onnx::ElementType::kFloat,   dmlcpu::onnx::ElementType::kUint8,
    dmlcpu::onnx::ElementType::kInt8,    dmlcpu::onnx::ElementType::kUint16,
    dmlcpu::onnx::ElementType::kInt16,   dmlcpu::onnx::ElementType::kInt32,
    dmlcpu::onnx::ElementType::kInt64,   dmlcpu::onnx::ElementType::kBool,
    dmlcpu::onnx::ElementType::kFloat16, dmlcpu::onnx::ElementType::kDouble,
    dmlcpu::onnx::ElementType::kUint32,  dmlcpu::onnx::ElementType::kUint64,
    dmlcpu::onnx::ElementType::kBfloat16,
};

inline std::string ShapeToString(const std::vector<int64_t>& shape) {
  std::string s = "{";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "}";
}

// A uniform draw from [lo, hi].
inline int64_t Uniform(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

// Row-major element index of `coord` in `shape`.
inline uint64_t Linear(const std::vector<int64_t>& shape, const std::vector<int64_t>& coord) {
  uint64_t index = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    index = index * static_cast<uint64_t>(shape[d]) + static_cast<uint64_t>(coord[d]);
  }
  return index;
}

// Row-major coordinate of element `index` of `shape`.
inline std::vector<int64_t> Coord(const std::vector<int64_t>& shape, uint64_t index) {
  std::vector<int64_t> coord(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coord[d] = static_cast<int64_t>(index % static_cast<uint64_t>(shape[d]));
    index /= static_cast<uint64_t>(shape[d]);
  }
  return coord;
}

// Calls fn(coord) for every coordinate of `shape` in row-major order: none when a dimension is
// 0, one (the empty coordinate) for a rank-0 shape.
template <typename Fn>
void ForEachCoord(const std::vector<int64_t>& shape, Fn fn) {
  for (int64_t d : shape) {
    if (d == 0) return;
  }
  std::vector<int64_t> coord(shape.size(), 0);
  while (true) {
    fn(coord);
    size_t d = shape.size();
    while (d > 0 && ++coord[d - 1] == shape[d - 1]) coord[--d] = 0;
    if (d == 0) return;
  }
}

// An index tensor (INT32 or INT64) whose element i holds values[i].
inline HostTensor IndexTensor(dmlcpu::onnx::ElementType type, std::vector<int64_t> shape,
                              const std::vector<int64_t>& values) {
  HostTensor t;
  t.type = type;
  t.shape = std::move(shape);
  for (int64_t v : values) {
    if (type == dmlcpu::onnx::ElementType::kInt32) {
      const int32_t narrow = static_cast<int32_t>(v);
      const auto* p = reinterpret_cast<const uint8_t*>(&narrow);
      t.bytes.insert(t.bytes.end(), p, p + 4);
    } else {
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      t.bytes.insert(t.bytes.end(), p, p + 8);
    }
  }
  return t;
}

// Element i of an INT32 or INT64 index tensor.
inline int64_t IndexValue(const HostTensor& indices, uint64_t i) {
  if (indices.type == dmlcpu::onnx::ElementType::kInt32) {
    int32_t v;
    std::memcpy(&v, indices.bytes.data() + 4 * i, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, indices.bytes.data() + 8 * i, 8);
  return v;
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_CONFORMANCE_ONNX_MODEL_UTIL_H_
