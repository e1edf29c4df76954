// SPDX-License-Identifier: Apache-2.0
// Tensor descriptors: reading, the generic validity rules (docs/semantics.md#tensor-descriptions),
// and the buffer-size arithmetic (DMLCalcBufferTensorSize, in 64 bits).
#include <cstring>

#include "core/checked_math.h"
#include "core/format.h"
#include "planner/geometry.h"

namespace dmlcpu {
namespace internal {
namespace {

// Bits per element; 0 for unknown values.
uint32_t ElementBits(DML_TENSOR_DATA_TYPE type) {
  uint32_t value;  // any 32-bit value may arrive from C
  std::memcpy(&value, &type, sizeof(value));
  switch (value) {
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8:
      return 8;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16:
      return 16;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32:
      return 32;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64:
      return 64;
    case DML_TENSOR_DATA_TYPE_UINT4:
    case DML_TENSOR_DATA_TYPE_INT4:
      return 4;
    default:
      return 0;
  }
}

// Index of the last reachable element + 1, or false on overflow.
bool ElementSpan(uint32_t rank, const uint32_t* sizes, const uint32_t* strides,
                 uint64_t* span_elems) {
  if (strides == nullptr) {
    uint64_t count = 1;
    for (uint32_t i = 0; i < rank; ++i) {
      if (!CheckedMul(count, static_cast<uint64_t>(sizes[i]), &count)) return false;
    }
    *span_elems = count;
    return true;
  }
  uint64_t last = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0) continue;
    uint64_t term;
    if (!CheckedMul(static_cast<uint64_t>(sizes[i] - 1), static_cast<uint64_t>(strides[i]),
                    &term) ||
        !CheckedAdd(last, term, &last)) {
      return false;
    }
  }
  return CheckedAdd(last, uint64_t{1}, span_elems);
}

constexpr uint64_t kMaxSpanElems = 0xFFFFFFFFull;  // a buffer tensor spans at most 2^32 - 1

}  // namespace

uint32_t ElementBytes(DML_TENSOR_DATA_TYPE type) {
  const uint32_t bits = ElementBits(type);
  return bits >= 8 ? bits / 8 : 0;
}

uint64_t CalcTensorBytes(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t* sizes,
                         const uint32_t* strides) {
  const uint32_t bits = ElementBits(type);
  if (bits == 0 || (rank > 0 && sizes == nullptr)) return 0;
  uint64_t span_elems;
  if (!ElementSpan(rank, sizes, strides, &span_elems)) return 0;
  uint64_t span_bits;
  if (!CheckedMul(span_elems, static_cast<uint64_t>(bits), &span_bits)) return 0;
  const uint64_t bytes = span_bits / 8 + (span_bits % 8 != 0);
  if (bytes > UINT64_MAX - 3) return 0;
  return (bytes + 3) & ~uint64_t{3};
}

