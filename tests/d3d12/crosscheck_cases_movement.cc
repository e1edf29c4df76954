// SPDX-License-Identifier: Apache-2.0
// Cross-check cases of ELEMENT_WISE_IDENTITY, JOIN, SPLIT and TILE: random ranks 1-8, every
// width, layouts from ChooseLayout (permuted, padded, broadcast inputs; strided outputs).
#include <string>
#include <vector>

#include "d3d12/crosscheck_cases.h"

namespace dmlcpu_crosscheck {

bool ChooseCopyOpsShapes(Rng& rng, Case* c) {
  const uint32_t n = rng.Range(1, 8);
  const uint32_t max_dim = n <= 3 ? 7 : (n <= 5 ? 4 : 3);
  const std::vector<uint32_t> sizes = RandomSizes(rng, n, max_dim);
  switch (c->type) {
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      c->inputs.resize(1);
      c->outputs.resize(1);
      c->inputs[0].sizes = sizes;
      c->outputs[0].sizes = sizes;
      return true;
    case DML_OPERATOR_JOIN:
    case DML_OPERATOR_SPLIT: {
      c->axis = rng.Range(0, n - 1);
      std::vector<TensorSpec> parts;
      uint32_t left = sizes[c->axis];
      const uint32_t max_parts = rng.Range(1, 4);
      while (left > 0) {
        const uint32_t part =
            static_cast<uint32_t>(parts.size()) + 1 == max_parts ? left : rng.Range(1, left);
        TensorSpec t;
        t.sizes = sizes;
        t.sizes[c->axis] = part;
        parts.push_back(t);
        left -= part;
      }
      TensorSpec whole;
      whole.sizes = sizes;
      if (c->type == DML_OPERATOR_JOIN) {
        c->inputs = parts;
        c->outputs = {whole};
      } else {
        c->inputs = {whole};
        c->outputs = parts;
      }
      return true;
    }
    case DML_OPERATOR_TILE: {
      c->inputs.resize(1);
      c->outputs.resize(1);
      c->inputs[0].sizes = RandomSizes(rng, n, n <= 3 ? 4 : 2);
      c->repeats.assign(n, 1);
      uint64_t count = Product(c->inputs[0].sizes);
      for (uint32_t d = 0; d < n; ++d) {
        const uint32_t r = rng.Range(1, n <= 3 ? 5 : 2);
        if (count * r <= kMaxElems / 2) {
          c->repeats[d] = r;
          count *= r;
        }
      }
      c->outputs[0].sizes = c->inputs[0].sizes;
      for (uint32_t d = 0; d < n; ++d) c->outputs[0].sizes[d] *= c->repeats[d];
      // DirectML's TILE tables list no FLOAT64 (docs/semantics.md#tile): every other type.
      static const DML_TENSOR_DATA_TYPE kTileTypes[] = {
          DML_TENSOR_DATA_TYPE_INT8,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT16,
          DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32,
          DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT64};
      c->inputs[0].data_type = c->outputs[0].data_type = kTileTypes[rng.Range(0, 8)];
      return true;
    }
    default:
      return false;
  }
}

void BuildCopyOpsDesc(Case* c) {
  switch (c->type) {
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      c->identity = {c->input_desc(0), c->output_desc(0), nullptr};
      c->desc = {c->type, &c->identity};
      break;
    case DML_OPERATOR_JOIN:  // the inputs' descs are contiguous: tensor_descs[0 .. count)
      c->join = {static_cast<uint32_t>(c->inputs.size()), c->input_desc(0), c->output_desc(0),
                 c->axis};
      c->desc = {c->type, &c->join};
      break;
    case DML_OPERATOR_SPLIT:  // the outputs' descs follow the input's
      c->split = {c->input_desc(0), static_cast<uint32_t>(c->outputs.size()), c->output_desc(0),
                  c->axis};
      c->desc = {c->type, &c->split};
      break;
    case DML_OPERATOR_TILE:
      c->tile = {c->input_desc(0), c->output_desc(0), static_cast<uint32_t>(c->repeats.size()),
                 c->repeats.data()};
      c->desc = {c->type, &c->tile};
      break;
    default:
      break;
  }
}

std::string DescribeCopyOps(const Case& c) {
  switch (c.type) {
    case DML_OPERATOR_JOIN:
      return "JOIN axis " + std::to_string(c.axis);
    case DML_OPERATOR_SPLIT:
      return "SPLIT axis " + std::to_string(c.axis);
    case DML_OPERATOR_TILE: {
      std::string s = "TILE repeats {";
      for (size_t d = 0; d < c.repeats.size(); ++d) {
        s += (d ? "," : "") + std::to_string(c.repeats[d]);
      }
      return s + "}";
    }
    default:
      return "ELEMENT_WISE_IDENTITY";
  }
}

}  // namespace dmlcpu_crosscheck
