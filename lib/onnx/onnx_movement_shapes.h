// SPDX-License-Identifier: Apache-2.0
// ONNX shape rules of the copy-shaped operators (Transpose, Expand, Reshape, Flatten, Squeeze,
// Unsqueeze, Concat, Split, Tile), as ONNX's operator texts state them: pure functions from
// shapes and attributes to output shapes, with "<ONNX op>: <what> is <value>, expected <rule>"
// messages. Internal to lib/onnx (onnx_movement.cc and its tests).
#ifndef DMLCPU_ONNX_ONNX_MOVEMENT_SHAPES_H_
#define DMLCPU_ONNX_ONNX_MOVEMENT_SHAPES_H_

#include <cstdint>
#include <vector>

#include "dmlcpu/onnx.h"
#include "dmlcpu/status.h"

namespace dmlcpu {
namespace onnx {
namespace internal {

using Shape = std::vector<int64_t>;

// Transpose: `perm` empty = reversed; else a permutation of [0, rank). Output[d] = in[perm[d]].
Status TransposeShape(const Shape& in, const std::vector<int64_t>& perm,
                      std::vector<uint32_t>* normalized, Shape* out);

// Expand (opset 8+): bidirectional (NumPy) broadcast of `in` and `shape`.
Status ExpandShape(const Shape& in, const std::vector<int64_t>& shape, Shape* out);

// Reshape (opset 5+, allowzero from 14): 0 copies the input's dimension (unless allowzero),
// -1 is inferred (at most one), the element count must not change.
Status ReshapeShape(const Shape& in, const std::vector<int64_t>& shape, bool allowzero,
                    Shape* out);
// Flatten: axis in [-r, r]; {prod(in[:axis]), prod(in[axis:])}.
Status FlattenShape(const Shape& in, int64_t axis, Shape* out);
// Squeeze: `axes` empty = every size-1 dimension; else each in [-r, r-1], size 1, no repeats.
Status SqueezeShape(const Shape& in, const std::vector<int64_t>& axes, Shape* out);
// Unsqueeze: each axis in [-(r + k), r + k - 1] of the output (k = axes.size()), no repeats.
Status UnsqueezeShape(const Shape& in, const std::vector<int64_t>& axes, Shape* out);

// Concat: every input of rank r >= 1, equal off the axis; axis in [-r, r-1].
Status ConcatShape(const std::vector<Shape>& ins, int64_t axis, uint32_t* normalized_axis,
                   Shape* out);
// Split: chunk sizes along the normalized axis: `split` (each >= 0, summing to the dimension),
// else num_outputs (opset 18: ceil(dim / n) each, the last one smaller), else `output_count`
// equal chunks (the dimension divisible by it).
Status SplitSizes(const Shape& in, int64_t axis, const std::vector<int64_t>& split,
                  int64_t num_outputs, size_t output_count, uint32_t* normalized_axis,
                  std::vector<int64_t>* chunks);
// Tile: one repeat per dimension, each >= 0; out[d] = in[d] * repeats[d].
Status TileShape(const Shape& in, const std::vector<int64_t>& repeats, Shape* out);

}  // namespace internal
}  // namespace onnx
}  // namespace dmlcpu

#endif  // DMLCPU_ONNX_ONNX_MOVEMENT_SHAPES_H_
