// SPDX-License-Identifier: Apache-2.0
// ELEMENT_WISE_IDENTITY, JOIN, SPLIT and TILE: seeded random cases against the naive reference
// (ranks 1-8, widths 1/2/4/8, packed / padded / permuted / broadcast inputs, padded and permuted
// outputs whose gaps must keep their sentinel, misaligned buffers, 1, 2 and 8 threads), short
// equal JOIN/SPLIT rows on the row-by-row path, and both TILE programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "operators/copy_ops_cases.h"
#include "support/devices.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

// Element strides for `sizes`: empty (packed), padded, permuted (optionally padded), and, for
// inputs, broadcast dimensions (stride 0).
std::vector<uint32_t> RandomStrides(const std::vector<uint32_t>& sizes, bool input,
                                    std::mt19937_64& rng) {
  const int kind = static_cast<int>(rng() % (input ? 5 : 4));
  if (kind == 0) return {};
  const size_t n = sizes.size();
  std::vector<size_t> order(n);  // order[0] is the outermost in memory
  for (size_t i = 0; i < n; ++i) order[i] = i;
  if (kind >= 2) std::shuffle(order.begin(), order.end(), rng);
  std::vector<uint32_t> strides(n);
  uint64_t stride = 1 + (kind == 3 ? rng() % 3 : 0);
  for (size_t k = n; k-- > 0;) {
    const size_t d = order[k];
    strides[d] = static_cast<uint32_t>(stride);
    stride = stride * sizes[d] + (kind == 1 || kind == 3 ? rng() % 3 : 0);
  }
  if (kind == 4) {  // broadcast some dimensions of an input
    for (size_t d = 0; d < n; ++d) {
      if (rng() % 3 == 0) strides[d] = 0;
    }
  }
  return strides;
}

DML_TENSOR_DATA_TYPE RandomType(std::mt19937_64& rng) {
  static const DML_TENSOR_DATA_TYPE kTypes[] = {
      DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
      DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_FLOAT64};
  return kTypes[rng() % 6];
}

// Sizes of rank 1-8 with about `budget` elements at most.
std::vector<uint32_t> RandomSizes(std::mt19937_64& rng, uint32_t rank, uint64_t budget) {
  std::vector<uint32_t> sizes(rank, 1);
  uint64_t count = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint64_t room = std::max<uint64_t>(1, budget / count);
    const uint64_t cap = std::min<uint64_t>(room, rank <= 2 ? 700 : 9);
    sizes[d] = static_cast<uint32_t>(1 + rng() % cap);
    count *= sizes[d];
  }
  return sizes;
}

uint64_t Budget(std::mt19937_64& rng) { return rng() % 8 == 0 ? 120000 : 3000; }

std::string Describe(const char* op, const std::vector<const TensorDescHolder*>& ins,
                     const std::vector<const TensorDescHolder*>& outs, const std::string& extra) {
  std::string s = std::string(op) + " " + extra;
  for (const TensorDescHolder* t : ins) s += " in=" + t->ToString();
  for (const TensorDescHolder* t : outs) s += " out=" + t->ToString();
  return s;
}

uint32_t RandomMisalign(std::mt19937_64& rng) { return rng() % 4 == 0 ? 16 * (rng() % 4) : 0; }

TEST(CopyOpsRandomTest, Identity) {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    std::mt19937_64 rng(seed);
    const uint32_t rank = 1 + seed % 8;
    const DML_TENSOR_DATA_TYPE type = RandomType(rng);
    const std::vector<uint32_t> sizes = RandomSizes(rng, rank, Budget(rng));
    Holder in = Make(type, sizes, RandomStrides(sizes, true, rng));
    Holder out = Make(type, sizes, RandomStrides(sizes, false, rng));
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d{in->desc(), out->desc(), nullptr};
    Case c{{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, {in.get()}, {out.get()},
           RandomMisalign(rng), rng() % 2 * 12, ""};
    c.description = Describe("IDENTITY", c.inputs, c.outputs, "");
    RunAndCompare(c, seed);
    if (HasFatalFailure()) return;
  }
}

