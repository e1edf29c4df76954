// SPDX-License-Identifier: Apache-2.0
#include "d3d12/crosscheck_cases.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"

namespace dmlcpu_crosscheck {
namespace {

const DML_TENSOR_DATA_TYPE kDataTypes[] = {
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_UINT64};
const DML_TENSOR_DATA_TYPE kIndexTypes[] = {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                            DML_TENSOR_DATA_TYPE_INT64,
                                            DML_TENSOR_DATA_TYPE_UINT64};

bool IsSigned(DML_TENSOR_DATA_TYPE t) {
  return t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_INT64;
}

// Strides: packed (null or explicit), permuted with padding, or (inputs only) broadcast.
void ChooseLayout(Rng& rng, TensorSpec* t, bool allow_broadcast) {
  const uint32_t rank = static_cast<uint32_t>(t->sizes.size());
  t->strides.clear();
  const uint32_t mode = rng.Range(0, 99);
  if (mode >= 40) {
    std::vector<uint32_t> order(rank);
    for (uint32_t d = 0; d < rank; ++d) order[d] = rank - 1 - d;  // innermost first
    if (mode >= 50) {
      for (uint32_t d = rank; d > 1; --d) std::swap(order[d - 1], order[rng.Range(0, d - 1)]);
    }
    t->strides.assign(rank, 0);
    uint64_t stride = 1;
    for (uint32_t d : order) {
      t->strides[d] = static_cast<uint32_t>(stride);
      const uint32_t pad = mode >= 50 && rng.Chance(35) ? rng.Range(1, 2) : 0;
      stride *= t->sizes[d] + pad;
    }
    if (allow_broadcast && mode >= 85) {
      for (uint32_t d = 0; d < rank; ++d) {
        if (rng.Chance(40)) t->strides[d] = 0;
      }
    }
  }
  t->total_bytes = dmlcpu::CalcBufferTensorSize(
      t->data_type, rank, t->sizes.data(), t->strides.empty() ? nullptr : t->strides.data());
  if (rng.Chance(20)) t->total_bytes += 4 * rng.Range(1, 3);
}

// Random element data; no element starts with kSentinelByte. Floats hold exact small values so
// that no backend can change their bits (NaN payloads, denormals).
std::vector<uint8_t> RandomData(Rng& rng, const TensorSpec& t) {
  std::vector<uint8_t> bytes(t.total_bytes);
  const uint32_t width = ElementBytes(t.data_type);
  for (uint64_t off = 0; off + width <= bytes.size(); off += width) {
    uint8_t* p = bytes.data() + off;
    const uint64_t r = rng.Next();
    if (t.data_type == DML_TENSOR_DATA_TYPE_FLOAT32) {
      const float v = static_cast<float>(static_cast<int32_t>(r % 20001) - 10000) / 8.0f;
      std::memcpy(p, &v, 4);
    } else if (t.data_type == DML_TENSOR_DATA_TYPE_FLOAT64) {
      const double v = static_cast<double>(static_cast<int64_t>(r % 2000001) - 1000000) / 16.0;
      std::memcpy(p, &v, 8);
    } else {
      std::memcpy(p, &r, width);
    }
    if (p[0] == kSentinelByte) p[0] ^= 1;
  }
  for (uint64_t off = bytes.size() / width * width; off < bytes.size(); ++off) {
    bytes[off] = static_cast<uint8_t>(rng.Next());
  }
  return bytes;
}

// Writes index values: in range (negative ones too for signed types) or, in `out_of_range`
// cases, now and then a value outside [-D, D-1]. dim_of(position) gives D for each element.
template <typename DimOf>
void FillIndices(Rng& rng, Case* c, bool out_of_range, DimOf dim_of) {
  const TensorSpec& t = c->inputs[1];
  std::vector<uint8_t>& bytes = c->input_bytes[1];
  bytes.resize(t.total_bytes);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng.Next());
  const std::vector<uint64_t> offsets = ElementOffsets(t);
  const bool is_signed = IsSigned(t.data_type);
  const uint32_t width = ElementBytes(t.data_type);
  for (uint64_t i = 0; i < offsets.size(); ++i) {
    const int64_t d = dim_of(i);
    int64_t v = static_cast<int64_t>(rng.Next() % static_cast<uint64_t>(d));
    if (is_signed && rng.Chance(30)) v -= d;
    if (out_of_range && rng.Chance(15)) {
      switch (rng.Range(0, 3)) {
        case 0: v = d + rng.Range(0, 4); break;
        case 1: v = is_signed ? -d - 1 - static_cast<int64_t>(rng.Range(0, 3)) : d + 7; break;
        case 2: v = width == 4 ? 0x7FFFFFFF : (int64_t{1} << 40); break;
        default: v = -1 - d; break;  // unsigned: a huge value
      }
    }
    std::memcpy(bytes.data() + offsets[i], &v, width);  // little-endian low bytes
  }
}

// Row-major logical coordinate of element `i` of `sizes`.
std::vector<uint32_t> Coordinate(const std::vector<uint32_t>& sizes, uint64_t i) {
  std::vector<uint32_t> coord(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    coord[d] = static_cast<uint32_t>(i % sizes[d]);
    i /= sizes[d];
  }
  return coord;
}

void BuildDesc(Case* c) {
  const size_t count = c->inputs.size() + c->outputs.size();
  c->buffer_descs.assign(count, DML_BUFFER_TENSOR_DESC{});
  c->tensor_descs.assign(count, DML_TENSOR_DESC{});
  for (size_t i = 0; i < count; ++i) {
    const TensorSpec& t =
        i < c->inputs.size() ? c->inputs[i] : c->outputs[i - c->inputs.size()];
    DML_BUFFER_TENSOR_DESC& b = c->buffer_descs[i];
    b.DataType = t.data_type;
    b.Flags = DML_TENSOR_FLAG_NONE;
    b.DimensionCount = static_cast<UINT>(t.sizes.size());
    b.Sizes = t.sizes.data();
    b.Strides = t.strides.empty() ? nullptr : t.strides.data();
    b.TotalTensorSizeInBytes = t.total_bytes;
    b.GuaranteedBaseOffsetAlignment = 0;
    c->tensor_descs[i] = {DML_TENSOR_TYPE_BUFFER, &c->buffer_descs[i]};
  }
  const DML_TENSOR_DESC* in = c->input_desc(0);
  const DML_TENSOR_DESC* idx = c->has_indices ? c->input_desc(1) : nullptr;
  const DML_TENSOR_DESC* out = c->output_desc(0);
  const uint32_t n = static_cast<uint32_t>(c->inputs[0].sizes.size());
  switch (c->type) {
    case DML_OPERATOR_GATHER:
      c->gather = {in, idx, out, c->axis, c->index_dimensions};
      c->desc = {c->type, &c->gather};
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      c->gather_elements = {in, idx, out, c->axis};
      c->desc = {c->type, &c->gather_elements};
      break;
    case DML_OPERATOR_GATHER_ND:
      c->gather_nd = {in, idx, out, c->input_dims, c->indices_dims};
      c->desc = {c->type, &c->gather_nd};
      break;
    case DML_OPERATOR_GATHER_ND1:
      c->gather_nd1 = {in, idx, out, c->input_dims, c->indices_dims, c->batch_dims};
      c->desc = {c->type, &c->gather_nd1};
      break;
    case DML_OPERATOR_SLICE:
      c->slice = {in, out, n, c->window_offsets.data(), c->window_sizes.data(),
                  c->slice_strides.data()};
      c->desc = {c->type, &c->slice};
      break;
    case DML_OPERATOR_SLICE1:
      c->slice1 = {in, out, n, c->window_offsets.data(), c->window_sizes.data(),
                   c->window_strides.data()};
      c->desc = {c->type, &c->slice1};
      break;
    case DML_OPERATOR_PADDING:
    case DML_OPERATOR_PADDING1:
    case DML_OPERATOR_DEPTH_TO_SPACE:
    case DML_OPERATOR_SPACE_TO_DEPTH:
    case DML_OPERATOR_DEPTH_TO_SPACE1:
    case DML_OPERATOR_SPACE_TO_DEPTH1:
    case DML_OPERATOR_SLICE_GRAD:
      BuildPaddingDesc(c);
      break;
    // New families: one case each here.
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
    case DML_OPERATOR_JOIN:
    case DML_OPERATOR_SPLIT:
    case DML_OPERATOR_TILE:
      BuildCopyOpsDesc(c);
      break;
    case DML_OPERATOR_SCATTER:
    case DML_OPERATOR_SCATTER_ND:
      BuildScatterDesc(c);
      break;
    default:
      break;
  }
}

// Shapes and attributes of one operator; false when this draw is not a valid descriptor.
bool ChooseShapes(Rng& rng, Case* c) {
  switch (c->type) {
    case DML_OPERATOR_GATHER:
    case DML_OPERATOR_GATHER_ELEMENTS:
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1:
      c->has_indices = true;
      c->inputs.resize(2);
      c->outputs.resize(1);
      break;
    case DML_OPERATOR_SLICE:
    case DML_OPERATOR_SLICE1:
      c->inputs.resize(1);
      c->outputs.resize(1);
      break;
    case DML_OPERATOR_PADDING:
    case DML_OPERATOR_PADDING1:
    case DML_OPERATOR_DEPTH_TO_SPACE:
    case DML_OPERATOR_SPACE_TO_DEPTH:
    case DML_OPERATOR_DEPTH_TO_SPACE1:
    case DML_OPERATOR_SPACE_TO_DEPTH1:
    case DML_OPERATOR_SLICE_GRAD:
      return ChoosePaddingShapes(rng, c);
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
    case DML_OPERATOR_JOIN:
    case DML_OPERATOR_SPLIT:
    case DML_OPERATOR_TILE:
      return ChooseCopyOpsShapes(rng, c);
    case DML_OPERATOR_SCATTER:
    case DML_OPERATOR_SCATTER_ND:
      return ChooseScatterShapes(rng, c);
    // New families: one case each here, returning their crosscheck_cases_<family>.cc chooser.
    default:
      return false;
  }
  const uint32_t n = rng.Range(1, 8);
  const uint32_t max_dim = n <= 3 ? 6 : (n <= 5 ? 4 : 3);
  TensorSpec& in = c->inputs[0];
  in.sizes = RandomSizes(rng, n, max_dim);
  switch (c->type) {
    case DML_OPERATOR_GATHER: {
      c->axis = rng.Range(0, n - 1);
      c->index_dimensions = rng.Range(0, n);
      const uint32_t k = c->index_dimensions;
      // Dims the rule drops must be 1: make the leading input dims 1 often enough.
      if (k >= 2 && rng.Chance(70)) {
        for (uint32_t d = 0; d + 1 < k && d < n; ++d) in.sizes[d] = 1;
      }
      c->inputs[1].sizes.assign(n, 1);
      for (uint32_t d = n - k; d < n; ++d) c->inputs[1].sizes[d] = rng.Range(1, 3);
      if (k >= 2 && c->axis + 1 < k && rng.Chance(60)) {
        // Dropped index dims (before Axis's slot) must be 1 as well.
        for (uint32_t d = n - k; d < n - k + (k - 1 - c->axis) && d < n; ++d) {
          c->inputs[1].sizes[d] = 1;
        }
      }
      if (!dmlcpu_test::GatherOutputSizes(in.sizes, c->inputs[1].sizes, c->axis, k,
                                          &c->outputs[0].sizes)) {
        return false;
      }
      if (n + k - 1 > 8 && k - 1 > c->axis) {
        c->known_directml_bug = "GATHER with N + IndexDimensions - 1 > 8 and IndexDimensions - 1 "
                                "> Axis (docs/semantics.md#observed-directml-behaviour)";
      }
      return true;
    }
    case DML_OPERATOR_GATHER_ELEMENTS: {
      c->axis = rng.Range(0, n - 1);
      c->inputs[1].sizes = in.sizes;
      c->inputs[1].sizes[c->axis] = rng.Range(1, 4);
      c->outputs[0].sizes = c->inputs[1].sizes;
      return true;
    }
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1: {
      const uint32_t r = rng.Range(1, n), q = rng.Range(1, n);
      const uint32_t b =
          c->type == DML_OPERATOR_GATHER_ND1 ? rng.Range(0, std::min(r, q) - 1) : 0;
      const uint32_t t = rng.Range(1, r - b);
      c->input_dims = r;
      c->indices_dims = q;
      c->batch_dims = b;
      for (uint32_t d = 0; d < n - r; ++d) in.sizes[d] = 1;
      c->inputs[1].sizes.assign(n, 1);
      for (uint32_t d = n - q; d + 1 < n; ++d) c->inputs[1].sizes[d] = rng.Range(1, 3);
      c->inputs[1].sizes[n - 1] = t;
      for (uint32_t j = 0; j < b; ++j) c->inputs[1].sizes[n - q + j] = in.sizes[n - r + j];
      // Leading dims beyond the output's rank must be 1: shrink until the rule accepts.
      return dmlcpu_test::GatherNdOutputSizes(in.sizes, c->inputs[1].sizes, r, q, b,
                                              &c->outputs[0].sizes) &&
             Product(c->inputs[1].sizes) <= kMaxElems && Product(c->outputs[0].sizes) <= kMaxElems;
    }
    case DML_OPERATOR_SLICE: {
      c->outputs[0].sizes.resize(n);
      c->window_offsets.resize(n);
      c->window_sizes.resize(n);
      c->slice_strides.resize(n);
      for (uint32_t d = 0; d < n; ++d) {
        const uint32_t stride = rng.Range(1, 3);
        const uint32_t offset = rng.Range(0, in.sizes[d] - 1);
        const uint32_t max_count = 1 + (in.sizes[d] - 1 - offset) / stride;
        c->slice_strides[d] = stride;
        c->window_offsets[d] = offset;
        c->window_sizes[d] = rng.Range(1, max_count);
        c->outputs[0].sizes[d] = c->window_sizes[d];
      }
      return true;
    }
    case DML_OPERATOR_SLICE1: {
      c->outputs[0].sizes.resize(n);
      c->window_offsets.resize(n);
      c->window_sizes.resize(n);
      c->window_strides.resize(n);
      const bool shrink_output = rng.Chance(10);
      // Most of those get a whole-dimension window at stride +1 in the dim `whole_dim`, whose
      // output keeps fewer elements (DirectML's SLICE1 bug,
      // docs/semantics.md#observed-directml-behaviour), some in every other dim too.
      const uint32_t whole_dim = shrink_output && rng.Chance(70) ? rng.Range(0, n - 1) : n;
      const bool all_whole = whole_dim < n && rng.Chance(50);
      for (uint32_t d = 0; d < n; ++d) {
        uint32_t offset = rng.Range(0, in.sizes[d] - 1);
        uint32_t size = rng.Range(1, in.sizes[d] - offset);
        int32_t stride = static_cast<int32_t>(rng.Range(1, 3));
        if (rng.Chance(35)) stride = -stride;
        if (d == whole_dim || all_whole) {
          if (d == whole_dim && in.sizes[d] == 1) in.sizes[d] = 3;
          offset = 0;
          size = in.sizes[d];
          stride = 1;
        }
        const uint32_t count = 1 + (size - 1) / static_cast<uint32_t>(std::abs(stride));
        c->window_offsets[d] = offset;
        c->window_sizes[d] = size;
        c->window_strides[d] = stride;
        c->outputs[0].sizes[d] = d == whole_dim                     ? rng.Range(1, count - 1)
                             : shrink_output && rng.Chance(50) ? rng.Range(1, count)
                                                               : count;
        if (offset == 0 && size == in.sizes[d] && stride == 1 && c->outputs[0].sizes[d] < count) {
          c->known_directml_bug = "SLICE1 whose whole-dimension window at stride +1 keeps fewer "
                                  "output elements (docs/semantics.md#observed-directml-behaviour)";
        }
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

uint64_t Product(const std::vector<uint32_t>& sizes) {
  uint64_t n = 1;
  for (uint32_t s : sizes) n *= s;
  return n;
}

std::vector<uint32_t> RandomSizes(Rng& rng, uint32_t rank, uint32_t max_dim) {
  std::vector<uint32_t> sizes(rank);
  for (uint32_t& s : sizes) s = rng.Range(1, max_dim);
  while (Product(sizes) > kMaxElems / 4) {
    uint32_t& s = sizes[rng.Range(0, rank - 1)];
    if (s > 1) --s;
  }
  return sizes;
}

uint32_t ElementBytes(DML_TENSOR_DATA_TYPE data_type) {
  return dmlcpu_test::DataTypeSizeBytes(data_type);
}

std::vector<uint64_t> ElementOffsets(const TensorSpec& t) {
  const std::vector<uint32_t> strides =
      t.strides.empty() ? dmlcpu_test::PackedStrides(t.sizes) : t.strides;
  const uint32_t width = ElementBytes(t.data_type);
  const uint64_t count = Product(t.sizes);
  std::vector<uint64_t> offsets(count);
  for (uint64_t i = 0; i < count; ++i) {
    const std::vector<uint32_t> coord = Coordinate(t.sizes, i);
    uint64_t off = 0;
    for (size_t d = 0; d < coord.size(); ++d) off += uint64_t{coord[d]} * strides[d];
    offsets[i] = off * width;
  }
  return offsets;
}

std::string Case::Describe() const {
  auto sizes = [](const std::vector<uint32_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "}";
  };
  auto tensor = [&](const char* name, const TensorSpec& t) {
    return std::string(name) + " " + dmlcpu_test::DataTypeName(t.data_type) + sizes(t.sizes) +
           (t.strides.empty() ? std::string() : " strides " + sizes(t.strides)) + " " +
           std::to_string(t.total_bytes) + "B";
  };
  std::string s = "case " + std::to_string(index) + ": ";
  switch (type) {
    case DML_OPERATOR_GATHER:
      s += "GATHER axis " + std::to_string(axis) + " k " + std::to_string(index_dimensions);
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      s += "GATHER_ELEMENTS axis " + std::to_string(axis);
      break;
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1:
      s += std::string(type == DML_OPERATOR_GATHER_ND ? "GATHER_ND" : "GATHER_ND1") + " r " +
           std::to_string(input_dims) + " q " + std::to_string(indices_dims) + " b " +
           std::to_string(batch_dims);
      break;
    case DML_OPERATOR_SLICE:
      s += "SLICE offsets " + sizes(window_offsets) + " sizes " + sizes(window_sizes) +
           " strides " + sizes(slice_strides);
      break;
    case DML_OPERATOR_SLICE1: {
      std::string st = "{";
      for (size_t i = 0; i < window_strides.size(); ++i) {
        st += (i ? "," : "") + std::to_string(window_strides[i]);
      }
      s += "SLICE1 offsets " + sizes(window_offsets) + " sizes " + sizes(window_sizes) +
           " strides " + st + "}";
      break;
    }
    case DML_OPERATOR_PADDING:
    case DML_OPERATOR_PADDING1:
    case DML_OPERATOR_DEPTH_TO_SPACE:
    case DML_OPERATOR_SPACE_TO_DEPTH:
    case DML_OPERATOR_DEPTH_TO_SPACE1:
    case DML_OPERATOR_SPACE_TO_DEPTH1:
    case DML_OPERATOR_SLICE_GRAD:
      s += DescribePadding(*this);
      break;
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
    case DML_OPERATOR_JOIN:
    case DML_OPERATOR_SPLIT:
    case DML_OPERATOR_TILE:
      s += DescribeCopyOps(*this);
      break;
    case DML_OPERATOR_SCATTER:
    case DML_OPERATOR_SCATTER_ND:
      s += DescribeScatter(*this);
      break;
    default:
      break;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = i == 0 && inputs.size() == 1 ? "in"
                             : has_indices ? (i == 0 ? "in" : (i == 1 ? "idx" : "upd"))
                                                          : "in" + std::to_string(i);
    s += "; " + tensor(name.c_str(), inputs[i]);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string name = outputs.size() == 1 ? "out" : "out" + std::to_string(i);
    s += "; " + tensor(name.c_str(), outputs[i]);
  }
  return s;
}

std::unique_ptr<Case> GenerateCase(uint64_t seed, uint64_t index) {
  // New families: append their operator types (the rotation covers every entry).
  static const DML_OPERATOR_TYPE kOps[] = {DML_OPERATOR_GATHER,    DML_OPERATOR_GATHER_ELEMENTS,
                                           DML_OPERATOR_GATHER_ND, DML_OPERATOR_GATHER_ND1,
                                           DML_OPERATOR_SLICE,     DML_OPERATOR_SLICE1,
                                           DML_OPERATOR_PADDING,   DML_OPERATOR_PADDING1,
                                           DML_OPERATOR_DEPTH_TO_SPACE,
                                           DML_OPERATOR_SPACE_TO_DEPTH,
                                           DML_OPERATOR_DEPTH_TO_SPACE1,
                                           DML_OPERATOR_SPACE_TO_DEPTH1,
                                           DML_OPERATOR_SLICE_GRAD,
                                           DML_OPERATOR_ELEMENT_WISE_IDENTITY, DML_OPERATOR_JOIN,
                                           DML_OPERATOR_SPLIT, DML_OPERATOR_TILE,
                                           DML_OPERATOR_SCATTER, DML_OPERATOR_SCATTER_ND};
  constexpr size_t kOpCount = sizeof(kOps) / sizeof(kOps[0]);
  static const dmlcpu::Device validator(dmlcpu::DeviceOptions{1, nullptr});
  Rng rng(seed * 0x100000001B3ull ^ (index + 1) * 0x9E3779B97F4A7C15ull);
  for (;;) {
    auto c = std::make_unique<Case>();
    c->index = index;
    c->type = kOps[index % kOpCount];
    if (!ChooseShapes(rng, c.get())) continue;
    bool too_large = false;
    for (const TensorSpec& t : c->outputs) too_large |= Product(t.sizes) > kMaxElems;
    if (too_large) continue;
    // One random data type for every tensor a family left UNKNOWN (indices are set below).
    const DML_TENSOR_DATA_TYPE data_type = kDataTypes[rng.Range(0, 9)];
    for (size_t i = 0; i < c->inputs.size(); ++i) {
      TensorSpec& t = c->inputs[i];
      if (t.data_type == DML_TENSOR_DATA_TYPE_UNKNOWN && !(c->has_indices && i == 1)) {
        t.data_type = data_type;
      }
    }
    for (TensorSpec& t : c->outputs) {
      if (t.data_type == DML_TENSOR_DATA_TYPE_UNKNOWN) t.data_type = data_type;
    }
    ChooseLayout(rng, &c->inputs[0], /*allow_broadcast=*/true);
    for (TensorSpec& t : c->outputs) ChooseLayout(rng, &t, /*allow_broadcast=*/false);
    for (size_t i = 1; i < c->inputs.size(); ++i) {
      if (c->has_indices && i == 1) c->inputs[1].data_type = kIndexTypes[rng.Range(0, 3)];
      ChooseLayout(rng, &c->inputs[i], /*allow_broadcast=*/true);
    }
    c->input_bytes.resize(c->inputs.size());
    c->input_bytes[0] = RandomData(rng, c->inputs[0]);
    for (size_t i = 1; i < c->inputs.size(); ++i) {
      if (c->has_indices && i == 1) continue;
      c->input_bytes[i] = RandomData(rng, c->inputs[i]);
    }
    if (c->type == DML_OPERATOR_SCATTER || c->type == DML_OPERATOR_SCATTER_ND) {
      if (!FillScatterIndices(rng, c.get())) continue;
    } else if (c->has_indices) {
      const bool out_of_range = rng.Chance(20);
      const uint32_t n = static_cast<uint32_t>(c->inputs[0].sizes.size());
      const Case& cc = *c;
      if (c->type == DML_OPERATOR_GATHER || c->type == DML_OPERATOR_GATHER_ELEMENTS) {
        const int64_t d = cc.inputs[0].sizes[cc.axis];
        FillIndices(rng, c.get(), out_of_range, [d](uint64_t) { return d; });
      } else {
        const uint32_t t = cc.inputs[1].sizes[n - 1];
        const uint32_t first = n - cc.input_dims + cc.batch_dims;
        const std::vector<uint32_t>& in_sizes = cc.inputs[0].sizes;
        FillIndices(rng, c.get(), out_of_range, [&](uint64_t i) {
          return static_cast<int64_t>(in_sizes[first + i % t]);
        });
      }
    }
    // New families whose inputs need more than random bytes (indices, ...): one case each here.
    c->output_init.clear();
    for (const TensorSpec& t : c->outputs) c->output_init.emplace_back(t.total_bytes, kSentinelByte);
    BuildDesc(c.get());
    if (!validator.Compile(c->desc).ok()) continue;
    return c;
  }
}

}  // namespace dmlcpu_crosscheck
