// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — memcpy and non-temporal-copy baselines (see roofline.h).
#include "roofline.h"

#include <immintrin.h>
#if defined(_WIN32)
#include <malloc.h>  // _aligned_malloc (msvcrt has no aligned_alloc)
#ifndef NOMINMAX
#define NOMINMAX  // windows.h's min and max macros would break std::min
#endif
#include <windows.h>
#else
#include <sys/mman.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <utility>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

namespace dmlcpu_bench {

namespace {
// Buffers from this size on are 2 MiB aligned and ask for transparent huge pages.
constexpr size_t kHugePageBytes = 2u << 20;
constexpr size_t kHugePageThresholdBytes = 4u << 20;

#if defined(MADV_HUGEPAGE) || (defined(_WIN32) && defined(__x86_64__))
// DMLCPU_BENCH_SMALL_PAGES=1: the large buffers keep their 2 MiB alignment but refuse huge
// pages (4 KiB pages), in both builds: the control for page-size effects.
bool SmallPagesRequested() {
  static const bool small = [] {
    const char* value = std::getenv("DMLCPU_BENCH_SMALL_PAGES");
    return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
  }();
  return small;
}
#endif

#if defined(_WIN32) && defined(__x86_64__)
// Wine on Linux maps a Windows process's memory with mmap, and (wine 8.0) refuses
// MEM_LARGE_PAGES with ERROR_INVALID_PARAMETER; there the kernel's madvise, called directly, gives
// the buffer the transparent huge pages a Linux build asks for. Never on Windows itself.
bool UnderWineOnLinux() {
  static const bool under_wine_on_linux = [] {
    using HostVersionFn = void (*)(const char** sysname, const char** release);
    const HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    if (ntdll == nullptr) return false;
    const auto host_version = reinterpret_cast<HostVersionFn>(
        reinterpret_cast<void*>(GetProcAddress(ntdll, "wine_get_host_version")));
    if (host_version == nullptr) return false;
    const char* sysname = nullptr;
    const char* release = nullptr;
    host_version(&sysname, &release);
    return sysname != nullptr && std::strcmp(sysname, "Linux") == 0;
  }();
  return under_wine_on_linux;
}

// Linux x86-64 madvise(2) (system call 28); returns 0 or -errno.
long LinuxMadvise(void* address, size_t size_bytes, long advice) {
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(28L), "D"(address), "S"(size_bytes), "d"(advice)
                   : "rcx", "r11", "memory");
  return result;
}
constexpr long kLinuxMadvHugePage = 14;
constexpr long kLinuxMadvNoHugePage = 15;
#endif
}  // namespace

AlignedBuffer::AlignedBuffer(size_t size_bytes) : size_bytes_(size_bytes) {
  if (size_bytes == 0) return;
  const size_t alignment = size_bytes >= kHugePageThresholdBytes ? kHugePageBytes : 64;
  const size_t rounded_bytes = (size_bytes + alignment - 1) / alignment * alignment;
#if defined(_WIN32)
  data_ = static_cast<uint8_t*>(_aligned_malloc(rounded_bytes, alignment));
#else
  data_ = static_cast<uint8_t*>(std::aligned_alloc(alignment, rounded_bytes));
#endif
  if (data_ == nullptr) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
  if (alignment == kHugePageBytes) {
    madvise(data_, rounded_bytes, SmallPagesRequested() ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
  }
#elif defined(_WIN32) && defined(__x86_64__)
  if (alignment == kHugePageBytes && UnderWineOnLinux()) {
    // A refusal (THP disabled, a wine that intercepts system calls) would silently leave this
    // build on other pages than the Linux build: say so once.
    static std::atomic<bool> warned{false};
    const long result = LinuxMadvise(
        data_, rounded_bytes, SmallPagesRequested() ? kLinuxMadvNoHugePage : kLinuxMadvHugePage);
    if (result != 0 && !warned.exchange(true)) {
      std::fprintf(stderr, "dmlcpu_bench: madvise under wine failed (%ld): buffers keep the "
                           "default pages\n", result);
    }
  }
#endif
}

namespace {
void FreeAligned(uint8_t* data) {
#if defined(_WIN32)
  _aligned_free(data);
#else
  std::free(data);
#endif
}
}  // namespace

AlignedBuffer::~AlignedBuffer() { FreeAligned(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_bytes_(std::exchange(other.size_bytes_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    FreeAligned(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_bytes_ = std::exchange(other.size_bytes_, 0);
  }
  return *this;
}

void AlignedBuffer::FillPattern(uint32_t salt) {
  const size_t words = size_bytes_ / 4;
  uint32_t value = salt;
  for (size_t i = 0; i < words; ++i) {
    std::memcpy(data_ + 4 * i, &value, 4);
    value += 0x9E3779B1u;
  }
  for (size_t i = words * 4; i < size_bytes_; ++i) data_[i] = static_cast<uint8_t>(i ^ salt);
}

namespace roofline {
namespace {

constexpr size_t kCacheLineBytes = 64;

// Copies `size_bytes` from `src` to `dst`, whose address is 32-byte aligned, with 32-byte
// streaming stores, four per iteration; returns the bytes not copied (< 32).
__attribute__((target("avx2"))) size_t StreamCopyAvx2(uint8_t* dst, const uint8_t* src,
                                                      size_t size_bytes) {
  constexpr size_t kVectorBytes = 32;
  size_t i = 0;
  for (; i + 4 * kVectorBytes <= size_bytes; i += 4 * kVectorBytes) {
    const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 32));
    const __m256i v2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 64));
    const __m256i v3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), v0);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 32), v1);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 64), v2);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 96), v3);
  }
  for (; i + kVectorBytes <= size_bytes; i += kVectorBytes) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
  }
  return size_bytes - i;
}