TEST(CopyOpsRandomTest, JoinAndSplit) {
  for (uint64_t seed = 1; seed <= 160; ++seed) {
    std::mt19937_64 rng(seed * 7919);
    const uint32_t rank = 1 + seed % 8;
    const DML_TENSOR_DATA_TYPE type = RandomType(rng);
    const std::vector<uint32_t> whole_sizes = RandomSizes(rng, rank, Budget(rng));
    const uint32_t axis = static_cast<uint32_t>(rng() % rank);
    // Cut whole_sizes[axis] into 1-5 parts.
    std::vector<uint32_t> cuts;
    uint32_t left = whole_sizes[axis];
    const uint32_t max_parts = 1 + rng() % 5;
    while (left > 0) {
      const uint32_t part = cuts.size() + 1 == max_parts ? left : 1 + rng() % left;
      cuts.push_back(part);
      left -= part;
    }
    std::vector<Holder> parts;
    std::vector<DML_TENSOR_DESC> part_descs;
    const bool join = seed % 2 == 0;
    for (uint32_t cut : cuts) {
      std::vector<uint32_t> sizes = whole_sizes;
      sizes[axis] = cut;
      parts.push_back(Make(type, sizes, RandomStrides(sizes, join, rng)));
      part_descs.push_back(*parts.back()->desc());
    }
    Holder whole = Make(type, whole_sizes, RandomStrides(whole_sizes, !join, rng));
    std::vector<const TensorDescHolder*> part_ptrs;
    for (const Holder& p : parts) part_ptrs.push_back(p.get());
    DML_JOIN_OPERATOR_DESC jd{static_cast<uint32_t>(parts.size()), part_descs.data(),
                              whole->desc(), axis};
    DML_SPLIT_OPERATOR_DESC sd{whole->desc(), static_cast<uint32_t>(parts.size()),
                               part_descs.data(), axis};
    Case c;
    if (join) {
      c = Case{{DML_OPERATOR_JOIN, &jd}, part_ptrs, {whole.get()}, RandomMisalign(rng), 0, ""};
    } else {
      c = Case{{DML_OPERATOR_SPLIT, &sd}, {whole.get()}, part_ptrs, RandomMisalign(rng), 0, ""};
    }
    c.description = Describe(join ? "JOIN" : "SPLIT", c.inputs, c.outputs,
                             "axis=" + std::to_string(axis));
    RunAndCompare(c, seed);
    if (HasFatalFailure()) return;
  }
}

