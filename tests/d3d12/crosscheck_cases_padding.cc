// SPDX-License-Identifier: Apache-2.0
// Cross-check cases of PADDING / PADDING1, the depth/space operators and SLICE_GRAD: shapes,
// attributes and descriptors (the common machinery: crosscheck_cases.cc).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "d3d12/crosscheck_cases.h"

namespace dmlcpu_crosscheck {
namespace {

std::string List(const std::vector<uint32_t>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

// PADDING's FLOAT: exact small values, the documented 10.6, values that leave every integer
// range, NaNs with payloads, infinities, -0.0 and random bits (DirectML's conversion of each is
// what dmlcpu reproduces, docs/semantics.md#padding).
float RandomPaddingValue(Rng& rng) {
  static const uint32_t kBits[] = {0x00000000u, 0x80000000u, 0x41299999u, 0xC1299999u,
                                   0x43965999u, 0xC3965999u, 0x501502F9u, 0xD01502F9u,
                                   0x7FC00123u, 0x7F800001u, 0xFF800000u, 0x7F800000u,
                                   0x5F0AC723u, 0x4F800000u, 0x4F000000u, 0x3F000000u};
  const uint32_t bits =
      rng.Chance(70) ? kBits[rng.Range(0, 15)] : static_cast<uint32_t>(rng.Next());
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

}  // namespace

bool ChoosePaddingShapes(Rng& rng, Case* c) {
  c->inputs.resize(1);
  c->outputs.resize(1);
  TensorSpec& in = c->inputs[0];
  TensorSpec& out = c->outputs[0];
  switch (c->type) {
    case DML_OPERATOR_PADDING:
    case DML_OPERATOR_PADDING1: {
      const uint32_t n = rng.Range(1, 8);
      in.sizes = RandomSizes(rng, n, n <= 3 ? 6 : (n <= 5 ? 4 : 3));
      c->padding_mode = rng.Range(0, 4);
      c->start_padding.assign(n, 0);
      c->end_padding.assign(n, 0);
      out.sizes.resize(n);
      for (uint32_t d = 0; d < n; ++d) {
        // Mostly small pads; sometimes past the input (periodic modes).
        const uint32_t big = c->padding_mode == 0 ? 3 : 2 * in.sizes[d] + 3;
        if (rng.Chance(60)) c->start_padding[d] = rng.Range(1, rng.Chance(20) ? big : 2);
        if (rng.Chance(60)) c->end_padding[d] = rng.Range(1, rng.Chance(20) ? big : 2);
        out.sizes[d] = in.sizes[d] + c->start_padding[d] + c->end_padding[d];
      }
      c->padding_value = RandomPaddingValue(rng);
      c->padding_bits = rng.Next();
      if (rng.Chance(20)) c->padding_bits = 0x7FF0000000000123ull;  // a NaN payload
      return true;
    }
    case DML_OPERATOR_DEPTH_TO_SPACE:
    case DML_OPERATOR_SPACE_TO_DEPTH:
    case DML_OPERATOR_DEPTH_TO_SPACE1:
    case DML_OPERATOR_SPACE_TO_DEPTH1: {
      const uint32_t b = rng.Range(1, 3), channels = rng.Range(1, 3);
      const uint32_t h = rng.Range(1, 4), w = rng.Range(1, 4), batch = rng.Range(1, 2);
      const std::vector<uint32_t> depth = {batch, channels * b * b, h, w};
      const std::vector<uint32_t> space = {batch, channels, h * b, w * b};
      const bool to_space =
          c->type == DML_OPERATOR_DEPTH_TO_SPACE || c->type == DML_OPERATOR_DEPTH_TO_SPACE1;
      in.sizes = to_space ? depth : space;
      out.sizes = to_space ? space : depth;
      c->block_size = b;
      c->order = c->type == DML_OPERATOR_DEPTH_TO_SPACE1 || c->type == DML_OPERATOR_SPACE_TO_DEPTH1
                     ? rng.Range(0, 1)
                     : 0;
      return true;
    }
    case DML_OPERATOR_SLICE_GRAD: {
      // The forward SLICE1's input is the output gradient here.
      const uint32_t n = rng.Range(1, 8);
      out.sizes = RandomSizes(rng, n, n <= 3 ? 6 : (n <= 5 ? 4 : 3));
      in.sizes.resize(n);
      c->window_offsets.resize(n);
      c->window_sizes.resize(n);
      c->window_strides.resize(n);
      for (uint32_t d = 0; d < n; ++d) {
        const uint32_t offset = rng.Range(0, out.sizes[d] - 1);
        const uint32_t size = rng.Range(1, out.sizes[d] - offset);
        int32_t stride = static_cast<int32_t>(rng.Range(1, 3));
        if (rng.Chance(35)) stride = -stride;
        const uint32_t count = 1 + (size - 1) / static_cast<uint32_t>(std::abs(stride));
        c->window_offsets[d] = offset;
        c->window_sizes[d] = size;
        c->window_strides[d] = stride;
        in.sizes[d] = rng.Chance(80) ? count : rng.Range(1, count);
        if (offset == 0 && size == out.sizes[d] && stride == 1 && in.sizes[d] < count) {
          c->known_directml_bug =
              "SLICE_GRAD whose whole-dimension window at stride +1 receives fewer gradient "
              "elements (docs/semantics.md#observed-directml-behaviour)";
        }
      }
      return true;
    }
    default:
      return false;
  }
}

void BuildPaddingDesc(Case* c) {
  const DML_TENSOR_DESC* in = c->input_desc(0);
  const DML_TENSOR_DESC* out = c->output_desc(0);
  const uint32_t n = static_cast<uint32_t>(c->inputs[0].sizes.size());
  const auto order = static_cast<DML_DEPTH_SPACE_ORDER>(c->order);
  switch (c->type) {
    case DML_OPERATOR_PADDING:
      c->padding = {in,
                    out,
                    static_cast<DML_PADDING_MODE>(c->padding_mode),
                    c->padding_value,
                    n,
                    c->start_padding.data(),
                    c->end_padding.data()};
      c->desc = {c->type, &c->padding};
      break;
    case DML_OPERATOR_PADDING1:
      c->padding1 = {};
      c->padding1.InputTensor = in;
      c->padding1.OutputTensor = out;
      c->padding1.PaddingMode = static_cast<DML_PADDING_MODE>(c->padding_mode);
      c->padding1.PaddingValueDataType = c->inputs[0].data_type;
      std::memcpy(c->padding1.PaddingValue.Bytes, &c->padding_bits, 8);
      c->padding1.DimensionCount = n;
      c->padding1.StartPadding = c->start_padding.data();
      c->padding1.EndPadding = c->end_padding.data();
      c->desc = {c->type, &c->padding1};
      break;
    case DML_OPERATOR_DEPTH_TO_SPACE:
      c->depth_to_space = {in, out, c->block_size};
      c->desc = {c->type, &c->depth_to_space};
      break;
    case DML_OPERATOR_SPACE_TO_DEPTH:
      c->space_to_depth = {in, out, c->block_size};
      c->desc = {c->type, &c->space_to_depth};
      break;
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      c->depth_to_space1 = {in, out, c->block_size, order};
      c->desc = {c->type, &c->depth_to_space1};
      break;
    case DML_OPERATOR_SPACE_TO_DEPTH1:
      c->space_to_depth1 = {in, out, c->block_size, order};
      c->desc = {c->type, &c->space_to_depth1};
      break;
    case DML_OPERATOR_SLICE_GRAD:
      c->slice_grad = {in,
                       out,
                       n,
                       c->window_offsets.data(),
                       c->window_sizes.data(),
                       c->window_strides.data()};
      c->desc = {c->type, &c->slice_grad};
      break;
    default:
      break;
  }
}

std::string DescribePadding(const Case& c) {
  static const char* const kModes[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
  switch (c.type) {
    case DML_OPERATOR_PADDING:
    case DML_OPERATOR_PADDING1: {
      char value[64];
      if (c.type == DML_OPERATOR_PADDING) {
        uint32_t bits;
        std::memcpy(&bits, &c.padding_value, 4);
        std::snprintf(value, sizeof(value), "%.9g (0x%08x)", c.padding_value, bits);
      } else {
        std::snprintf(value, sizeof(value), "bits 0x%016llx",
                      static_cast<unsigned long long>(c.padding_bits));
      }
      return std::string(c.type == DML_OPERATOR_PADDING ? "PADDING " : "PADDING1 ") +
             kModes[c.padding_mode % 5] + " start " + List(c.start_padding) + " end " +
             List(c.end_padding) + " value " + value;
    }
    case DML_OPERATOR_SLICE_GRAD: {
      std::string st = "{";
      for (size_t i = 0; i < c.window_strides.size(); ++i) {
        st += (i ? "," : "") + std::to_string(c.window_strides[i]);
      }
      return "SLICE_GRAD offsets " + List(c.window_offsets) + " sizes " + List(c.window_sizes) +
             " strides " + st + "}";
    }
    default: {
      const char* name = c.type == DML_OPERATOR_DEPTH_TO_SPACE    ? "DEPTH_TO_SPACE"
                         : c.type == DML_OPERATOR_SPACE_TO_DEPTH  ? "SPACE_TO_DEPTH"
                         : c.type == DML_OPERATOR_DEPTH_TO_SPACE1 ? "DEPTH_TO_SPACE1"
                                                                  : "SPACE_TO_DEPTH1";
      return std::string(name) + " block " + std::to_string(c.block_size) +
             (c.order == 0 ? " DCR" : " CRD");
    }
  }
}

}  // namespace dmlcpu_crosscheck