// SSE2 version of the above (16-byte stores, `dst` 16-byte aligned). SSE2 is baseline on x86-64.
size_t StreamCopySse2(uint8_t* dst, const uint8_t* src, size_t size_bytes) {
  constexpr size_t kVectorBytes = 16;
  size_t i = 0;
  for (; i + 4 * kVectorBytes <= size_bytes; i += 4 * kVectorBytes) {
    const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i v3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), v0);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), v1);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), v2);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), v3);
  }
  for (; i + kVectorBytes <= size_bytes; i += kVectorBytes) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
  }
  return size_bytes - i;
}

bool HasAvx2() {
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  return has_avx2;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void MemcpyCopy(void* dst, const void* src, size_t size_bytes) {
  std::memcpy(dst, src, size_bytes);
}

void NonTemporalCopy(void* dst, const void* src, size_t size_bytes) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  // Whole lines from the first line boundary on: a line split between two page turns would be
  // written in two pieces.
  const size_t head_bytes = std::min(
      size_bytes, (kCacheLineBytes - reinterpret_cast<uintptr_t>(d) % kCacheLineBytes) %
                      kCacheLineBytes);
  std::memcpy(d, s, head_bytes);
  d += head_bytes;
  s += head_bytes;
  size_bytes -= head_bytes;
  // Returns the bytes not copied (< 32): none for a multiple of 128.
  const auto stream = HasAvx2() ? &StreamCopyAvx2 : &StreamCopySse2;
  // Up to four pages side by side, 256 bytes of each in turn, while two or more are left (as the
  // library streams): the hardware prefetchers then follow every page's reads at once.
  constexpr size_t kPageBytes = 4096;
  constexpr size_t kPageStreams = 4;
  constexpr size_t kPageStepBytes = 256;
  static_assert(kPageStepBytes % 128 == 0, "each step is copied whole by either stream copy");
  while (size_bytes >= 2 * kPageBytes) {
    const size_t pages = std::min(kPageStreams, size_bytes / kPageBytes);
    for (size_t step = 0; step < kPageBytes; step += kPageStepBytes) {
      for (size_t p = 0; p < pages; ++p) {
        stream(d + p * kPageBytes + step, s + p * kPageBytes + step, kPageStepBytes);
      }
    }
    d += pages * kPageBytes;
    s += pages * kPageBytes;
    size_bytes -= pages * kPageBytes;
  }
  const size_t tail_bytes = stream(d, s, size_bytes);
  std::memcpy(d + size_bytes - tail_bytes, s + size_bytes - tail_bytes, tail_bytes);
  _mm_sfence();
}

namespace {

// One arena per thread count, created once and reused (as the library's Device does); never
// destroyed, so that nothing depends on TBB's state during static destruction.
tbb::task_arena* ArenaFor(uint32_t threads) {
  static std::mutex* const mutex = new std::mutex;
  static auto* const arenas = new std::map<uint32_t, std::unique_ptr<tbb::task_arena>>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto& slot = (*arenas)[threads];
  if (!slot) slot = std::make_unique<tbb::task_arena>(static_cast<int>(threads));
  return slot.get();
}

// Where LineReader's loads go, so that the compiler keeps them.
std::atomic<uint64_t> line_reader_sink{0};

}  // namespace

