// SPDX-License-Identifier: Apache-2.0
// Naive references of PADDING and PADDING1 (docs/semantics.md#padding): for every output
// coordinate, either the fill value or the input element that the mode's formula picks.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "reference/reference.h"
#include "reference/reference_internal.h"

namespace dmlcpu_test {
namespace {

using reference_internal::Error;
using reference_internal::MakeView;
using reference_internal::NextCoordinate;
using reference_internal::TensorView;

// The source index of coordinate s (relative to the interior) along a dimension of n, or -1
// for CONSTANT outside the interior. Straight from the formulas of the semantics.
int64_t Source(uint32_t mode, int64_t s, int64_t n) {
  if (s >= 0 && s < n) return s;
  auto mod = [](int64_t a, int64_t p) {
    int64_t r = a % p;
    return r < 0 ? r + p : r;
  };
  switch (mode) {
    case 0:  // CONSTANT
      return -1;
    case 1:  // EDGE
      return s < 0 ? 0 : n - 1;
    case 2: {  // REFLECTION
      if (n == 1) return 0;
      const int64_t p = 2 * (n - 1);
      const int64_t t = mod(s, p);
      return t < n ? t : p - t;
    }
    case 3: {  // SYMMETRIC
      const int64_t p = 2 * n;
      const int64_t t = mod(s, p);
      return t < n ? t : p - 1 - t;
    }
    default:  // WRAP
      return mod(s, n);
  }
}

// DirectML's conversion of PADDING's FLOAT to a tensor element, as measured
// (docs/semantics.md#padding), written with plain double arithmetic.
std::vector<uint8_t> PaddingValueBytes(DML_TENSOR_DATA_TYPE type, float value) {
  std::vector<uint8_t> bytes(8, 0);
  const double v = value;
  const bool nan = std::isnan(value);
  // INT32 result of a truncating conversion: out of range or NaN gives -2^31.
  const double t = nan ? 0.0 : std::trunc(v);
  const int64_t i32 =
      (nan || t < -2147483648.0 || t > 2147483647.0) ? -2147483648LL : static_cast<int64_t>(t);
  const bool i64_ok = !nan && t >= -9223372036854775808.0 && t < 9223372036854775808.0;
  const uint64_t i64 = i64_ok ? static_cast<uint64_t>(static_cast<int64_t>(t))
                              : uint64_t{0x8000000000000000ull};
  uint64_t out = 0;
  switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32:
      std::memcpy(&out, &value, 4);
      break;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
      if (nan) {
        uint32_t f;
        std::memcpy(&f, &value, 4);
        const uint64_t sign = f >> 31, payload = f & 0x7FFFFF;
        out = (sign << 63) | 0x7FF8000000000000ull | (payload << 29);
      } else {
        std::memcpy(&out, &v, 8);
      }
      break;
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
      // Round to nearest even through the exact double value.
      uint32_t f;
      std::memcpy(&f, &value, 4);
      const uint64_t sign = (f >> 31) << 15;
      if (nan) {
        out = sign | 0x7E00 | ((f & 0x7FFFFF) >> 13);
      } else if (std::isinf(value) || std::fabs(v) >= 65520.0) {
        out = sign | 0x7C00;
      } else {
        const double a = std::fabs(v);
        if (a < std::ldexp(1.0, -14)) {  // subnormal: units of 2^-24
          out = sign | static_cast<uint64_t>(std::nearbyint(a * std::ldexp(1.0, 24)));
        } else {
          int e = 0;
          const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
          const double q = std::nearbyint(m * 2048.0);  // 11 significant bits
          uint64_t mant = static_cast<uint64_t>(q);
          int exp = e - 1 + 15;
          if (mant == 2048) {
            mant = 1024;
            ++exp;
          }
          out = exp >= 31 ? (sign | 0x7C00)
                          : (sign | (static_cast<uint64_t>(exp) << 10) | (mant - 1024));
        }
      }
      break;
    }
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8:
      out = static_cast<uint64_t>(i32);  // the low bytes are kept below
      break;
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT64:
      out = i64;
      break;
    case DML_TENSOR_DATA_TYPE_UINT64:
      out = (!nan && t >= 9223372036854775808.0 && t < 18446744073709551616.0)
                ? static_cast<uint64_t>(t)
                : i64;
      break;
    default:
      break;
  }
  for (int b = 0; b < 8; ++b) bytes[b] = static_cast<uint8_t>(out >> (8 * b));
  return bytes;
}

