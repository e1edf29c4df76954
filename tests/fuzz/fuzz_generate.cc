// SPDX-License-Identifier: Apache-2.0
// The fuzz case generator (fuzz_case.h): fuzz bytes to one shape-consistent operator of kOps,
// then, for the compile harness, a few fields made hostile.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "fuzz/fuzz_case.h"
#include "reference/reference.h"

namespace dmlcpu_fuzz {
namespace {

using dmlcpu_test::DataTypeSizeBytes;

constexpr DML_OPERATOR_TYPE kOps[] = {
    DML_OPERATOR_GATHER,         DML_OPERATOR_GATHER_ELEMENTS, DML_OPERATOR_GATHER_ND,
    DML_OPERATOR_GATHER_ND1,     DML_OPERATOR_SLICE,           DML_OPERATOR_SLICE1,
    // Padding family: PADDING(1) keep DimensionCount / StartPadding / EndPadding in
    // slice_dimension_count / offsets / window_sizes and mode, value, value type in attr;
    // depth/space keep BlockSize, Order in attr; SLICE_GRAD is SLICE1's fields.
    DML_OPERATOR_PADDING,        DML_OPERATOR_PADDING1,        DML_OPERATOR_DEPTH_TO_SPACE,
    DML_OPERATOR_SPACE_TO_DEPTH, DML_OPERATOR_DEPTH_TO_SPACE1, DML_OPERATOR_SPACE_TO_DEPTH1,
    DML_OPERATOR_SLICE_GRAD,
    // Copy-shaped ops (JOIN: two inputs, input and indices).
    DML_OPERATOR_ELEMENT_WISE_IDENTITY, DML_OPERATOR_TILE, DML_OPERATOR_JOIN,
    // Three inputs or several outputs (fuzz_ops_multi.cc).
    DML_OPERATOR_SCATTER, DML_OPERATOR_SCATTER_ND, DML_OPERATOR_SPLIT};
constexpr uint32_t kOpCount = sizeof(kOps) / sizeof(kOps[0]);

// Whether dmlcpu implements the operator type `v` (its builder would read the struct `v` names,
// so the type confusion of mutation 0 must avoid it): Compile of a null Desc says "null" for
// those and kUnsupported for the others.
bool IsImplementedType(uint32_t v) {
  static const std::vector<bool> implemented = [] {
    std::vector<bool> known(256, false);
    const dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
    for (uint32_t t = 0; t < 256; ++t) {
      const auto op = device.Compile({static_cast<DML_OPERATOR_TYPE>(t), nullptr});
      known[t] = !op.ok() && op.status().code() == dmlcpu::StatusCode::kInvalidArgument &&
                 op.status().message().find("null") != std::string::npos;
    }
    return known;
  }();
  return v < implemented.size() && implemented[v];
}

// SLICE, SLICE1 and SLICE_GRAD (SLICE1's window with the tensors' roles swapped): per
// dimension an offset, a stride, a window size and whether the sliced tensor has one element
// more than the window needs (SLICE1's strides may also be negative).
void GenerateWindow(FuzzInput& in, uint32_t n, FuzzCase* c, std::vector<uint32_t>* in_sizes,
                    std::vector<uint32_t>* out_sizes) {
  const bool slice = c->type == DML_OPERATOR_SLICE;
  const bool grad = c->type == DML_OPERATOR_SLICE_GRAD;
  c->slice_dimension_count = n;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t offset = in.U8() % 3;
    const uint32_t stride = 1 + in.U8() % 3;
    const uint8_t extra = in.U8();
    const uint32_t window = slice ? 1 + in.U8() % 4 : 1 + in.U8() % 5;
    const auto signed_stride = static_cast<int32_t>(stride);
    c->offsets.push_back(offset);
    c->window_sizes.push_back(window);
    c->window_strides.push_back(stride);
    c->window_strides_signed.push_back(!slice && (extra & 2) ? -signed_stride : signed_stride);
    // SLICE's sizes are its output's; SLICE1's window spans offset + window elements.
    const uint32_t sliced = (slice ? offset + (window - 1) * stride + 1 : offset + window) +
                            (extra & 1);
    const uint32_t taken = slice ? window : 1 + (window - 1) / stride;
    (grad ? out_sizes : in_sizes)->push_back(sliced);
    (grad ? in_sizes : out_sizes)->push_back(taken);
  }
}

}  // namespace

