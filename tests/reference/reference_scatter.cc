// SPDX-License-Identifier: Apache-2.0
#include "reference/reference_scatter.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace dmlcpu_test {
namespace {

struct View {
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
  uint32_t rank = 0;
  std::vector<uint32_t> sizes;
  std::vector<uint64_t> strides_elems;
  uint32_t element_bytes = 0;
  uint64_t ByteOffset(const std::vector<uint64_t>& coord) const {
    uint64_t e = 0;
    for (uint32_t d = 0; d < rank; ++d) e += coord[d] * strides_elems[d];
    return e * element_bytes;
  }
};

std::string MakeView(const DML_TENSOR_DESC* tensor, const char* name, View* v) {
  if (tensor == nullptr || tensor->Type != DML_TENSOR_TYPE_BUFFER || tensor->Desc == nullptr) {
    return std::string(name) + ": not a buffer tensor";
  }
  const auto* b = static_cast<const DML_BUFFER_TENSOR_DESC*>(tensor->Desc);
  if (b->DimensionCount < 1 || b->DimensionCount > 8 || b->Sizes == nullptr) {
    return std::string(name) + ": bad rank or sizes";
  }
  v->data_type = b->DataType;
  v->element_bytes = DataTypeSizeBytes(b->DataType);
  if (v->element_bytes == 0) return std::string(name) + ": no byte size";
  v->rank = b->DimensionCount;
  v->sizes.assign(b->Sizes, b->Sizes + v->rank);
  v->strides_elems.assign(v->rank, 0);
  uint64_t packed = 1;
  for (uint32_t d = v->rank; d-- > 0;) {
    if (v->sizes[d] == 0) return std::string(name) + ": a size is 0";
    v->strides_elems[d] = b->Strides ? b->Strides[d] : packed;
    packed *= v->sizes[d];
  }
  return std::string();
}

bool Next(const std::vector<uint32_t>& sizes, std::vector<uint64_t>* c) {
  for (size_t d = sizes.size(); d-- > 0;) {
    if (++(*c)[d] < sizes[d]) return true;
    (*c)[d] = 0;
  }
  return false;
}

ReferenceResult Fail(const std::string& message) {
  ReferenceResult r;
  r.error = message;
  return r;
}

// ------------------------------------------------------------------ arithmetic

float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t FloatToBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
  if (e == 0x1F) return BitsToFloat(sign | 0x7F800000u | (m << 13));
  if (e == 0) {
    const float v = static_cast<float>(m) * (1.0f / 16777216.0f);  // m * 2^-24, exact
    return sign ? -v : v;
  }
  return BitsToFloat(sign | ((e + 112) << 23) | (m << 13));
}