Status ReadTensor(const char* op, const char* field, const DML_TENSOR_DESC* desc, bool is_output,
                  TensorInfo* info) {
  if (desc == nullptr)
    return InvalidArgument("%s: %s is null, expected a non-null pointer", op, field);
  // Enum fields may hold any 32-bit value written from C: read them as integers.
  uint32_t tensor_type;
  std::memcpy(&tensor_type, &desc->Type, sizeof(tensor_type));
  if (tensor_type != DML_TENSOR_TYPE_BUFFER) {
    return InvalidArgument("%s: %s.Type is %u, expected 1 (DML_TENSOR_TYPE_BUFFER)", op, field,
                           tensor_type);
  }
  if (desc->Desc == nullptr)
    return InvalidArgument("%s: %s.Desc is null, expected a non-null pointer", op, field);
  const auto& buffer = *static_cast<const DML_BUFFER_TENSOR_DESC*>(desc->Desc);

  uint32_t type_value;
  std::memcpy(&type_value, &buffer.DataType, sizeof(type_value));
  if (type_value == 0 || type_value > DML_TENSOR_DATA_TYPE_INT4) {
    return InvalidArgument("%s: %s.DataType is %u, expected a DML_TENSOR_DATA_TYPE in [1, 13]", op,
                           field, type_value);
  }
  const auto type = static_cast<DML_TENSOR_DATA_TYPE>(type_value);
  const uint32_t bits = ElementBits(type);
  if (bits == 4) {
    return Unsupported(
        "%s: %s.DataType is %u (%s), expected a 1/2/4/8-byte type: 4-bit types are not supported "
        "by data-movement operators",
        op, field, static_cast<unsigned>(type), DataTypeName(type));
  }
  uint32_t flags;
  std::memcpy(&flags, &buffer.Flags, sizeof(flags));
  if ((flags & ~static_cast<unsigned>(DML_TENSOR_FLAG_OWNED_BY_DML)) != 0) {
    return InvalidArgument("%s: %s.Flags is 0x%x, expected a combination of 0x1 (OWNED_BY_DML)", op,
                           field, flags);
  }
  if (flags & DML_TENSOR_FLAG_OWNED_BY_DML) {
    if (is_output) {
      return InvalidArgument(
          "%s: %s.Flags is 0x1 (OWNED_BY_DML), expected 0: outputs cannot be "
          "owned by DML",
          op, field);
    }
    return Unsupported(
        "%s: %s.Flags is 0x1 (OWNED_BY_DML), expected 0: dmlcpu has no initializer "
        "step that would bind owned tensors",
        op, field);
  }
  const uint32_t rank = buffer.DimensionCount;
  if (rank < 1 || rank > kMaxRank) {
    return InvalidArgument("%s: %s.DimensionCount is %u, expected in [1, 8]", op, field, rank);
  }
  if (buffer.Sizes == nullptr)
    return InvalidArgument("%s: %s.Sizes is null, expected a non-null pointer", op, field);
  for (uint32_t i = 0; i < rank; ++i) {
    if (buffer.Sizes[i] == 0) {
      return InvalidArgument("%s: %s.Sizes[%u] is 0, expected >= 1", op, field, i);
    }
  }
  uint64_t span_elems;
  if (!ElementSpan(rank, buffer.Sizes, buffer.Strides, &span_elems)) {
    return InvalidArgument(
        "%s: %s.Sizes %s with Strides %s overflow 64-bit element offsets, expected a span below "
        "2^64 elements",
        op, field, FormatList(buffer.Sizes, rank).c_str(),
        buffer.Strides ? FormatList(buffer.Strides, rank).c_str() : "null");
  }
  if (span_elems > kMaxSpanElems) {
    return InvalidArgument("%s: %s spans %llu elements (Sizes %s), expected <= 4294967295", op,
                           field, static_cast<unsigned long long>(span_elems),
                           FormatList(buffer.Sizes, rank).c_str());
  }
  const uint64_t required = CalcTensorBytes(type, rank, buffer.Sizes, buffer.Strides);
  if (buffer.TotalTensorSizeInBytes < required) {
    return InvalidArgument(
        "%s: %s.TotalTensorSizeInBytes is %llu, expected >= %llu (DMLCalcBufferTensorSize)", op,
        field, static_cast<unsigned long long>(buffer.TotalTensorSizeInBytes),
        static_cast<unsigned long long>(required));
  }
  const uint32_t elem_bytes = bits / 8;
  const uint32_t alignment = buffer.GuaranteedBaseOffsetAlignment;
  if (alignment != 0 && ((alignment & (alignment - 1)) != 0 || alignment < elem_bytes)) {
    return InvalidArgument(
        "%s: %s.GuaranteedBaseOffsetAlignment is %u, expected 0 or a power of two >= %u (the "
        "element size)",
        op, field, alignment, elem_bytes);
  }

  info->data_type = type;
  info->elem_bytes = elem_bytes;
  info->rank = rank;
  info->packed = buffer.Strides == nullptr;
  uint64_t packed_stride = 1;
  for (uint32_t i = rank; i-- > 0;) {
    info->sizes[i] = buffer.Sizes[i];
    info->strides_elems[i] = buffer.Strides ? buffer.Strides[i] : packed_stride;
    packed_stride *= buffer.Sizes[i];  // cannot overflow: span checked above
  }
  info->total_bytes = buffer.TotalTensorSizeInBytes;
  info->required_bytes = required;
  info->alignment_bytes = alignment;

  if (is_output && buffer.Strides != nullptr) {
    // Every output element must have its own bytes: no 0 strides, no overlapping layout.
    // Sufficient test: sorted by stride, each stride exceeds the extent of all smaller ones.
    uint32_t order[kMaxRank];
    uint32_t count = 0;
    for (uint32_t i = 0; i < rank; ++i) {
      if (info->sizes[i] == 1) continue;
      if (info->strides_elems[i] == 0) {
        return InvalidArgument(
            "%s: %s.Strides[%u] is 0 with Sizes[%u] %u, expected non-zero: an "
            "output cannot broadcast",
            op, field, i, i, info->sizes[i]);
      }
      order[count++] = i;
    }
    for (uint32_t k = 1; k < count; ++k) {  // insertion sort by stride (count <= 8)
      for (uint32_t m = k;
           m > 0 && info->strides_elems[order[m]] < info->strides_elems[order[m - 1]]; --m) {
        const uint32_t tmp = order[m];
        order[m] = order[m - 1];
        order[m - 1] = tmp;
      }
    }
    uint64_t extent = 0;  // offset of the last element reachable by the dims so far
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t d = order[k];
      if (info->strides_elems[d] <= extent) {
        return InvalidArgument(
            "%s: %s.Strides[%u] is %llu, expected > %llu: dmlcpu accepts an output layout only "
            "when each stride exceeds the extent of the smaller ones, which proves that no two "
            "elements share memory (Strides %s)",
            op, field, d, static_cast<unsigned long long>(info->strides_elems[d]),
            static_cast<unsigned long long>(extent), FormatList(buffer.Strides, rank).c_str());
      }
      extent += (info->sizes[d] - 1) * info->strides_elems[d];
    }
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace dmlcpu
