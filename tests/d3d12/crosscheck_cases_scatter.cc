// SPDX-License-Identifier: Apache-2.0
// Cross-check cases of SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND: random ranks 1-8, every
// width, the four index types with negative values, layouts from ChooseLayout. In-range cases
// never send two updates to one element (DirectML promises nothing then), so they must be
// byte-identical; out-of-range cases only check that DirectML ran
// (docs/semantics.md#scatter-and-scatter_nd).
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "d3d12/crosscheck_cases.h"

namespace dmlcpu_crosscheck {
namespace {

bool IsSignedIndex(DML_TENSOR_DATA_TYPE t) {
  return t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_INT64;
}

// The index value stored at `p` (4 or 8 bytes), sign- or zero-extended by the index type.
int64_t LoadIndex(const uint8_t* p, DML_TENSOR_DATA_TYPE t) {
  if (ElementBytes(t) == 8) {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  uint32_t v;
  std::memcpy(&v, p, 4);
  return IsSignedIndex(t) ? static_cast<int64_t>(static_cast<int32_t>(v)) : int64_t{v};
}

// `v` wrapped once into [0, d), or -1 when it names no element (unsigned types: no wrap).
int64_t Normalize(int64_t v, int64_t d, DML_TENSOR_DATA_TYPE t) {
  if (ElementBytes(t) == 8 && !IsSignedIndex(t) && v < 0) return -1;  // >= 2^63
  if (v < 0 && IsSignedIndex(t)) v += d;
  return v >= 0 && v < d ? v : -1;
}

// A value outside [-d, d-1] (signed) or [0, d-1] (unsigned).
int64_t BadIndex(Rng& rng, int64_t d, DML_TENSOR_DATA_TYPE t) {
  switch (rng.Range(0, 3)) {
    case 0: return d + rng.Range(0, 4);
    case 1: return IsSignedIndex(t) ? -d - 1 - static_cast<int64_t>(rng.Range(0, 3)) : d + 7;
    case 2: return ElementBytes(t) == 4 ? 0x7FFFFFFF : (int64_t{1} << 40);
    default: return -1 - d;  // unsigned: a huge value
  }
}

// The first `count` entries of a random permutation of [0, n).
std::vector<uint64_t> DistinctDraws(Rng& rng, uint64_t n, uint64_t count) {
  std::vector<uint64_t> all(n);
  for (uint64_t i = 0; i < n; ++i) all[i] = i;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t j = i + rng.Next() % (n - i);
    std::swap(all[i], all[j]);
  }
  all.resize(count);
  return all;
}

}  // namespace

bool ChooseScatterShapes(Rng& rng, Case* c) {
  c->has_indices = true;
  c->inputs.resize(3);  // InputTensor, IndicesTensor, UpdatesTensor
  c->outputs.resize(1);
  const uint32_t n = rng.Range(1, 8);
  const uint32_t max_dim = n <= 3 ? 6 : (n <= 5 ? 4 : 3);
  std::vector<uint32_t>& in = c->inputs[0].sizes;
  std::vector<uint32_t>& idx = c->inputs[1].sizes;
  std::vector<uint32_t>& upd = c->inputs[2].sizes;
  in = RandomSizes(rng, n, max_dim);
  c->outputs[0].sizes = in;
  if (c->type == DML_OPERATOR_SCATTER) {
    c->axis = rng.Range(0, n - 1);
    idx = in;
    idx[c->axis] = rng.Range(1, in[c->axis]);  // at most D updates per line: no duplicates
    upd = idx;
    return true;
  }
  const uint32_t r = rng.Range(1, n), q = rng.Range(1, n), t = rng.Range(1, r);
  const uint32_t m = (q - 1) + (r - t);
  if (m > n) return false;
  c->input_dims = r;
  c->indices_dims = q;
  for (uint32_t d = 0; d < n - r; ++d) in[d] = 1;
  c->outputs[0].sizes = in;
  uint64_t positions = 1;  // distinct tuples there are
  for (uint32_t j = 0; j < t; ++j) positions *= in[n - r + j];
  idx.assign(n, 1);
  idx[n - 1] = t;
  for (uint32_t d = n - q; d + 1 < n; ++d) idx[d] = rng.Range(1, 3);
  while (Product(idx) / t > positions) {  // more tuples than positions: shrink the grid
    uint32_t& s = idx[rng.Range(n - q, n - 2)];
    if (s > 1) --s;
  }
  upd.assign(n - m, 1);
  for (uint32_t d = n - q; d + 1 < n; ++d) upd.push_back(idx[d]);
  for (uint32_t d = n - r + t; d < n; ++d) upd.push_back(in[d]);
  return Product(idx) <= kMaxElems && Product(upd) <= kMaxElems;
}

bool FillScatterIndices(Rng& rng, Case* c) {
  const TensorSpec& t = c->inputs[1];
  // DirectML 1.15.2 refuses SCATTER_ND (CreateOperator, E_INVALIDARG) when the indices are
  // broadcast along a dimension of size > 1 (docs/semantics.md#observed-directml-behaviour).
  for (size_t d = 0; c->type == DML_OPERATOR_SCATTER_ND && d < t.strides.size(); ++d) {
    if (t.strides[d] == 0 && t.sizes[d] > 1) return false;
  }
  std::vector<uint8_t>& bytes = c->input_bytes[1];
  bytes.resize(t.total_bytes);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng.Next());
  const std::vector<uint64_t> offsets = ElementOffsets(t);
  const std::vector<uint32_t>& in = c->inputs[0].sizes;
  const uint32_t n = static_cast<uint32_t>(in.size());
  const bool is_signed = IsSignedIndex(t.data_type);
  const bool out_of_range = rng.Chance(15);
  std::vector<int64_t> values(offsets.size());
  std::vector<int64_t> dims(offsets.size());  // the dimension each index addresses
  if (c->type == DML_OPERATOR_SCATTER) {
    // Per line along the axis: a prefix of a random permutation of [0, D).
    const uint32_t d = in[c->axis], k = t.sizes[c->axis];
    uint64_t inner = 1;
    for (uint32_t a = c->axis + 1; a < n; ++a) inner *= t.sizes[a];
    const uint64_t outer = offsets.size() / (k * inner);
    for (uint64_t o = 0; o < outer; ++o) {
      for (uint64_t i = 0; i < inner; ++i) {
        const std::vector<uint64_t> perm = DistinctDraws(rng, d, k);
        for (uint32_t a = 0; a < k; ++a) {
          values[(o * k + a) * inner + i] = static_cast<int64_t>(perm[a]);
          dims[(o * k + a) * inner + i] = d;
        }
      }
    }
  } else {
    const uint32_t r = c->input_dims, tuple = t.sizes[n - 1];
    uint64_t positions = 1;
    for (uint32_t j = 0; j < tuple; ++j) positions *= in[n - r + j];
    const std::vector<uint64_t> picks = DistinctDraws(rng, positions, offsets.size() / tuple);
    for (uint64_t p = 0; p < picks.size(); ++p) {
      uint64_t flat = picks[p];
      for (uint32_t j = tuple; j-- > 0;) {
        const uint32_t d = in[n - r + j];
        values[p * tuple + j] = static_cast<int64_t>(flat % d);
        dims[p * tuple + j] = d;
        flat /= d;
      }
    }
  }
  for (uint64_t i = 0; i < values.size(); ++i) {
    if (is_signed && rng.Chance(30)) values[i] -= dims[i];
    if (out_of_range && rng.Chance(15)) values[i] = BadIndex(rng, dims[i], t.data_type);
    std::memcpy(bytes.data() + offsets[i], &values[i], ElementBytes(t.data_type));
  }
  if (out_of_range) return true;  // duplicates allowed: only "DirectML ran" is compared
  // Read the indices back (a 0-stride layout shares elements) and reject duplicate destinations.
  std::unordered_set<uint64_t> destinations;
  if (c->type == DML_OPERATOR_SCATTER) {
    const uint32_t d = in[c->axis], k = t.sizes[c->axis];
    uint64_t inner = 1;
    for (uint32_t a = c->axis + 1; a < n; ++a) inner *= t.sizes[a];
    for (uint64_t i = 0; i < offsets.size(); ++i) {
      const int64_t v = Normalize(LoadIndex(bytes.data() + offsets[i], t.data_type), d,
                                  t.data_type);
      if (v < 0) return false;
      const uint64_t line = i / (k * inner) * inner + i % inner;
      if (!destinations.insert(line * d + static_cast<uint64_t>(v)).second) return false;
    }
    return true;
  }
  const uint32_t r = c->input_dims, tuple = t.sizes[n - 1];
  for (uint64_t p = 0; p < offsets.size() / tuple; ++p) {
    uint64_t flat = 0;
    for (uint32_t j = 0; j < tuple; ++j) {
      const uint32_t d = in[n - r + j];
      const int64_t v = Normalize(LoadIndex(bytes.data() + offsets[p * tuple + j], t.data_type),
                                  d, t.data_type);
      if (v < 0) return false;
      flat = flat * d + static_cast<uint64_t>(v);
    }
    if (!destinations.insert(flat).second) return false;
  }
  return true;
}

void BuildScatterDesc(Case* c) {
  if (c->type == DML_OPERATOR_SCATTER) {
    c->scatter = {c->input_desc(0), c->input_desc(1), c->input_desc(2), c->output_desc(0),
                  c->axis};
    c->desc = {c->type, &c->scatter};
  } else {
    c->scatter_nd = {c->input_desc(0), c->input_desc(1), c->input_desc(2), c->output_desc(0),
                     c->input_dims, c->indices_dims};
    c->desc = {c->type, &c->scatter_nd};
  }
}

std::string DescribeScatter(const Case& c) {
  if (c.type == DML_OPERATOR_SCATTER) return "SCATTER axis " + std::to_string(c.axis);
  return "SCATTER_ND r " + std::to_string(c.input_dims) + " q " + std::to_string(c.indices_dims);
}

}  // namespace dmlcpu_crosscheck