void Generate(FuzzInput& in, bool hostile, FuzzCase* c) {
  c->type = kOps[in.U8() % kOpCount];
  c->type_value = c->type;
  const uint32_t n = Rank(in);
  const uint32_t n1 = std::max<uint32_t>(n, 1);
  c->input.data_type = DataType(in);
  c->output.data_type = c->input.data_type;
  c->indices.data_type = IndexType(in);
  std::vector<uint32_t> in_sizes, idx_sizes, out_sizes;
  switch (c->type) {
    case DML_OPERATOR_GATHER: {
      const uint32_t axis = in.U8() % n1;
      const uint32_t k = 1 + in.U8() % n1;
      in_sizes = Dims(in, n);
      idx_sizes = Dims(in, n);
      for (uint32_t i = 0; i + k < n; ++i) idx_sizes[i] = 1;
      c->attr[0] = axis;
      c->attr[1] = k;
      if (!dmlcpu_test::GatherOutputSizes(in_sizes, idx_sizes, axis, k, &out_sizes)) {
        out_sizes = in_sizes;
      }
      break;
    }
    case DML_OPERATOR_GATHER_ELEMENTS: {
      c->attr[0] = in.U8() % n1;
      in_sizes = Dims(in, n);
      idx_sizes = in_sizes;
      for (uint32_t& d : idx_sizes) {
        if (in.U8() & 1) d = Dim(in);
      }
      out_sizes = idx_sizes;
      break;
    }
    case DML_OPERATOR_PADDING:
    case DML_OPERATOR_PADDING1: {
      c->attr[0] = in.U8() % 5;  // mode
      c->attr[1] = in.U8() & 1 ? in.U32() : 0x41299999u;  // value bits (10.6f)
      c->attr[2] = c->input.data_type;  // PADDING1's value type
      c->slice_dimension_count = n;
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t dim = Dim(in), start = in.U8() % 4, end = in.U8() % 4;
        in_sizes.push_back(dim);
        c->offsets.push_back(start);
        c->window_sizes.push_back(end);
        c->window_strides.push_back(1);
        c->window_strides_signed.push_back(1);
        out_sizes.push_back(dim + start + end);
      }
      break;
    }
    case DML_OPERATOR_DEPTH_TO_SPACE:
    case DML_OPERATOR_SPACE_TO_DEPTH:
    case DML_OPERATOR_DEPTH_TO_SPACE1:
    case DML_OPERATOR_SPACE_TO_DEPTH1: {
      const uint32_t b = 1 + in.U8() % 3;
      c->attr[0] = b;
      c->attr[1] = in.U8() % 2;
      const uint32_t batch = Dim(in), ch = Dim(in), h = Dim(in), w = Dim(in);
      const std::vector<uint32_t> depth = {batch, ch * b * b, h, w};
      const std::vector<uint32_t> space = {batch, ch, h * b, w * b};
      const bool to_space = c->type == DML_OPERATOR_DEPTH_TO_SPACE ||
                            c->type == DML_OPERATOR_DEPTH_TO_SPACE1;
      in_sizes = to_space ? depth : space;
      out_sizes = to_space ? space : depth;
      break;
    }
    case DML_OPERATOR_SLICE:
    case DML_OPERATOR_SLICE1:
    case DML_OPERATOR_SLICE_GRAD:
      GenerateWindow(in, n, c, &in_sizes, &out_sizes);
      break;
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      in_sizes = Dims(in, n);
      out_sizes = in_sizes;
      break;
    case DML_OPERATOR_TILE:
      in_sizes = Dims(in, n);
      out_sizes = in_sizes;
      c->attr[1] = n;
      for (uint32_t& r : c->repeats) r = 1;
      for (uint32_t i = 0; i < std::min(n, kMaxArrayElems); ++i) {
        c->repeats[i] = 1 + in.U8() % 3;
        out_sizes[i] *= c->repeats[i];
      }
      break;
    case DML_OPERATOR_JOIN:  // parts: input and indices (data of the input's type)
      c->indices.data_type = c->input.data_type;
      c->attr[0] = in.U8() % n1;
      c->attr[1] = 2;
      in_sizes = Dims(in, n);
      idx_sizes = in_sizes;
      out_sizes = in_sizes;
      if (n > 0) {
        idx_sizes[c->attr[0]] = Dim(in);
        out_sizes[c->attr[0]] += idx_sizes[c->attr[0]];
      }
      break;
    case DML_OPERATOR_SCATTER:
    case DML_OPERATOR_SCATTER_ND:
    case DML_OPERATOR_SPLIT:
      GenerateMultiOp(in, n, c, &in_sizes, &idx_sizes, &out_sizes);
      break;
    default: {  // GATHER_ND, GATHER_ND1
      const uint32_t r = 1 + in.U8() % n1;
      const uint32_t q = 1 + in.U8() % n1;
      const uint32_t b = c->type == DML_OPERATOR_GATHER_ND1 ? in.U8() % std::min(r, q) : 0;
      in_sizes.assign(n, 1);
      for (uint32_t i = n - std::min(r, n); i < n; ++i) in_sizes[i] = Dim(in);
      idx_sizes.assign(n, 1);
      for (uint32_t i = n - std::min(q, n); i < n; ++i) idx_sizes[i] = Dim(in);
      for (uint32_t j = 0; j < b && n >= r && n >= q; ++j) {
        idx_sizes[n - q + j] = in_sizes[n - r + j];
      }
      if (n >= 1 && r > b) idx_sizes[n - 1] = 1 + in.U8() % (r - b);
      c->attr[0] = r;
      c->attr[1] = q;
      c->attr[2] = b;
      if (!dmlcpu_test::GatherNdOutputSizes(in_sizes, idx_sizes, r, q, b, &out_sizes)) {
        out_sizes = in_sizes;
      }
      break;
    }
  }
  c->input.SetSizes(in_sizes);
  c->indices.SetSizes(idx_sizes);
  c->output.SetSizes(out_sizes);
  // The tensors beyond input / indices / output: SCATTER's updates, SPLIT's outputs 1...
  std::vector<TensorSpec*> extra;
  if (c->type == DML_OPERATOR_SCATTER || c->type == DML_OPERATOR_SCATTER_ND) {
    extra.push_back(&c->updates);
  }
  for (uint32_t k = 0; k < c->more_output_count; ++k) extra.push_back(&c->more_outputs[k]);
  std::vector<TensorSpec*> all = {&c->input, &c->indices, &c->output};
  all.insert(all.end(), extra.begin(), extra.end());
  // Strides: sometimes padded (row pitch > packed) or broadcast (0, inputs only).
  for (TensorSpec* t : all) {
    const bool is_output =
        t == &c->output || (t >= c->more_outputs && t < c->more_outputs + kMaxMoreOutputs);
    const uint8_t mode = in.U8();
    if ((mode & 3) == 1 && t->dimension_count > 0) {
      t->has_strides = true;
      t->strides = dmlcpu_test::PackedStrides(t->sizes);
      const uint32_t d = (mode >> 2) % t->dimension_count;
      if (!is_output && (mode & 0x40)) {
        t->strides[d] = 0;  // broadcast input
      } else {
        uint64_t stride = 1;  // a padded packing: each dimension's stride covers the inner ones
        for (uint32_t j = t->dimension_count; j-- > 0;) {
          t->strides[j] = static_cast<uint32_t>(std::min<uint64_t>(stride, 0xFFFFFFFFu));
          stride *= uint64_t{t->sizes[j]} + (j == d ? 1 : 0);
        }
      }
    }
    t->total_bytes = t->MinimumBytes() + 4 * ((mode >> 7) & 1);
    const uint8_t align = in.U8();
    if ((align & 7) == 1) t->alignment = 16;
    if ((align & 7) == 2) t->alignment = DataTypeSizeBytes(t->data_type);
  }
  if (!hostile) return;

  const uint32_t mutations = 1 + in.U8() % 4;
  for (uint32_t m = 0; m < mutations; ++m) {
    const uint8_t what = in.U8();
    TensorSpec* t = (what >> 5) >= 6 && !extra.empty() ? extra[(what >> 5) % extra.size()]
                    : (what >> 5) % 3 == 0               ? &c->input
                    : (what >> 5) % 3 == 1               ? &c->indices
                                                         : &c->output;
    switch (what % 24) {
      case 0: {  // a type value dmlcpu does not implement (the others read their own struct)
        // Any value of the enum's range (0..255); larger values are not representable in a C++
        // DML_OPERATOR_TYPE (UBSan -fsanitize=enum), so neither a caller nor we can build one.
        const uint32_t v = in.U8();
        if (!IsImplementedType(v)) {
          c->type_value = v;
        }
        break;
      }
      case 1:
        c->op_desc_null = true;
        break;
      case 2:
        t->present = false;
        break;
      case 3:
        t->type = DML_TENSOR_TYPE_INVALID;  // the enum's only other value
        break;
      case 4:
        t->buffer_desc_null = true;
        break;
      case 5:
        t->data_type = static_cast<DML_TENSOR_DATA_TYPE>(in.U8() % 16);  // the enum's range
        break;
      case 6:
        t->data_type = DataType(in);
        break;
      case 7: {
        const uint8_t b = in.U8();
        t->dimension_count = b < 240 ? b % 11 : kSpecialU32[b & 15];
        t->ResizeArrays(in);
        break;
      }
      case 8:
      case 9:
        if (!t->sizes.empty()) t->sizes[in.U8() % t->sizes.size()] = Dim(in);
        break;
      case 10:
        if (!t->sizes.empty()) {
          t->has_strides = true;
          t->strides.resize(t->sizes.size(), 1);
          t->strides[in.U8() % t->sizes.size()] = Dim(in);
        }
        break;
      case 11: {
        const uint8_t b = in.U8();
        t->total_bytes = b & 1 ? in.U64()
                         : b & 2 ? t->total_bytes - 4
                                 : t->total_bytes + (uint64_t{1} << (b >> 2));
        break;
      }
      case 12:
        t->alignment = (in.U8() & 1) ? in.U32() : kSpecialU32[in.U8() & 15];
        break;
      case 13:
        c->attr[in.U8() % 3] = in.U8() & 1 ? in.U32() : in.U8() % 12;
        break;
      case 14:
        c->offsets_null = true;
        break;
      case 15:
        c->window_sizes_null = true;
        break;
      case 16:
        c->window_strides_null = true;
        break;
      case 17: {
        const uint8_t b = in.U8();
        c->slice_dimension_count = b < 240 ? b % 11 : kSpecialU32[b & 15];
        c->ResizeSliceArrays(in);
        break;
      }
      case 18:
        t->sizes_null = true;
        break;
      case 19:
        t->flags = DML_TENSOR_FLAG_OWNED_BY_DML;  // the enum's range is 0..1
        break;
      case 20:
        if (!c->window_strides.empty()) {
          const size_t i = in.U8() % c->window_strides.size();
          const uint32_t v = in.U8() & 1 ? in.U32() : kSpecialU32[in.U8() & 15];
          c->window_strides[i] = v;
          c->window_strides_signed[i] = static_cast<int32_t>(v);
        }
        break;
      case 21:
        if (!c->offsets.empty()) c->offsets[in.U8() % c->offsets.size()] = Dim(in);
        break;
      case 22:
        if (!c->window_sizes.empty()) c->window_sizes[in.U8() % c->window_sizes.size()] = Dim(in);
        break;
      default:  // strides recomputed for mutated sizes, TotalTensorSizeInBytes re-derived
        t->total_bytes = t->MinimumBytes();
        break;
    }
  }
}

}  // namespace dmlcpu_fuzz