// Round to nearest even: the classic re-bias-and-round on the float's bits.
uint16_t FloatToHalf(float f) {
  uint32_t x = FloatToBits(f);
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7FFFFFFFu;
  if (x > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u | ((x >> 13) & 0x3FFu));
  if (x >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // >= 65520: infinity
  if (x < 0x38800000u) {                                               // below 2^-14
    const float scaled = BitsToFloat(x) * 16777216.0f;                 // exact
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  x += 0xC8000FFFu + ((x >> 13) & 1u);
  return static_cast<uint16_t>(sign | (x >> 13));
}

float Bf16ToFloat(uint16_t b) { return BitsToFloat(static_cast<uint32_t>(b) << 16); }
uint16_t FloatToBf16(float f) {
  const uint32_t x = FloatToBits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

template <typename T>
T IntStep(RefReduction r, T a, T b) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (r) {
    case RefReduction::kAdd: return static_cast<T>(ua + ub);
    case RefReduction::kMul: return static_cast<T>(ua * ub);
    case RefReduction::kMax: return a < b ? b : a;
    case RefReduction::kMin: return b < a ? b : a;
    default: return b;
  }
}

// Floating step on doubles; `a_bits_negative` decides between equal zeros.
double FloatStep(RefReduction r, double a, double b) {
  switch (r) {
    case RefReduction::kAdd: return a + b;
    case RefReduction::kMul: return a * b;
    case RefReduction::kMax:
      if (a == b) return std::signbit(a) ? b : a;
      return a < b ? b : a;
    case RefReduction::kMin:
      if (a == b) return std::signbit(a) ? a : b;
      return b < a ? b : a;
    default: return b;
  }
}

}  // namespace

void RefReduce(DML_TENSOR_DATA_TYPE type, bool uint16_as_bfloat16, RefReduction r, uint8_t* dst,
               const uint8_t* src) {
  const uint32_t width = DataTypeSizeBytes(type);
  if (r == RefReduction::kNone) {
    std::memmove(dst, src, width);
    return;
  }
  switch (type) {
    case DML_TENSOR_DATA_TYPE_INT8: Store(dst, IntStep(r, Load<int8_t>(dst), Load<int8_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_UINT8: Store(dst, IntStep(r, Load<uint8_t>(dst), Load<uint8_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_INT16: Store(dst, IntStep(r, Load<int16_t>(dst), Load<int16_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_INT32: Store(dst, IntStep(r, Load<int32_t>(dst), Load<int32_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_UINT32: Store(dst, IntStep(r, Load<uint32_t>(dst), Load<uint32_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_INT64: Store(dst, IntStep(r, Load<int64_t>(dst), Load<int64_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_UINT64: Store(dst, IntStep(r, Load<uint64_t>(dst), Load<uint64_t>(src))); return;
    case DML_TENSOR_DATA_TYPE_UINT16:
      if (!uint16_as_bfloat16) {
        Store(dst, IntStep(r, Load<uint16_t>(dst), Load<uint16_t>(src)));
        return;
      }
      break;
    default: break;
  }
  // IEEE types: NaN first (the destination's, else the update's, quieted), then the step in
  // double (exact for FLOAT16/BFLOAT16 operands' sums and products up to one rounding).
  if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
    const float a = Load<float>(dst), b = Load<float>(src);
    if (std::isnan(a) || std::isnan(b)) {
      Store(dst, (std::isnan(a) ? FloatToBits(a) : FloatToBits(b)) | 0x00400000u);
      return;
    }
    float v;
    if (r == RefReduction::kAdd) v = a + b;
    else if (r == RefReduction::kMul) v = a * b;
    else v = static_cast<float>(FloatStep(r, a, b));
    Store(dst, v);
    return;
  }
  if (type == DML_TENSOR_DATA_TYPE_FLOAT64) {
    const double a = Load<double>(dst), b = Load<double>(src);
    if (std::isnan(a) || std::isnan(b)) {
      uint64_t bits;
      const double n = std::isnan(a) ? a : b;
      std::memcpy(&bits, &n, 8);
      Store(dst, bits | 0x0008000000000000ull);
      return;
    }
    Store(dst, FloatStep(r, a, b));
    return;
  }
  const bool half = type == DML_TENSOR_DATA_TYPE_FLOAT16;
  const uint16_t ha = Load<uint16_t>(dst), hb = Load<uint16_t>(src);
  const float a = half ? HalfToFloat(ha) : Bf16ToFloat(ha);
  const float b = half ? HalfToFloat(hb) : Bf16ToFloat(hb);
  if (std::isnan(a) || std::isnan(b)) {
    const uint16_t q = half ? 0x0200 : 0x0040;
    Store<uint16_t>(dst, static_cast<uint16_t>((std::isnan(a) ? ha : hb) | q));
    return;
  }
  // double -> float -> 16 bits: each of these roundings is innocuous for 11- and 8-bit results.
  const auto v = static_cast<float>(FloatStep(r, a, b));
  Store<uint16_t>(dst, half ? FloatToHalf(v) : FloatToBf16(v));
}

namespace {

// Output = Input; then for every update coordinate u (row-major): the destination coordinate
// from `dest` (false: dropped), and the reduction.
template <typename DestFn>
ReferenceResult ScatterBody(const View& in, const View& upd, const View& out, const void* input,
                            const void* updates, void* output, const RefScatterOptions& options,
                            DestFn dest) {
  ReferenceResult result;
  result.ok = true;
  const auto* src = static_cast<const uint8_t*>(input);
  auto* dst = static_cast<uint8_t*>(output);
  std::vector<uint64_t> c(out.rank, 0);
  do {
    std::memmove(dst + out.ByteOffset(c), src + in.ByteOffset(c), out.element_bytes);
  } while (Next(out.sizes, &c));
  std::vector<uint64_t> u(upd.rank, 0), o(out.rank, 0);
  do {
    bool dropped = false;
    dest(u, &o, &dropped);
    if (dropped) {
      result.index_out_of_range = true;
      continue;
    }
    RefReduce(out.data_type, options.uint16_as_bfloat16, options.reduction,
              dst + out.ByteOffset(o),
              static_cast<const uint8_t*>(updates) + upd.ByteOffset(u));
    ++result.elements_written;
  } while (Next(upd.sizes, &u));
  return result;
}

}  // namespace

ReferenceResult ReferenceScatter(const DML_SCATTER_OPERATOR_DESC& desc, const void* input,
                                 const void* indices, const void* updates, void* output,
                                 const RefScatterOptions& options) {
  View in, idx, upd, out;
  std::string e = MakeView(desc.InputTensor, "InputTensor", &in);
  if (e.empty()) e = MakeView(desc.IndicesTensor, "IndicesTensor", &idx);
  if (e.empty()) e = MakeView(desc.UpdatesTensor, "UpdatesTensor", &upd);
  if (e.empty()) e = MakeView(desc.OutputTensor, "OutputTensor", &out);
  if (!e.empty()) return Fail(e);
  const uint32_t n = in.rank;
  if (idx.rank != n || upd.rank != n || out.rank != n || desc.Axis >= n) return Fail("ranks");
  if (!IsIndexDataType(idx.data_type)) return Fail("index type");
  if (upd.sizes != idx.sizes || out.sizes != in.sizes) return Fail("sizes");
  for (uint32_t d = 0; d < n; ++d) {
    if (d != desc.Axis && idx.sizes[d] != in.sizes[d]) return Fail("indices sizes");
  }
  const uint32_t axis = desc.Axis;
  return ScatterBody(in, upd, out, input, updates, output, options,
                     [&](const std::vector<uint64_t>& u, std::vector<uint64_t>* o, bool* dropped) {
                       *o = u;
                       const uint8_t* raw = static_cast<const uint8_t*>(indices) + idx.ByteOffset(u);
                       (*o)[axis] = NormalizeIndex(idx.data_type, raw, out.sizes[axis], dropped);
                     });
}

ReferenceResult ReferenceScatterNd(const DML_SCATTER_ND_OPERATOR_DESC& desc, const void* input,
                                   const void* indices, const void* updates, void* output,
                                   const RefScatterOptions& options) {
  View in, idx, upd, out;
  std::string e = MakeView(desc.InputTensor, "InputTensor", &in);
  if (e.empty()) e = MakeView(desc.IndicesTensor, "IndicesTensor", &idx);
  if (e.empty()) e = MakeView(desc.UpdatesTensor, "UpdatesTensor", &upd);
  if (e.empty()) e = MakeView(desc.OutputTensor, "OutputTensor", &out);
  if (!e.empty()) return Fail(e);
  const uint32_t n = in.rank;
  const uint32_t r = desc.InputDimensionCount, q = desc.IndicesDimensionCount;
  if (idx.rank != n || upd.rank != n || out.rank != n || r < 1 || r > n || q < 1 || q > n) {
    return Fail("ranks");
  }
  if (!IsIndexDataType(idx.data_type) || out.sizes != in.sizes) return Fail("types or sizes");
  const uint32_t t = idx.sizes[n - 1];
  if (t > r || (q - 1) + (r - t) > n) return Fail("tuple size");
  const uint32_t m = (q - 1) + (r - t);
  // Upd == [1]*(N-m) ++ Idx[N-q .. N-1) ++ In[N-r+t .. N); leading dims of In and Idx are 1.
  std::vector<uint32_t> expected(n - m, 1);
  for (uint32_t i = n - q; i + 1 < n; ++i) expected.push_back(idx.sizes[i]);
  for (uint32_t i = n - r + t; i < n; ++i) expected.push_back(in.sizes[i]);
  if (expected != upd.sizes) return Fail("updates sizes");
  for (uint32_t i = 0; i + r < n; ++i) if (in.sizes[i] != 1) return Fail("input padding");
  for (uint32_t i = 0; i + q < n; ++i) if (idx.sizes[i] != 1) return Fail("indices padding");
  return ScatterBody(
      in, upd, out, input, updates, output, options,
      [&](const std::vector<uint64_t>& u, std::vector<uint64_t>* o, bool* dropped) {
        const uint64_t* uu = u.data() + (n - m);
        std::vector<uint64_t> ic(n, 0);
        for (uint32_t i = 0; i + 1 < q; ++i) ic[n - q + i] = uu[i];
        for (uint32_t d = 0; d < n; ++d) (*o)[d] = 0;
        for (uint32_t j = 0; j < t; ++j) {
          ic[n - 1] = j;
          bool bad = false;
          (*o)[n - r + j] = NormalizeIndex(idx.data_type,
                                           static_cast<const uint8_t*>(indices) + idx.ByteOffset(ic),
                                           out.sizes[n - r + j], &bad);
          *dropped = *dropped || bad;
        }
        for (uint32_t i = 0; i < r - t; ++i) (*o)[n - r + t + i] = uu[q - 1 + i];
      });
}

}  // namespace dmlcpu_test