void ParallelCopy(CopyFunction copy, void* dst, const void* src, size_t size_bytes,
                  uint32_t threads) {
  if (threads <= 1 || size_bytes < kMinParallelBytes) {
    copy(dst, src, size_bytes);
    return;
  }
  tbb::task_arena* arena = ArenaFor(threads);
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  // Piece boundaries on 64-byte-aligned destination addresses.
  const uintptr_t dst_address = reinterpret_cast<uintptr_t>(d);
  size_t piece_bytes = (size_bytes + threads - 1) / threads;
  piece_bytes = (piece_bytes + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
  const size_t first_bytes =
      std::min(size_bytes, piece_bytes - dst_address % kCacheLineBytes);
  const size_t pieces = 1 + (size_bytes - first_bytes + piece_bytes - 1) / piece_bytes;
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, pieces, 1),
        [&](const tbb::blocked_range<size_t>& range) {
          for (size_t p = range.begin(); p != range.end(); ++p) {
            const size_t begin = p == 0 ? 0 : first_bytes + (p - 1) * piece_bytes;
            const size_t end = std::min(size_bytes, p == 0 ? first_bytes : begin + piece_bytes);
            if (end > begin) copy(d + begin, s + begin, end - begin);
          }
        },
        tbb::static_partitioner());
  });
}

LineReader::LineReader(const uint8_t* base, const std::vector<ByteRange>& ranges,
                       uint32_t threads)
    : base_(base), threads_(std::max<uint32_t>(1, threads)) {
  for (const ByteRange& r : ranges) bytes_ += r.end - r.begin;
  if (bytes_ < kMinParallelBytes) threads_ = 1;
  pieces_.resize(threads_);
  // Piece p ends at byte (p + 1) * bytes_ / threads_ of the ranges' concatenation, rounded up
  // to a line (the last one at bytes_, a whole number of lines as every range is).
  uint64_t done = 0;
  uint32_t p = 0;
  for (const ByteRange& r : ranges) {
    for (uint64_t begin = r.begin; begin < r.end;) {
      const uint64_t piece_end =
          ((p + 1) * bytes_ / threads_ + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
      if (done >= piece_end) {
        ++p;
        continue;
      }
      const uint64_t take = std::min(r.end - begin, piece_end - done);
      pieces_[p].push_back({begin, begin + take});
      begin += take;
      done += take;
    }
  }
  piece_begin_bytes_.assign(threads_, 0);
  for (uint32_t q = 1; q < threads_; ++q) {
    uint64_t piece_bytes = 0;
    for (const ByteRange& r : pieces_[q - 1]) piece_bytes += r.end - r.begin;
    piece_begin_bytes_[q] = piece_begin_bytes_[q - 1] + piece_bytes;
  }
}

namespace {

// Walks one piece of a LineReader in steps of `step_lines` lines (fewer at a range's end), calling
// visit(offset, bytes, dst_offset) per step, dst_offset counting from the piece's start. With
// `prefetch`, a second cursor runs kAheadLines ahead along the same ranges and prefetches one line
// per line of the step before it: where the ranges jump, the hardware prefetchers start each one
// from a full DRAM latency.
template <typename Visit>
void WalkPiece(const uint8_t* base, const std::vector<ByteRange>& piece, bool prefetch,
               uint64_t step_lines, const Visit& visit) {
  constexpr uint64_t kAheadLines = 128;
  size_t ahead_range = prefetch ? 0 : piece.size();
  uint64_t ahead_at = piece.empty() ? 0 : piece[0].begin;
  const auto prefetch_next = [&] {
    if (ahead_range == piece.size()) return;
    __builtin_prefetch(base + ahead_at);
    ahead_at += kCacheLineBytes;
    if (ahead_at == piece[ahead_range].end && ++ahead_range < piece.size()) {
      ahead_at = piece[ahead_range].begin;
    }
  };
  for (uint64_t i = 0; i < kAheadLines; ++i) prefetch_next();
  uint64_t dst_offset = 0;
  for (const ByteRange& r : piece) {
    for (uint64_t at = r.begin; at < r.end;) {
      const uint64_t bytes = std::min(r.end - at, step_lines * kCacheLineBytes);
      for (uint64_t line = 0; line < bytes; line += kCacheLineBytes) prefetch_next();
      visit(at, bytes, dst_offset);
      at += bytes;
      dst_offset += bytes;
    }
  }
}

}  // namespace

template <typename PieceFn>
void LineReader::ForEachPiece(const PieceFn& piece_fn) const {
  if (threads_ == 1) {
    piece_fn(0);
    return;
  }
  ArenaFor(threads_)->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, pieces_.size(), 1),
        [&](const tbb::blocked_range<size_t>& range) {
          for (size_t p = range.begin(); p != range.end(); ++p) piece_fn(p);
        },
        tbb::static_partitioner());
  });
}

