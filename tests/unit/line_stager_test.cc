// SPDX-License-Identifier: Apache-2.0
// LineStager (executor/line_stager.h): random ascending pieces of every size up to the limit,
// adjacent or with gaps (inside one line or across lines), starting at every alignment, each
// followed by kSpillBytes of garbage; every piece's bytes arrive and no other byte of the buffer
// (guards and gaps) is written, and no piece with its spill straddles a 4 KiB page of the window.
#include "executor/line_stager.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace internal {
namespace {

constexpr uint8_t kPoison = 0xA5;

// The byte a piece writes at buffer position `pos` (never kPoison).
uint8_t PatternAt(uint64_t pos) {
  const uint8_t v = static_cast<uint8_t>((pos * 2654435761u) >> 7);
  return v == kPoison ? 0x5A : v;
}

struct PieceSpec {
  uint64_t offset_bytes;
  uint64_t bytes;
};

// Writes `pieces` through one stager into a poisoned buffer and checks every byte of it.
void ExpectPiecesOnly(const std::vector<PieceSpec>& pieces, uint64_t buffer_bytes) {
  std::vector<uint8_t> buffer(buffer_bytes + 128, kPoison);
  uint8_t* base = buffer.data() + 64;
  std::vector<bool> written(buffer.size(), false);
  {
    LineStager stager(kernels::BestKernels().copy_bytes_stream_unfenced);
    uint8_t* to = nullptr;
    for (const PieceSpec& p : pieces) {
      to = stager.Seek(base + p.offset_bytes, to);
      ASSERT_GE(stager.Room(to), p.bytes);
      const uintptr_t first = reinterpret_cast<uintptr_t>(to);
      ASSERT_EQ(first / LineStager::kPageBytes,
                (first + p.bytes + LineStager::kSpillBytes - 1) / LineStager::kPageBytes)
          << "piece at window offset " << first % LineStager::kPageBytes << " of " << p.bytes
          << " bytes";
      for (uint64_t k = 0; k < p.bytes; ++k) {
        to[k] = PatternAt(64 + p.offset_bytes + k);
        written[64 + p.offset_bytes + k] = true;
      }
      // What a writer may spill past the piece: never written out.
      for (uint64_t k = 0; k < LineStager::kSpillBytes; ++k) to[p.bytes + k] = 0xEE;
      to = stager.Commit(to + p.bytes);
    }
    if (to != nullptr) stager.Finish(to);
  }
  kernels::StoreFence();
  for (uint64_t pos = 0; pos < buffer.size(); ++pos) {
    const uint8_t want = written[pos] ? PatternAt(pos) : kPoison;
    ASSERT_EQ(buffer[pos], want) << "byte " << pos << (written[pos] ? " (piece)" : " (untouched)");
  }
}

TEST(LineStagerTest, AdjacentPiecesOfEverySizeAndAlignment) {
  for (uint64_t start = 0; start < 64; start += 7) {
    for (uint64_t size : {uint64_t{1}, uint64_t{3}, uint64_t{63}, uint64_t{64}, uint64_t{65},
                          uint64_t{232}, uint64_t{1000}, LineStager::kMaxPieceBytes}) {
      std::vector<PieceSpec> pieces;
      uint64_t at = start;
      for (int k = 0; k < 40; ++k) {
        pieces.push_back({at, size});
        at += size;
      }
      SCOPED_TRACE(testing::Message() << "start " << start << ", pieces of " << size);
      ExpectPiecesOnly(pieces, at + 64);
    }
  }
}

TEST(LineStagerTest, RandomPiecesWithGaps) {
  std::mt19937_64 rng(0x5746ED);
  for (int round = 0; round < 300; ++round) {
    std::vector<PieceSpec> pieces;
    uint64_t at = rng() % 128;
    const int count = 1 + static_cast<int>(rng() % 60);
    for (int k = 0; k < count; ++k) {
      const uint64_t size = 1 + rng() % (rng() % 4 == 0 ? LineStager::kMaxPieceBytes : 300);
      pieces.push_back({at, size});
      at += size;
      switch (rng() % 4) {  // adjacent, a gap inside a line, a gap of lines, adjacent
        case 1: at += 1 + rng() % 30; break;
        case 2: at += 64 + rng() % 300; break;
        default: break;
      }
    }
    SCOPED_TRACE(testing::Message() << "round " << round);
    ExpectPiecesOnly(pieces, at + 64);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
