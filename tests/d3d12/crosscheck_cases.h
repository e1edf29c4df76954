// SPDX-License-Identifier: Apache-2.0
// Seeded random cases for the DirectML cross-check, identical on every platform: the Windows
// runner (real DirectML through the D3D12 backend, under wine) and the native Linux comparer
// (CPU backend) regenerate the same bytes from the same (seed, index).
#ifndef DMLCPU_TESTS_D3D12_CROSSCHECK_CASES_H_
#define DMLCPU_TESTS_D3D12_CROSSCHECK_CASES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"

namespace dmlcpu_crosscheck {

// First byte of every output element before execution. Generated input elements never start
// with it, so an element a backend failed to write is always visible.
constexpr uint8_t kSentinelByte = 0xCD;

struct TensorSpec {
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;  // empty = packed (Strides null)
  uint64_t total_bytes = 0;
};

// One operator invocation: descriptor, input bytes and the sentinel-filled outputs.
// Not copyable: the DML structs point into it.
struct Case {
  Case() = default;
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  uint64_t index = 0;
  DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
  std::vector<TensorSpec> inputs;   // binding order
  std::vector<TensorSpec> outputs;  // binding order
  bool has_indices = false;         // inputs[1] holds index values (gathers, scatters)
  uint32_t axis = 0, index_dimensions = 0;
  uint32_t input_dims = 0, indices_dims = 0, batch_dims = 0;
  std::vector<uint32_t> window_offsets, window_sizes, slice_strides;
  std::vector<int32_t> window_strides;
  // A new family adds its attributes here in one hunk.
  // Padding family (crosscheck_cases_padding.cc); SLICE_GRAD uses the window fields above.
  std::vector<uint32_t> start_padding, end_padding;
  uint32_t padding_mode = 0, block_size = 0, order = 0;
  float padding_value = 0.0f;
  uint64_t padding_bits = 0;
  std::vector<uint32_t> repeats;  // TILE
  std::vector<std::vector<uint8_t>> input_bytes;  // one per input
  std::vector<std::vector<uint8_t>> output_init;  // one per output: kSentinelByte throughout
  // Non-empty when docs/semantics.md#observed-directml-behaviour lists a DirectML bug for this
  // descriptor.
  std::string known_directml_bug;

  // Descriptor storage (filled by BuildDesc): inputs, then outputs.
  std::vector<DML_BUFFER_TENSOR_DESC> buffer_descs;
  std::vector<DML_TENSOR_DESC> tensor_descs;
  DML_GATHER_OPERATOR_DESC gather = {};
  DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements = {};
  DML_GATHER_ND_OPERATOR_DESC gather_nd = {};
  DML_GATHER_ND1_OPERATOR_DESC gather_nd1 = {};
  DML_SLICE_OPERATOR_DESC slice = {};
  DML_SLICE1_OPERATOR_DESC slice1 = {};
  // A new family adds its operator struct (and tensor-desc arrays) here in one hunk.
  DML_PADDING_OPERATOR_DESC padding = {};
  DML_PADDING1_OPERATOR_DESC padding1 = {};
  DML_DEPTH_TO_SPACE_OPERATOR_DESC depth_to_space = {};
  DML_SPACE_TO_DEPTH_OPERATOR_DESC space_to_depth = {};
  DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space1 = {};
  DML_SPACE_TO_DEPTH1_OPERATOR_DESC space_to_depth1 = {};
  DML_SLICE_GRAD_OPERATOR_DESC slice_grad = {};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {};
  DML_JOIN_OPERATOR_DESC join = {};    // InputTensors: the input descs (contiguous)
  DML_SPLIT_OPERATOR_DESC split = {};  // OutputTensors: the output descs (contiguous)
  DML_TILE_OPERATOR_DESC tile = {};
  DML_SCATTER_OPERATOR_DESC scatter = {};  // inputs: InputTensor, IndicesTensor, UpdatesTensor
  DML_SCATTER_ND_OPERATOR_DESC scatter_nd = {};
  DML_OPERATOR_DESC desc = {};

  const DML_TENSOR_DESC* input_desc(size_t i) const { return &tensor_descs[i]; }
  const DML_TENSOR_DESC* output_desc(size_t i) const { return &tensor_descs[inputs.size() + i]; }
  // One line: operator, types, shapes, strides and attributes.
  std::string Describe() const;
};

// ---- Generation helpers, shared with the families' crosscheck_cases_<family>.cc ----

// splitmix64: the same stream on every compiler and standard library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  uint32_t Range(uint32_t lo, uint32_t hi) {
    return lo + static_cast<uint32_t>(Next() % (static_cast<uint64_t>(hi) - lo + 1));
  }
  bool Chance(uint32_t percent) { return Next() % 100 < percent; }

 private:
  uint64_t state_;
};

// Most elements in any one tensor; keeps a DirectML dispatch under wine at a few ms.
constexpr uint64_t kMaxElems = 1536;

uint64_t Product(const std::vector<uint32_t>& sizes);
// Random sizes of `rank` dims in [1, max_dim], shrunk until the product fits kMaxElems / 4.
std::vector<uint32_t> RandomSizes(Rng& rng, uint32_t rank, uint32_t max_dim);

// A family's shapes and attributes: sets c->inputs / c->outputs (count and sizes; a data type
// left UNKNOWN gets the case's random data type, a preset one stays) and the attributes; false
// when the draw is not a valid descriptor. Called with c->type set. GenerateCase then picks
// layouts, fills inputs with random data, builds the descriptor (BuildDesc) and keeps the case
// if dmlcpu compiles it. Each family: one `case` in ChooseShapes, BuildDesc and Describe
// (crosscheck_cases.cc) calling its functions in crosscheck_cases_<family>.cc.

// Padding family (crosscheck_cases_padding.cc): PADDING, PADDING1, DEPTH_TO_SPACE(1),
// SPACE_TO_DEPTH(1), SLICE_GRAD.
bool ChoosePaddingShapes(Rng& rng, Case* c);
void BuildPaddingDesc(Case* c);
std::string DescribePadding(const Case& c);
// ELEMENT_WISE_IDENTITY, JOIN, SPLIT, TILE (crosscheck_cases_movement.cc).
bool ChooseCopyOpsShapes(Rng& rng, Case* c);
void BuildCopyOpsDesc(Case* c);
std::string DescribeCopyOps(const Case& c);
// SCATTER, SCATTER_ND (crosscheck_cases_scatter.cc). FillScatterIndices writes input_bytes[1]
// (the inputs' layouts chosen); false when an in-range draw sends two updates to one element.
bool ChooseScatterShapes(Rng& rng, Case* c);
bool FillScatterIndices(Rng& rng, Case* c);
void BuildScatterDesc(Case* c);
std::string DescribeScatter(const Case& c);

// Case `index` of the run seeded with `seed`; always a descriptor dmlcpu accepts. Operators
// rotate through kOps (crosscheck_cases.cc: every family's types) by index.
std::unique_ptr<Case> GenerateCase(uint64_t seed, uint64_t index);

// Byte offsets of every logical element of `t` (row-major order).
std::vector<uint64_t> ElementOffsets(const TensorSpec& t);
uint32_t ElementBytes(DML_TENSOR_DATA_TYPE data_type);

}  // namespace dmlcpu_crosscheck

#endif  // DMLCPU_TESTS_D3D12_CROSSCHECK_CASES_H_