void LineReader::Run(bool prefetch) const {
  ForEachPiece([&](size_t p) {
    uint64_t sum = 0;
    WalkPiece(base_, pieces_[p], prefetch, /*step_lines=*/1,
              [&](uint64_t at, uint64_t /*bytes*/, uint64_t /*dst_offset*/) {
                uint64_t word;
                std::memcpy(&word, base_ + at, sizeof(word));
                sum += word;
              });
    line_reader_sink.fetch_add(sum, std::memory_order_relaxed);
  });
}

void LineReader::CopyTo(uint8_t* dst, bool streaming) const {
  ForEachPiece([&](size_t p) {
    uint8_t* piece_dst = dst + piece_begin_bytes_[p];
    WalkPiece(base_, pieces_[p], /*prefetch=*/true, /*step_lines=*/4,
              [&](uint64_t at, uint64_t bytes, uint64_t dst_offset) {
                uint8_t* d = piece_dst + dst_offset;
                const uint8_t* s = base_ + at;
                if (!streaming) {
                  std::memcpy(d, s, bytes);
                  return;
                }
                // Whole lines to a 64-byte aligned dst: nothing is left over.
                const size_t left = HasAvx2() ? StreamCopyAvx2(d, s, bytes)
                                              : StreamCopySse2(d, s, bytes);
                (void)left;
              });
    if (streaming) _mm_sfence();
  });
}

bool LineReader::CopiedTo(const uint8_t* dst) const {
  for (size_t p = 0; p < pieces_.size(); ++p) {
    uint64_t dst_offset = piece_begin_bytes_[p];
    for (const ByteRange& r : pieces_[p]) {
      if (std::memcmp(dst + dst_offset, base_ + r.begin, r.end - r.begin) != 0) return false;
      dst_offset += r.end - r.begin;
    }
  }
  return true;
}

void FlushFromCaches(const Span& span) {
  if (span.size_bytes == 0) return;
  // clflush (SSE2, so always there) on a line that is not cached costs a few nanoseconds: a
  // whole 1 GiB embedding table flushes in about 15 ms here.
  const auto begin = reinterpret_cast<uintptr_t>(span.data) & ~uintptr_t{kCacheLineBytes - 1};
  const auto end = reinterpret_cast<uintptr_t>(span.data) + span.size_bytes;
  for (uintptr_t line = begin; line < end; line += kCacheLineBytes) {
    _mm_clflush(reinterpret_cast<const void*>(line));
  }
  _mm_mfence();
}