// JOIN and SPLIT of three equal parts with rows of 1-64 bytes, in place of the random shapes
// above. Rows of two items or more co-run row by row (asserted), through every inline row copy
// (one copy of exactly 4, 8, 16 or 32 bytes, two overlapping copies, bytes one by one); rows
// of one item are strided elements.
TEST(CopyOpsRandomTest, JoinAndSplitOfShortEqualRows) {
  uint64_t seed = 0;
  for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64}) {
    const uint32_t width = Make(type, {1})->element_bytes();
    for (uint32_t row_bytes : {1u, 2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u, 32u, 40u, 48u, 64u}) {
      if (row_bytes % width != 0) continue;
      const uint32_t items = row_bytes / width;
      for (const bool join : {false, true}) {
        ++seed;
        const auto misalign_bytes = static_cast<uint32_t>(16 * (seed % 4));
        std::vector<Holder> parts;
        std::vector<DML_TENSOR_DESC> part_descs;
        std::vector<const TensorDescHolder*> part_ptrs;
        for (int k = 0; k < 3; ++k) {
          parts.push_back(Make(type, {1, 3, 700, items}));
          part_descs.push_back(*parts.back()->desc());
          part_ptrs.push_back(parts.back().get());
        }
        Holder whole = Make(type, {1, 3, 700, 3 * items});
        DML_JOIN_OPERATOR_DESC jd{3, part_descs.data(), whole->desc(), 3};
        DML_SPLIT_OPERATOR_DESC sd{whole->desc(), 3, part_descs.data(), 3};
        Case c;
        if (join) {
          c = Case{{DML_OPERATOR_JOIN, &jd}, part_ptrs, {whole.get()}, misalign_bytes, 0, ""};
        } else {
          c = Case{{DML_OPERATOR_SPLIT, &sd}, {whole.get()}, part_ptrs, misalign_bytes, 0, ""};
        }
        c.description = Describe(join ? "JOIN" : "SPLIT", c.inputs, c.outputs, "axis=3");
        if (items >= 2) {
          dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = ThreadedDevices()[0]->Compile(c.op);
          ASSERT_TRUE(op.ok()) << op.status().message();
          EXPECT_NE(op->Describe().find("row by row"), std::string::npos)
              << c.description << "\n" << op->Describe();
        }
        RunAndCompare(c, seed);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(CopyOpsRandomTest, Tile) {
  for (uint64_t seed = 1; seed <= 160; ++seed) {
    std::mt19937_64 rng(seed * 104729);
    const uint32_t rank = 1 + seed % 8;
    const DML_TENSOR_DATA_TYPE type = RandomType(rng);
    const uint64_t budget = Budget(rng);
    std::vector<uint32_t> in_sizes = RandomSizes(rng, rank, std::max<uint64_t>(1, budget / 16));
    // Every third case of rank >= 5: sizes and repeats of 2-3 in every dimension, so that more
    // than 8 loops remain and the doubling program runs.
    const bool dense = rank >= 5 && seed % 3 == 0;
    if (dense) {
      for (uint32_t& s : in_sizes) s = 2 + rng() % 2;
    }
    std::vector<uint32_t> repeats(rank), out_sizes(rank);
    uint64_t out_count = 1;
    for (uint32_t d = 0; d < rank; ++d) out_count *= in_sizes[d];
    for (uint32_t d = 0; d < rank; ++d) {
      const uint64_t room = std::max<uint64_t>(1, budget / out_count);
      const uint64_t cap = dense ? 2 : std::min<uint64_t>(room, rank <= 2 ? 300 : 4);
      repeats[d] = static_cast<uint32_t>((dense ? 2 : 1) + rng() % cap);
      out_sizes[d] = in_sizes[d] * repeats[d];
      out_count *= repeats[d];
    }
    Holder in = Make(type, in_sizes, RandomStrides(in_sizes, true, rng));
    Holder out = Make(type, out_sizes, RandomStrides(out_sizes, false, rng));
    DML_TILE_OPERATOR_DESC d{in->desc(), out->desc(), rank, repeats.data()};
    Case c{{DML_OPERATOR_TILE, &d}, {in.get()}, {out.get()}, RandomMisalign(rng), 0, ""};
    c.description = Describe("TILE", c.inputs, c.outputs, "repeats=" + SizesToString(repeats));
    RunAndCompare(c, seed);
    if (HasFatalFailure()) return;
  }
}

// Both TILE programs (docs/design.md#programs-of-future-operators): the repeat nest (one step)
// and the doubling copies (a copy of the input, then output -> output steps), each checked
// against the reference, packed and with a gap after every output element.
TEST(CopyOpsRandomTest, TilePrograms) {
  struct Shape {
    std::vector<uint32_t> in;
    std::vector<uint32_t> repeats;
    bool doubling;
  };
  const Shape shapes[] = {
      {{1, 1, 4096}, {1, 64, 1}, false},   // the write-bound nest: 16 KiB rows
      {{4096, 1}, {1, 128}, false},        // broadcast rows of 512 bytes
      {{4096, 3}, {1, 100}, true},         // 12-byte rows: doubling saves 90% of the rows
      {{16384, 15}, {1, 8}, false},        // 60-byte rows, few repeats: the nest
      {{2, 3, 2, 3, 2, 3, 2, 3}, {2, 2, 2, 2, 2, 2, 2, 2}, true},  // 16 loops: doubling
      {{3, 5, 7}, {5, 3, 40}, false},      // small output: the nest
  };
  uint64_t seed = 1;
  for (const Shape& shape : shapes) {
    for (bool strided : {false, true}) {
      std::vector<uint32_t> out_sizes(shape.in.size());
      for (size_t d = 0; d < out_sizes.size(); ++d) out_sizes[d] = shape.in[d] * shape.repeats[d];
      std::vector<uint32_t> out_strides;
      if (strided) {
        out_strides = PackedStrides(out_sizes);
        for (uint32_t& s : out_strides) s = s * 2;  // a gap after every element
      }
      Holder in = Make(DML_TENSOR_DATA_TYPE_FLOAT32, shape.in);
      Holder out = Make(DML_TENSOR_DATA_TYPE_FLOAT32, out_sizes, out_strides);
      DML_TILE_OPERATOR_DESC d{in->desc(), out->desc(), static_cast<uint32_t>(shape.in.size()),
                               shape.repeats.data()};
      Case c{{DML_OPERATOR_TILE, &d}, {in.get()}, {out.get()}, 0, 0, ""};
      c.description = Describe("TILE", c.inputs, c.outputs, "");
      if (!strided) {
        dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = ThreadedDevices()[0]->Compile(c.op);
        ASSERT_TRUE(op.ok()) << op.status().message();
        const bool one_step = op->Describe().find("program: 1 step(s)") != std::string::npos;
        EXPECT_EQ(one_step, !shape.doubling) << c.description << "\n" << op->Describe();
      }
      RunAndCompare(c, seed++);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace dmlcpu_test
