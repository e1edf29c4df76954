// SPDX-License-Identifier: Apache-2.0
// ONNX shape rules of the copy-shaped operators (onnx_movement_shapes.h).
#include "onnx/onnx_movement_shapes.h"

#include <algorithm>
#include <cinttypes>
#include <string>

#include "core/format.h"

namespace dmlcpu {
namespace onnx {
namespace internal {
namespace {

constexpr int64_t kMaxDim = 0xFFFFFFFFll;  // DirectML sizes are UINT

std::string Str(const Shape& s) { return FormatList(s.data(), static_cast<uint32_t>(s.size())); }

// Normalises `axis` into [0, rank) (or [0, rank] with inclusive_end).
Status Axis(const char* op, const char* name, int64_t axis, int64_t rank, bool inclusive_end,
            uint32_t* normalized) {
  const int64_t hi = inclusive_end ? rank : rank - 1;
  if (axis < -rank || axis > hi) {
    return InvalidArgument("%s: %s is %" PRId64 ", expected in [%" PRId64 ", %" PRId64 "]", op,
                           name, axis, -rank, hi);
  }
  *normalized = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
  return Status::Ok();
}

// Product of dims in [begin, end), saturating at INT64_MAX.
int64_t Product(const Shape& s, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t d = begin; d < end; ++d) {
    if (s[d] == 0) return 0;
  }
  for (size_t d = begin; d < end; ++d) p = s[d] > INT64_MAX / p ? INT64_MAX : p * s[d];
  return p;
}

Status CheckDims(const char* op, const char* name, const Shape& s) {
  for (size_t d = 0; d < s.size(); ++d) {
    if (s[d] < 0 || s[d] > kMaxDim) {
      return InvalidArgument("%s: %s[%zu] is %" PRId64 ", expected in [0, %" PRId64 "]", op, name,
                             d, s[d], kMaxDim);
    }
  }
  return Status::Ok();
}

}  // namespace

Status TransposeShape(const Shape& in, const std::vector<int64_t>& perm,
                      std::vector<uint32_t>* normalized, Shape* out) {
  const char* op = "Transpose";
  const size_t r = in.size();
  normalized->assign(r, 0);
  if (perm.empty()) {
    for (size_t d = 0; d < r; ++d) (*normalized)[d] = static_cast<uint32_t>(r - 1 - d);
  } else {
    if (perm.size() != r) {
      return InvalidArgument("%s: perm has %zu values, expected %zu (data rank)", op, perm.size(),
                             r);
    }
    std::vector<bool> seen(r, false);
    for (size_t d = 0; d < r; ++d) {
      if (perm[d] < 0 || perm[d] >= static_cast<int64_t>(r)) {
        return InvalidArgument("%s: perm[%zu] is %" PRId64 ", expected in [0, %zu]", op, d,
                               perm[d], r - 1);
      }
      if (seen[perm[d]]) {
        return InvalidArgument("%s: perm[%zu] is %" PRId64 ", expected a permutation (repeated "
                               "value)", op, d, perm[d]);
      }
      seen[perm[d]] = true;
      (*normalized)[d] = static_cast<uint32_t>(perm[d]);
    }
  }
  out->resize(r);
  for (size_t d = 0; d < r; ++d) (*out)[d] = in[(*normalized)[d]];
  return Status::Ok();
}

Status ExpandShape(const Shape& in, const std::vector<int64_t>& shape, Shape* out) {
  const char* op = "Expand";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) {
      return InvalidArgument("%s: shape[%zu] is %" PRId64 ", expected >= 0", op, d, shape[d]);
    }
  }
  const size_t r = std::max(in.size(), shape.size());
  out->assign(r, 1);
  for (size_t i = 0; i < r; ++i) {  // i counts from the innermost dimension
    const int64_t a = i < in.size() ? in[in.size() - 1 - i] : 1;
    const int64_t b = i < shape.size() ? shape[shape.size() - 1 - i] : 1;
    if (a != b && a != 1 && b != 1) {
      return InvalidArgument("%s: input shape %s and shape %s do not broadcast: dimension %zu "
                             "from the end is %" PRId64 " and %" PRId64 ", expected equal or "
                             "one of them 1", op, Str(in).c_str(), Str(shape).c_str(), i, a, b);
    }
    (*out)[r - 1 - i] = a == 1 ? b : a;
  }
  return CheckDims(op, "output shape", *out);
}