RooflineTimes MeasureAgainstCopies(const std::function<void()>& run_op,
                                   const std::vector<Span>& op_buffers, size_t copy_bytes,
                                   uint32_t threads, const LineReader* reader,
                                   const LineReader* copier, double min_seconds) {
  // Separate destinations: the NT copy's stores evict its destination from the caches, which
  // would otherwise turn the next memcpy's writes into misses.
  AlignedBuffer src(copy_bytes);
  AlignedBuffer memcpy_dst(copy_bytes);
  AlignedBuffer nt_dst(copy_bytes);
  src.FillPattern(0x5a);
  memcpy_dst.FillPattern(0x00);
  nt_dst.FillPattern(0x00);
  const auto run_memcpy = [&] {
    ParallelCopy(&MemcpyCopy, memcpy_dst.data(), src.data(), copy_bytes, threads);
  };
  const auto run_nt = [&] {
    ParallelCopy(&NonTemporalCopy, nt_dst.data(), src.data(), copy_bytes, threads);
  };
  // The line copies only where they write no more than the operator does.
  const bool copy_lines = copier != nullptr && copier->bytes() <= copy_bytes;
  AlignedBuffer line_dst(copy_lines ? copier->bytes() : 0);
  if (copy_lines) line_dst.FillPattern(0x00);
  run_op();  // warm-up round
  run_memcpy();
  run_nt();
  if (std::memcmp(nt_dst.data(), src.data(), copy_bytes) != 0 ||
      std::memcmp(memcpy_dst.data(), src.data(), copy_bytes) != 0) {
    std::fprintf(stderr, "roofline: a reference copy copied wrong bytes\n");
    std::abort();
  }
  if (reader != nullptr) reader->Run(true);
  if (copy_lines) {
    // Both copies are checked once: a copy bound of the wrong bytes would mean nothing.
    for (const bool streaming : {false, true}) {
      line_dst.FillPattern(streaming ? 0x11 : 0x22);
      copier->CopyTo(line_dst.data(), streaming);
      if (!copier->CopiedTo(line_dst.data())) {
        std::fprintf(stderr, "roofline: LineReader::CopyTo (streaming %d) copied wrong bytes\n",
                     static_cast<int>(streaming));
        std::abort();
      }
    }
  }
  RooflineTimes best;
  best.op_seconds = best.memcpy_seconds = best.nt_seconds = 1e30;
  best.memcpy_repeated_seconds = best.nt_repeated_seconds = 1e30;
  if (reader != nullptr) best.read_seconds = 1e30;
  if (copy_lines) best.line_copy_seconds = 1e30;
  // Cold cache: before every timed call, every buffer (the operator's, both copies', the
  // copier's destination) is flushed, so all start from DRAM whatever their working set, and none
  // pays for writing back lines another left dirty. (A scratch write does not do this
  // reliably: glibc's memset of a large buffer bypasses the caches here, and a cold 8 MiB
  // memcpy then ran at 58 GB/s against 42 GB/s after a flush.)
  const auto flush_all = [&] {
    for (const Span& span : op_buffers) FlushFromCaches(span);
    FlushFromCaches({src.data(), copy_bytes});
    FlushFromCaches({memcpy_dst.data(), copy_bytes});
    FlushFromCaches({nt_dst.data(), copy_bytes});
    if (copy_lines) FlushFromCaches({line_dst.data(), line_dst.size_bytes()});
  };
  // The calls of a round, each with the fastest time it feeds (a pair feeds one time).
  struct Call {
    double* best_seconds;
    std::function<void()> run;
  };
  std::vector<Call> round_calls = {{&best.op_seconds, run_op},
                                   {&best.memcpy_seconds, run_memcpy},
                                   {&best.nt_seconds, run_nt}};
  if (reader != nullptr) {
    round_calls.push_back({&best.read_seconds, [&] { reader->Run(false); }});
    round_calls.push_back({&best.read_seconds, [&] { reader->Run(true); }});
  }
  if (copy_lines) {
    round_calls.push_back({&best.line_copy_seconds,
                           [&] { copier->CopyTo(line_dst.data(), /*streaming=*/false); }});
    round_calls.push_back({&best.line_copy_seconds,
                           [&] { copier->CopyTo(line_dst.data(), /*streaming=*/true); }});
  }
  // The order rotates every round, so that each call takes every position in turn. With the
  // reader's and the copier's calls a round takes calls / 3 times as long: the rounds run that
  // much longer, so that the operator and the copies keep their number of samples.
  const int calls = static_cast<int>(round_calls.size());
  const double rounds_seconds = min_seconds * calls / 3;
  auto begin = std::chrono::steady_clock::now();
  for (int round = 0; round < 6 || SecondsSince(begin) < rounds_seconds; ++round) {
    for (int slot = 0; slot < calls; ++slot) {
      const Call& call = round_calls[static_cast<size_t>((round + slot) % calls)];
      flush_all();
      *call.best_seconds = std::min(*call.best_seconds, TimeOnce(call.run));
    }
  }
  begin = std::chrono::steady_clock::now();
  for (int call = 0; call < 3 || SecondsSince(begin) < min_seconds / 2; ++call) {
    best.memcpy_repeated_seconds = std::min(best.memcpy_repeated_seconds, TimeOnce(run_memcpy));
  }
  run_nt();  // the memcpy loop left the source warm; one call to settle the NT destination
  begin = std::chrono::steady_clock::now();
  for (int call = 0; call < 3 || SecondsSince(begin) < min_seconds / 2; ++call) {
    best.nt_repeated_seconds = std::min(best.nt_repeated_seconds, TimeOnce(run_nt));
  }
  return best;
}

}  // namespace roofline
}  // namespace dmlcpu_bench
