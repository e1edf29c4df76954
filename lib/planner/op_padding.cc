// SPDX-License-Identifier: Apache-2.0
// PADDING and PADDING1 (docs/semantics.md#padding): validation and the program. The interior is
// one copy from the input; CONSTANT fills the border slabs; EDGE, REFLECTION, SYMMETRIC and WRAP
// copy border slabs dimension by dimension from elements already in place (0-stride reads for
// EDGE, negative strides for the mirrors), never branching per element
// (docs/design.md#programs-of-future-operators).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/format.h"
#include "planner/ops.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {
namespace {

constexpr uint32_t kModeCount = 5;  // CONSTANT .. WRAP

// What both descriptor versions hold once read (enum fields read as integers: C callers may
// pass any 32-bit value).
struct PaddingArgs {
  const DML_TENSOR_DESC* input;
  const DML_TENSOR_DESC* output;
  uint32_t mode;
  uint32_t dimension_count;
  const uint32_t* start;
  const uint32_t* end;
};

int32_t TruncToInt32(float v) {  // out of range and NaN: INT32_MIN
  if (!(v > -2147483649.0f && v < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

int64_t TruncToInt64(float v) {  // out of range and NaN: INT64_MIN
  if (!(v >= -9223372036854775808.0f && v < 9223372036854775808.0f)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

uint16_t FloatToHalfBits(float v) {  // round to nearest even
  uint32_t f;
  std::memcpy(&f, &v, 4);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t exponent = (f >> 23) & 0xFFu;
  const uint32_t mantissa = f & 0x7FFFFFu;
  if (exponent == 0xFF) {  // infinity, or a quiet NaN keeping the top payload bits
    return static_cast<uint16_t>(sign | 0x7C00u | (mantissa != 0 ? 0x200u | (mantissa >> 13) : 0));
  }
  const int32_t e = static_cast<int32_t>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
  if (e <= 0) {  // subnormal half (or zero)
    if (e < -10) return static_cast<uint16_t>(sign);
    const uint32_t m = mantissa | 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into infinity
  return static_cast<uint16_t>(sign | half);
}

// PADDING's FLOAT as the tensor's element, bit for bit as DirectML converts it (the table of
// docs/semantics.md#padding).
uint64_t ConvertPaddingValue(DML_TENSOR_DATA_TYPE type, float v) {
  switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      return bits;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT64: {
      uint32_t f;
      std::memcpy(&f, &v, 4);
      uint64_t bits;
      if ((f & 0x7F800000u) == 0x7F800000u && (f & 0x7FFFFFu) != 0) {  // NaN: made quiet
        bits = (uint64_t{f & 0x80000000u} << 32) | 0x7FF8000000000000ull |
               (uint64_t{f & 0x7FFFFFu} << 29);
      } else {
        const double d = v;
        std::memcpy(&bits, &d, 8);
      }
      return bits;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16:
      return FloatToHalfBits(v);
    case DML_TENSOR_DATA_TYPE_INT32:
      return static_cast<uint32_t>(TruncToInt32(v));
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
      return static_cast<uint32_t>(TruncToInt32(v)) & 0xFFFFu;
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8:
      return static_cast<uint32_t>(TruncToInt32(v)) & 0xFFu;
    case DML_TENSOR_DATA_TYPE_UINT32:
      return static_cast<uint64_t>(TruncToInt64(v)) & 0xFFFFFFFFu;
    case DML_TENSOR_DATA_TYPE_INT64:
      return static_cast<uint64_t>(TruncToInt64(v));
    case DML_TENSOR_DATA_TYPE_UINT64:
      if (v >= 9223372036854775808.0f && v < 18446744073709551616.0f) {
        return static_cast<uint64_t>(v);
      }
      return static_cast<uint64_t>(TruncToInt64(v));
    default:
      return 0;
  }
}

// The source index along a dimension of n elements for border position s (< 0 or >= n).
int64_t SourceIndex(uint32_t mode, int64_t s, int64_t n) {
  const auto mod = [](int64_t a, int64_t p) { return ((a % p) + p) % p; };
  switch (mode) {
    case DML_PADDING_MODE_EDGE:
      return s < 0 ? 0 : n - 1;
    case DML_PADDING_MODE_REFLECTION: {
      if (n == 1) return 0;
      const int64_t p = 2 * (n - 1), t = mod(s, p);
      return t < n ? t : p - t;
    }
    case DML_PADDING_MODE_SYMMETRIC: {
      const int64_t p = 2 * n, t = mod(s, p);
      return t < n ? t : p - 1 - t;
    }
    default:  // WRAP
      return mod(s, n);
  }
}

// Border positions repeat with this period (0: every position reads the same element).
int64_t Period(uint32_t mode, int64_t n) {
  if (mode == DML_PADDING_MODE_EDGE) return 0;
  if (mode == DML_PADDING_MODE_REFLECTION) return n == 1 ? 0 : 2 * (n - 1);
  if (mode == DML_PADDING_MODE_SYMMETRIC) return 2 * n;
  return n;
}

class PaddingPlanner {
 public:
  PaddingPlanner(ProgramBuilder* b, const TensorInfo& in, const TensorInfo& out,
                 const uint32_t* start, const uint32_t* end)
      : b_(b), in_(in), out_(out), n_(in.rank) {
    for (uint32_t d = 0; d < n_; ++d) {
      start_[d] = start[d];
      end_[d] = end[d];
      in_stride_[d] = static_cast<int64_t>(in.strides_elems[d] * in.elem_bytes);
      out_stride_[d] = static_cast<int64_t>(out.strides_elems[d] * out.elem_bytes);
    }
  }

  // Fused rows: every step that writes rows of the innermost dimension's interior also writes
  // their borders along it, in the same pass (RowBorders), and no step of that dimension's own
  // follows. Only where the innermost dimension is padded and contiguous in the output (and,
  // for the modes that copy, each border at most RowBorders::kMaxCopiedItems wide).
  // Returns false (and leaves the program alone) where it does not apply.
  bool UseFusedRows(uint32_t mode, uint64_t fill_bits) {
    const uint32_t w = n_ - 1;
    const int64_t left = start_[w], right = end_[w];
    if (left + right == 0 || out_stride_[w] != static_cast<int64_t>(out_.elem_bytes)) {
      return false;
    }
    ProgramBuilder::BorderSpec& spec = borders_;
    spec = ProgramBuilder::BorderSpec();
    spec.left_items = static_cast<uint32_t>(left);
    spec.right_items = static_cast<uint32_t>(right);
    if (mode == DML_PADDING_MODE_CONSTANT) {
      spec.fill = true;
      spec.fill_bits = fill_bits;
    } else {
      if (left > RowBorders::kMaxCopiedItems || right > RowBorders::kMaxCopiedItems) return false;
      const int64_t n = in_.sizes[w];
      for (int64_t k = 0; k < left; ++k) spec.left_src_items[k] = SourceIndex(mode, k - left, n);
      for (int64_t k = 0; k < right; ++k) spec.right_src_items[k] = SourceIndex(mode, n + k, n);
    }
    fused_ = true;
    fused_dims_ = 1;
    return true;
  }
  // Fused lines (with fused rows): the same steps also write the border rows of the next
  // dimension out (RowBorders::top_rows / bottom_rows, each with its own borders), and that
  // dimension gets no steps of its own either. Only where it is padded (and, for the modes
  // that copy, each side at most RowBorders::kMaxCopiedRows rows). False where it does not apply.
  bool UseFusedLines(uint32_t mode) {
    if (!fused_ || n_ < 2) return false;
    const uint32_t h = n_ - 2;
    const int64_t top = start_[h], bottom = end_[h];
    if (top + bottom == 0) return false;
    if (mode != DML_PADDING_MODE_CONSTANT &&
        (top > RowBorders::kMaxCopiedRows || bottom > RowBorders::kMaxCopiedRows)) {
      return false;
    }
    ProgramBuilder::BorderSpec& spec = borders_;
    spec.top_rows = static_cast<uint32_t>(top);
    spec.bottom_rows = static_cast<uint32_t>(bottom);
    if (mode != DML_PADDING_MODE_CONSTANT) {
      const int64_t n = in_.sizes[h];
      for (int64_t k = 0; k < top; ++k) spec.top_src_rows[k] = SourceIndex(mode, k - top, n);
      for (int64_t k = 0; k < bottom; ++k) spec.bottom_src_rows[k] = SourceIndex(mode, n + k, n);
    }
    fused_dims_ = 2;
    return true;
  }
  bool fused() const { return fused_; }
  // After a step that could not carry the borders: plan them as steps of their own.
  bool fusion_failed() const { return fusion_failed_; }

  Status Interior() {
    int64_t lo[kMaxRank], hi[kMaxRank];
    for (uint32_t d = 0; d < n_; ++d) {
      lo[d] = start_[d];
      hi[d] = start_[d] + in_.sizes[d];
    }
    LoopNest nest = BoxOf(out_, lo, hi);
    for (uint32_t d = 0; d < n_; ++d) nest.in_strides_bytes[d] = in_stride_[d];
    return Copy(StepSource::kInput, nest);
  }

  // CONSTANT: for each dimension d, the two slabs where d is the first dimension outside the
  // interior (dimensions before d inside it, dimensions after d over the whole output).
  Status Fill(uint64_t fill_bits) {
    int64_t interior_end[kMaxRank];
    for (uint32_t d = 0; d < n_; ++d) interior_end[d] = start_[d] + in_.sizes[d];
    return b_->AddFillAround(0, out_, start_, interior_end, n_ - fused_dims_, fill_bits);
  }

  // The other modes, dimension by dimension, outermost first: dimension d's border over the
  // whole output in the dimensions already done and the interior in the others, read from the
  // interior along d (the input for the first padded dimension, the output after it).
  Status Mirror(uint32_t mode, const uint32_t* end) {
    bool first = true;
    for (uint32_t d = 0; d < n_ - fused_dims_; ++d) {
      if (start_[d] == 0 && end[d] == 0) continue;
      int64_t lo[kMaxRank], hi[kMaxRank];
      for (uint32_t j = 0; j < n_; ++j) {
        lo[j] = j < d ? 0 : start_[j];
        hi[j] = j < d ? out_.sizes[j] : start_[j] + in_.sizes[j];
      }
      Status s = Side(mode, d, first, lo, hi, -static_cast<int64_t>(start_[d]), 0);
      if (s.ok()) {
        s = Side(mode, d, first, lo, hi, in_.sizes[d], int64_t{in_.sizes[d]} + end[d]);
      }
      if (!s.ok()) return s;
      first = false;
    }
    return Status::Ok();
  }

 private:
  // Border positions [s_begin, s_end) of dimension d (interior coordinates: 0 is the first input
  // element). The period next to the interior is copied in affine pieces (runs whose source
  // index moves by a constant -1, 0 or +1); beyond it, blocks that double in size copy what is
  // already written, one period multiple away (O(log) steps for any pad).
  Status Side(uint32_t mode, uint32_t d, bool from_input, int64_t* lo, int64_t* hi,
              int64_t s_begin, int64_t s_end) {
    const int64_t len = s_end - s_begin;
    if (len == 0) return Status::Ok();
    const int64_t n = in_.sizes[d];
    const int64_t period = Period(mode, n);
    const bool before = s_begin < 0;  // the start side grows away from the interior downwards
    const int64_t direct = period == 0 ? len : (len < period ? len : period);
    // Direct positions: nearest the interior.
    const int64_t d_begin = before ? s_end - direct : s_begin;
    int64_t s = d_begin;
    while (s < d_begin + direct) {
      const int64_t src = SourceIndex(mode, s, n);
      int64_t run = 1, step = 0;
      if (s + 1 < d_begin + direct) {
        step = SourceIndex(mode, s + 1, n) - src;
        run = 2;
        while (s + run < d_begin + direct &&
               SourceIndex(mode, s + run, n) - SourceIndex(mode, s + run - 1, n) == step) {
          ++run;
        }
      }
      Status st = Piece(d, from_input, lo, hi, s, run, src, step);
      if (!st.ok()) return st;
      s += run;
    }
    // Doubling blocks, copied output -> output with the element `written` positions nearer.
    int64_t written = direct;
    while (written < len) {
      const int64_t count = len - written < written ? len - written : written;
      const int64_t target = before ? s_end - written - count : s_begin + written;
      const int64_t source = before ? s_end - count : s_begin;
      lo[d] = start_[d] + target;
      hi[d] = lo[d] + count;
      LoopNest nest = BoxOf(out_, lo, hi);
      for (uint32_t j = 0; j < n_; ++j) nest.in_strides_bytes[j] = out_stride_[j];
      nest.in_base_bytes = nest.out_base_bytes + (source - target) * out_stride_[d];
      Status st = Copy(StepSource::kOutput, nest);
      if (!st.ok()) return st;
      written += count;
    }
    return Status::Ok();
  }

  // Positions [s, s + run) of dimension d read source indices src, src + step, ...
  Status Piece(uint32_t d, bool from_input, int64_t* lo, int64_t* hi, int64_t s, int64_t run,
               int64_t src, int64_t step) {
    lo[d] = start_[d] + s;
    hi[d] = lo[d] + run;
    LoopNest nest = BoxOf(out_, lo, hi);
    if (from_input) {  // input coordinates: the output's minus start
      for (uint32_t j = 0; j < n_; ++j) {
        nest.in_strides_bytes[j] = in_stride_[j];
        if (j != d) nest.in_base_bytes += (lo[j] - start_[j]) * in_stride_[j];
      }
      nest.in_strides_bytes[d] = step * in_stride_[d];
      nest.in_base_bytes += src * in_stride_[d];
    } else {
      for (uint32_t j = 0; j < n_; ++j) {
        nest.in_strides_bytes[j] = out_stride_[j];
        if (j != d) nest.in_base_bytes += lo[j] * out_stride_[j];
      }
      nest.in_strides_bytes[d] = step * out_stride_[d];
      nest.in_base_bytes += (start_[d] + src) * out_stride_[d];
    }
    return Copy(from_input ? StepSource::kInput : StepSource::kOutput, nest);
  }

  // Every copy of rows along the innermost dimension's interior (all of them, with fused rows).
  Status Copy(StepSource source, const LoopNest& nest) {
    if (!fused_) return b_->AddCopy(source, 0, 0, nest);
    bool placed = true;
    Status s = b_->AddBorderedCopy(source, 0, 0, nest, borders_, &placed);
    if (s.ok() && !placed) fusion_failed_ = true;
    return s;
  }

  ProgramBuilder* b_;
  const TensorInfo& in_;
  const TensorInfo& out_;
  uint32_t n_;
  int64_t start_[kMaxRank] = {};
  int64_t end_[kMaxRank] = {};
  int64_t in_stride_[kMaxRank] = {};
  int64_t out_stride_[kMaxRank] = {};
  bool fused_ = false;
  uint32_t fused_dims_ = 0;  // innermost dimensions whose borders the copies write (0, 1 or 2)
  bool fusion_failed_ = false;
  ProgramBuilder::BorderSpec borders_;
};

// Validation and program shared by both versions; `fill_bits` is read only for CONSTANT.
Status BuildPadding(const PaddingArgs& a, bool typed_value, uint32_t value_type,
                    const DML_SCALAR_UNION& typed, float value, ProgramBuilder* b) {
  Program* program = b->program();
  const char* op = program->geometry.name;
  TensorInfo in, out;
  Status s = ReadTensor(op, "InputTensor", a.input, /*is_output=*/false, &in);
  if (!s.ok()) return s;
  s = ReadTensor(op, "OutputTensor", a.output, /*is_output=*/true, &out);
  if (!s.ok()) return s;
  s = CheckSameRank(op, "OutputTensor", out, in);
  if (!s.ok()) return s;
  s = CheckSameType(op, out, in);
  if (!s.ok()) return s;
  const uint32_t n = in.rank;
  if (a.mode >= kModeCount) {
    return InvalidArgument(
        "%s: PaddingMode is %u, expected CONSTANT (0), EDGE (1), REFLECTION (2), SYMMETRIC (3) "
        "or WRAP (4)",
        op, a.mode);
  }
  if (typed_value && value_type != static_cast<uint32_t>(in.data_type)) {
    return InvalidArgument(
        "%s: PaddingValueDataType is %u (%s), expected %u (%s, the InputTensor.DataType)", op,
        value_type, DataTypeName(static_cast<DML_TENSOR_DATA_TYPE>(value_type)),
        static_cast<unsigned>(in.data_type), DataTypeName(in.data_type));
  }
  if (a.dimension_count != n) {
    return InvalidArgument("%s: DimensionCount is %u, expected %u (InputTensor.DimensionCount)", op,
                           a.dimension_count, n);
  }
  s = RequireArrays(op, {{"StartPadding", a.start}, {"EndPadding", a.end}});
  if (!s.ok()) return s;
  ExpectedDim expected[kMaxRank];
  for (uint32_t d = 0; d < n; ++d) {
    const uint64_t size = uint64_t{in.sizes[d]} + a.start[d] + a.end[d];
    if (size > 0xFFFFFFFFu) {
      return InvalidArgument(
          "%s: InputTensor.Sizes[%u] + StartPadding[%u] + EndPadding[%u] is %llu (%u + %u + %u), "
          "expected <= 4294967295",
          op, d, d, d, static_cast<unsigned long long>(size), in.sizes[d], a.start[d], a.end[d]);
    }
    expected[d] = {static_cast<uint32_t>(size),
                   StrFormat("InputTensor.Sizes[%u] %u + StartPadding[%u] %u + EndPadding[%u] %u",
                             d, in.sizes[d], d, a.start[d], d, a.end[d])};
  }
  s = CheckOutputSizes(op, out, expected);
  if (!s.ok()) return s;

  b->AddInput("InputTensor", in);
  b->AddOutput("OutputTensor", out);
  program->geometry.input = in;
  program->geometry.output = out;
  uint64_t bits = 0;
  if (a.mode == DML_PADDING_MODE_CONSTANT) {
    if (typed_value) {
      // As DirectML reads the union (measured): 64-bit types whole; narrower ones from its low
      // 32 bits, saturated to the element's all-ones (the typed member itself whenever the
      // rest of that word is zero).
      std::memcpy(&bits, typed.Bytes, 8);
      if (in.elem_bytes < 8) {
        const uint64_t all_ones = (uint64_t{1} << (8 * in.elem_bytes)) - 1;
        bits = std::min<uint64_t>(bits & 0xFFFFFFFFu, all_ones);
      }
    } else {
      bits = ConvertPaddingValue(in.data_type, value);
    }
  }
  // Fused rows and lines where they apply to every step, else fused rows alone; otherwise the
  // borders as steps of their own. `fuse_dims`: 2 (rows and lines), 1 (rows) or 0.
  const auto plan_steps = [&](uint32_t fuse_dims, bool* fused) {
    program->steps.clear();
    PaddingPlanner planner(b, in, out, a.start, a.end);
    *fused = fuse_dims == 0 || (planner.UseFusedRows(a.mode, bits) &&
                                (fuse_dims == 1 || planner.UseFusedLines(a.mode)));
    if (!*fused) return Status::Ok();
    Status st = planner.Interior();
    if (st.ok()) {
      st = a.mode == DML_PADDING_MODE_CONSTANT ? planner.Fill(bits) : planner.Mirror(a.mode, a.end);
    }
    *fused = !planner.fusion_failed();
    return st;
  };
  bool fused = false;
  for (uint32_t fuse_dims = 2;; --fuse_dims) {
    s = plan_steps(fuse_dims, &fused);
    if (!s.ok() || fused || fuse_dims == 0) return s;
  }
}

}  // namespace

Status BuildPaddingProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_PADDING_OPERATOR_DESC*>(desc);
  uint32_t mode;
  std::memcpy(&mode, &d.PaddingMode, sizeof(mode));
  const PaddingArgs a = {d.InputTensor, d.OutputTensor, mode, d.DimensionCount, d.StartPadding,
                         d.EndPadding};
  return BuildPadding(a, false, 0, DML_SCALAR_UNION{}, d.PaddingValue, b);
}

Status BuildPadding1Program(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_PADDING1_OPERATOR_DESC*>(desc);
  uint32_t mode, value_type;
  std::memcpy(&mode, &d.PaddingMode, sizeof(mode));
  std::memcpy(&value_type, &d.PaddingValueDataType, sizeof(value_type));
  const PaddingArgs a = {d.InputTensor, d.OutputTensor, mode, d.DimensionCount, d.StartPadding,
                         d.EndPadding};
  return BuildPadding(a, true, value_type, d.PaddingValue, 0.0f, b);
}

}  // namespace internal
}  // namespace dmlcpu