Status ReshapeShape(const Shape& in, const std::vector<int64_t>& shape, bool allowzero,
                    Shape* out) {
  const char* op = "Reshape";
  *out = shape;
  int64_t infer = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer >= 0) {
        return InvalidArgument("%s: shape[%zu] is -1, expected at most one -1 (shape[%" PRId64
                               "] is -1 too)", op, d, infer);
      }
      infer = static_cast<int64_t>(d);
    } else if (shape[d] < -1) {
      return InvalidArgument("%s: shape[%zu] is %" PRId64 ", expected >= -1", op, d, shape[d]);
    } else if (shape[d] == 0 && !allowzero) {
      if (d >= in.size()) {
        return InvalidArgument("%s: shape[%zu] is 0 (copy the input's dimension), expected a "
                               "dimension the input has (rank %zu)", op, d, in.size());
      }
      (*out)[d] = in[d];
    }
  }
  if (infer >= 0 && allowzero) {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 0) {
        return InvalidArgument("%s: shape has both 0 and -1 with allowzero = 1, expected one "
                               "of them", op);
      }
    }
  }
  const int64_t count = Product(in, 0, in.size());
  if (infer >= 0) {
    int64_t known = 1;
    for (size_t d = 0; d < out->size(); ++d) {
      if (static_cast<int64_t>(d) == infer) continue;
      const int64_t v = (*out)[d];
      known = v != 0 && known > INT64_MAX / v ? INT64_MAX : known * v;
    }
    if (known == 0 || count % known != 0) {
      return InvalidArgument("%s: shape %s cannot hold the %" PRId64 " elements of input shape "
                             "%s (the -1 has no integer value)", op, Str(shape).c_str(), count,
                             Str(in).c_str());
    }
    (*out)[infer] = count / known;
  }
  if (Product(*out, 0, out->size()) != count) {
    return InvalidArgument("%s: output shape %s has %" PRId64 " elements, expected %" PRId64
                           " (input shape %s)", op, Str(*out).c_str(),
                           Product(*out, 0, out->size()), count, Str(in).c_str());
  }
  return CheckDims(op, "output shape", *out);
}

Status FlattenShape(const Shape& in, int64_t axis, Shape* out) {
  uint32_t a = 0;
  Status s = Axis("Flatten", "axis", axis, static_cast<int64_t>(in.size()), true, &a);
  if (!s.ok()) return s;
  *out = {Product(in, 0, a), Product(in, a, in.size())};
  return CheckDims("Flatten", "output shape", *out);
}

Status SqueezeShape(const Shape& in, const std::vector<int64_t>& axes, Shape* out) {
  const char* op = "Squeeze";
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.empty()) {
    for (size_t d = 0; d < in.size(); ++d) drop[d] = in[d] == 1;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    uint32_t a = 0;
    const std::string name = StrFormat("axes[%zu]", i);
    Status s = Axis(op, name.c_str(), axes[i], r, false, &a);
    if (!s.ok()) return s;
    if (drop[a]) {
      return InvalidArgument("%s: axes[%zu] is %" PRId64 ", expected no repeated axis", op, i,
                             axes[i]);
    }
    if (in[a] != 1) {
      return InvalidArgument("%s: input shape[%u] is %" PRId64 " (axes[%zu]), expected 1", op, a,
                             in[a], i);
    }
    drop[a] = true;
  }
  out->clear();
  for (size_t d = 0; d < in.size(); ++d) {
    if (!drop[d]) out->push_back(in[d]);
  }
  return Status::Ok();
}

Status UnsqueezeShape(const Shape& in, const std::vector<int64_t>& axes, Shape* out) {
  const char* op = "Unsqueeze";
  const int64_t r = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> added(static_cast<size_t>(r), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    uint32_t a = 0;
    const std::string name = StrFormat("axes[%zu]", i);
    Status s = Axis(op, name.c_str(), axes[i], r, false, &a);
    if (!s.ok()) return s;
    if (added[a]) {
      return InvalidArgument("%s: axes[%zu] is %" PRId64 ", expected no repeated axis", op, i,
                             axes[i]);
    }
    added[a] = true;
  }
  out->clear();
  size_t next = 0;
  for (int64_t d = 0; d < r; ++d) out->push_back(added[d] ? 1 : in[next++]);
  return Status::Ok();
}

Status ConcatShape(const std::vector<Shape>& ins, int64_t axis, uint32_t* normalized_axis,
                   Shape* out) {
  const char* op = "Concat";
  if (ins.empty()) return InvalidArgument("%s: no inputs, expected at least 1", op);
  const size_t r = ins[0].size();
  if (r == 0) return InvalidArgument("%s: inputs[0] rank is 0, expected >= 1", op);
  Status s = Axis(op, "axis", axis, static_cast<int64_t>(r), false, normalized_axis);
  if (!s.ok()) return s;
  const uint32_t a = *normalized_axis;
  *out = ins[0];
  out->at(a) = 0;
  for (size_t k = 0; k < ins.size(); ++k) {
    if (ins[k].size() != r) {
      return InvalidArgument("%s: inputs[%zu] rank is %zu, expected %zu (inputs[0] rank)", op, k,
                             ins[k].size(), r);
    }
    for (size_t d = 0; d < r; ++d) {
      if (d != a && ins[k][d] != ins[0][d]) {
        return InvalidArgument("%s: inputs[%zu].shape[%zu] is %" PRId64 ", expected %" PRId64
                               " (inputs[0].shape[%zu]; only axis %u may differ)", op, k, d,
                               ins[k][d], ins[0][d], d, a);
      }
    }
    (*out)[a] += ins[k][a];
  }
  return CheckDims(op, "output shape", *out);
}