ReferenceResult Padding(const char* op, const DML_TENSOR_DESC* input_desc,
                        const DML_TENSOR_DESC* output_desc, uint32_t mode,
                        uint32_t dimension_count, const uint32_t* start, const uint32_t* end,
                        const std::vector<uint8_t>& value, const void* input, void* output) {
  TensorView in, out;
  std::string error = MakeView(input_desc, "InputTensor", &in);
  if (error.empty()) error = MakeView(output_desc, "OutputTensor", &out);
  if (!error.empty()) return Error(std::string(op) + ": " + error);
  const uint32_t n = out.rank;
  if (in.rank != n || dimension_count != n) return Error(std::string(op) + ": ranks differ");
  if (in.data_type != out.data_type) return Error(std::string(op) + ": data types differ");
  if (start == nullptr || end == nullptr) return Error(std::string(op) + ": null padding array");
  if (mode > 4) return Error(std::string(op) + ": unknown mode");
  for (uint32_t d = 0; d < n; ++d) {
    if (uint64_t{in.sizes[d]} + start[d] + end[d] != out.sizes[d]) {
      return Error(std::string(op) + ": output sizes differ from input + padding");
    }
  }
  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(n, 0), src(n, 0);
  do {
    bool inside = true;
    for (uint32_t d = 0; d < n; ++d) {
      const int64_t s = Source(mode, static_cast<int64_t>(o[d]) - start[d], in.sizes[d]);
      if (s < 0) {
        inside = false;
      } else {
        src[d] = static_cast<uint64_t>(s);
      }
    }
    uint8_t* dst = static_cast<uint8_t*>(output) + out.ByteOffset(o);
    if (inside) {
      std::memcpy(dst, static_cast<const uint8_t*>(input) + in.ByteOffset(src), out.element_bytes);
    } else {
      std::memcpy(dst, value.data(), out.element_bytes);
    }
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

uint32_t EnumValue(const void* field) {
  uint32_t v;
  std::memcpy(&v, field, sizeof(v));
  return v;
}

}  // namespace

ReferenceResult ReferencePadding(const DML_PADDING_OPERATOR_DESC& desc, const void* input,
                                 void* output) {
  const auto* buffer = desc.InputTensor != nullptr && desc.InputTensor->Desc != nullptr
                           ? static_cast<const DML_BUFFER_TENSOR_DESC*>(desc.InputTensor->Desc)
                           : nullptr;
  if (buffer == nullptr) return Error("PADDING: null InputTensor");
  return Padding("PADDING", desc.InputTensor, desc.OutputTensor, EnumValue(&desc.PaddingMode),
                 desc.DimensionCount, desc.StartPadding, desc.EndPadding,
                 PaddingValueBytes(buffer->DataType, desc.PaddingValue), input, output);
}

ReferenceResult ReferencePadding1(const DML_PADDING1_OPERATOR_DESC& desc, const void* input,
                                  void* output) {
  const auto* buffer = desc.InputTensor != nullptr && desc.InputTensor->Desc != nullptr
                           ? static_cast<const DML_BUFFER_TENSOR_DESC*>(desc.InputTensor->Desc)
                           : nullptr;
  if (buffer == nullptr) return Error("PADDING1: null InputTensor");
  if (EnumValue(&desc.PaddingValueDataType) != EnumValue(&buffer->DataType)) {
    return Error("PADDING1: PaddingValueDataType differs from the tensor's");
  }
  // DirectML's reading of the union (docs/semantics.md#padding): 8-byte elements take all of
  // it; narrower ones its low 32-bit word, and all-ones when that word exceeds the element.
  std::vector<uint8_t> value(desc.PaddingValue.Bytes, desc.PaddingValue.Bytes + 8);
  const uint32_t width = static_cast<uint32_t>(DataTypeSizeBytes(buffer->DataType));
  if (width < 8) {
    uint32_t word;
    std::memcpy(&word, desc.PaddingValue.Bytes, 4);
    const uint64_t limit = (uint64_t{1} << (8 * width)) - 1;
    if (word > limit) std::fill(value.begin(), value.begin() + width, 0xFF);
  }
  return Padding("PADDING1", desc.InputTensor, desc.OutputTensor, EnumValue(&desc.PaddingMode),
                 desc.DimensionCount, desc.StartPadding, desc.EndPadding, value, input, output);
}

}  // namespace dmlcpu_test