Status SplitSizes(const Shape& in, int64_t axis, const std::vector<int64_t>& split,
                  int64_t num_outputs, size_t output_count, uint32_t* normalized_axis,
                  std::vector<int64_t>* chunks) {
  const char* op = "Split";
  const int64_t r = static_cast<int64_t>(in.size());
  if (r == 0) return InvalidArgument("%s: input rank is 0, expected >= 1", op);
  Status s = Axis(op, "axis", axis, r, false, normalized_axis);
  if (!s.ok()) return s;
  const int64_t dim = in[*normalized_axis];
  if (!split.empty() && num_outputs != 0) {
    return InvalidArgument("%s: both split and num_outputs (%" PRId64 ") are given, expected one "
                           "of them", op, num_outputs);
  }
  if (!split.empty()) {
    if (output_count != 0 && split.size() != output_count) {
      return InvalidArgument("%s: split has %zu values, expected %zu (the number of outputs)", op,
                             split.size(), output_count);
    }
    int64_t sum = 0;
    for (size_t i = 0; i < split.size(); ++i) {
      if (split[i] < 0 || split[i] > kMaxDim) {
        return InvalidArgument("%s: split[%zu] is %" PRId64 ", expected in [0, %" PRId64 "]", op,
                               i, split[i], kMaxDim);
      }
      sum += split[i];
    }
    if (sum != dim) {
      return InvalidArgument("%s: split sums to %" PRId64 ", expected %" PRId64 " (input "
                             "shape[%u])", op, sum, dim, *normalized_axis);
    }
    *chunks = split;
    return Status::Ok();
  }
  if (num_outputs != 0) {
    if (num_outputs < 1 ||
        (output_count != 0 && static_cast<size_t>(num_outputs) != output_count)) {
      return InvalidArgument("%s: num_outputs is %" PRId64 ", expected >= 1 and equal to the "
                             "number of outputs (%zu)", op, num_outputs, output_count);
    }
    // Opset 18: chunks of ceil(dim / n); the last one takes what is left (smaller).
    const int64_t chunk = (dim + num_outputs - 1) / num_outputs;
    const int64_t last = dim - chunk * (num_outputs - 1);
    if (last < 0) {
      return InvalidArgument("%s: num_outputs is %" PRId64 ", expected at most %" PRId64 " for "
                             "input shape[%u] %" PRId64 " (chunks of %" PRId64 " leave nothing "
                             "for the last outputs)", op, num_outputs,
                             chunk == 0 ? 1 : (dim + chunk - 1) / chunk, *normalized_axis, dim,
                             chunk);
    }
    chunks->assign(static_cast<size_t>(num_outputs), chunk);
    chunks->back() = last;
    return Status::Ok();
  }
  if (output_count == 0) {
    return InvalidArgument("%s: no split, no num_outputs and no output count, expected one", op);
  }
  const int64_t n = static_cast<int64_t>(output_count);
  if (dim % n != 0) {
    return InvalidArgument("%s: input shape[%u] is %" PRId64 ", expected a multiple of %" PRId64
                           " (the number of outputs; split omitted)", op, *normalized_axis, dim,
                           n);
  }
  chunks->assign(output_count, dim / n);
  return Status::Ok();
}

Status TileShape(const Shape& in, const std::vector<int64_t>& repeats, Shape* out) {
  const char* op = "Tile";
  if (repeats.size() != in.size()) {
    return InvalidArgument("%s: repeats has %zu values, expected %zu (input rank)", op,
                           repeats.size(), in.size());
  }
  out->resize(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    if (repeats[d] < 0) {
      return InvalidArgument("%s: repeats[%zu] is %" PRId64 ", expected >= 0", op, d, repeats[d]);
    }
    if (in[d] != 0 && repeats[d] > kMaxDim / in[d]) {
      return InvalidArgument("%s: repeats[%zu] is %" PRId64 ", expected <= %" PRId64 " (output "
                             "dimensions are at most %" PRId64 ")", op, d, repeats[d],
                             kMaxDim / in[d], kMaxDim);
    }
    (*out)[d] = in[d] * repeats[d];
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace onnx
}  // namespace dmlcpu
