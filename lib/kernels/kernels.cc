// SPDX-License-Identifier: Apache-2.0
// Highway kernel sets: compiles the kernel families (copy-inl.h, frame-inl.h, gather-inl.h,
// index-inl.h, transpose-inl.h) once per SIMD target, builds each target's KernelSet and picks
// among them at run time. See the family headers for what each kernel does on which path.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

// Re-includes this file for every target in HWY_TARGETS except the static one, which the plain
// #include of hwy/highway.h below selects for the rest of this pass.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/targets.h"
#include "kernels/copy-inl.h"
#include "kernels/frame-inl.h"
#include "kernels/gather-inl.h"
#include "kernels/index-inl.h"
#include "kernels/kernels.h"
#include "kernels/transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

// ------------------------------ The set for this target

// One GatherRow per index type, in IndexType order.
#define DMLCPU_GATHER_ROWS(T, kStream)                                           \
  {                                                                              \
    &GatherRow<T, int32_t, kStream>, &GatherRow<T, uint32_t, kStream>,           \
        &GatherRow<T, int64_t, kStream>, &GatherRow<T, uint64_t, kStream>        \
  }

const KernelSet* GetKernelSet() {
  static const KernelSet kSet = {
      hwy::TargetName(HWY_TARGET),
      &CopyBytes,
      &CopyBytesStream,
      &CopyBytesStreamUnfenced,
      {&CopyStrided<uint8_t>, &CopyStrided<uint16_t>, &CopyStrided<uint32_t>,
       &CopyStrided<uint64_t>},
      {&CopyStridedStream<uint8_t>, &CopyStridedStream<uint16_t>, &CopyStridedStream<uint32_t>,
       &CopyStridedStream<uint64_t>},
      {&Gather<uint8_t>, &Gather<uint16_t>, &Gather<uint32_t>, &Gather<uint64_t>},
      {&Resolve<int32_t>, &Resolve<uint32_t>, &Resolve<int64_t>, &Resolve<uint64_t>},
      {&FindOutOfRange<int32_t>, &FindOutOfRange<uint32_t>, &FindOutOfRange<int64_t>,
       &FindOutOfRange<uint64_t>},
      &GatherBlocks,
      &FrameRows,
      {&TransposeTile<uint8_t, false>, &TransposeTile<uint16_t, false>,
       &TransposeTile<uint32_t, false>, &TransposeTile<uint64_t, false>},
      {&TransposeTile<uint8_t, true>, &TransposeTile<uint16_t, true>,
       &TransposeTile<uint32_t, true>, &TransposeTile<uint64_t, true>},
      {DMLCPU_GATHER_ROWS(uint8_t, false), DMLCPU_GATHER_ROWS(uint16_t, false),
       DMLCPU_GATHER_ROWS(uint32_t, false), DMLCPU_GATHER_ROWS(uint64_t, false)},
      {DMLCPU_GATHER_ROWS(uint8_t, true), DMLCPU_GATHER_ROWS(uint16_t, true),
       DMLCPU_GATHER_ROWS(uint32_t, true), DMLCPU_GATHER_ROWS(uint64_t, true)},
  };
  return &kSet;
}

#undef DMLCPU_GATHER_ROWS
#undef DMLCPU_KERNELS_HAVE_VECTORS

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dmlcpu {
namespace kernels {

// GetKernelSetHighwayDispatchTable: one GetKernelSet per compiled target.
HWY_EXPORT(GetKernelSet);

namespace {

// The GetKernelSet compiled for `target` (one HWY_* bit of HWY_TARGETS), looked up the way
// HWY_DYNAMIC_DISPATCH looks up the best one.
const KernelSet* KernelSetForTarget(int64_t target) {
#if (HWY_TARGETS & (HWY_TARGETS - 1)) == 0
  // A single compiled target: HWY_EXPORT made a one-entry table.
  (void)target;
  return HWY_DISPATCH_TABLE(GetKernelSet)[0]();
#else
  hwy::ChosenTarget chosen;
  chosen.Update(target);
  const auto get = HWY_DISPATCH_TABLE(GetKernelSet)[chosen.GetIndex()];
  return get == nullptr ? nullptr : get();
#endif
}

// DMLCPU_HWY_TARGETS (docs/windows.md#forcing-a-simd-target): a list of Highway target names
// (e.g. "AVX2" or "AVX3,SSE4") limits dispatch to those. Aborts when none of them is compiled
// in and supported by this CPU, so a forced-target test run can never test another target.
void ApplyTargetLimit() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* list = std::getenv("DMLCPU_HWY_TARGETS");
    if (list == nullptr || *list == '\0') return;
    int64_t allowed = 0;
    const std::string names = std::string(",") + list + ",";
    for (int64_t rest = HWY_TARGETS; rest != 0; rest &= rest - 1) {
      const int64_t target = rest & -rest;
      const std::string name = std::string(",") + hwy::TargetName(target) + ",";
      if (names.find(name) != std::string::npos) allowed |= target;
    }
    if ((allowed & hwy::SupportedTargets()) == 0) {
      std::fprintf(stderr, "dmlcpu: DMLCPU_HWY_TARGETS=%s names no target that is compiled in "
                           "and supported by this CPU\n", list);
      std::abort();
    }
    hwy::DisableTargets(~allowed);
  });
}

// The sets of every target compiled in, supported and allowed by DMLCPU_HWY_TARGETS, best first
// (lowest bit first, Highway's order); empty only if none of them has a table entry.
std::vector<const KernelSet*> AllowedSets() {
  ApplyTargetLimit();
  std::vector<const KernelSet*> sets;
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    if (const KernelSet* set = KernelSetForTarget(target)) sets.push_back(set);
  }
  return sets;
}

}  // namespace

const KernelSet& BestKernels() {
  // Thread-safe one-time initialisation. The best allowed set is looked up directly: in Highway
  // 1.0.3 a SupportedTargets() call re-chooses the dispatch target without the DisableTargets
  // mask, so HWY_DYNAMIC_DISPATCH may run a target the limit excludes.
  static const KernelSet* const best = [] {
    const std::vector<const KernelSet*> sets = AllowedSets();
    return sets.empty() ? HWY_DYNAMIC_DISPATCH(GetKernelSet)() : sets.front();
  }();
  return *best;
}

std::vector<const KernelSet*> AllSupportedKernels() {
  std::vector<const KernelSet*> sets = AllowedSets();
  if (sets.empty()) sets.push_back(&BestKernels());
  return sets;
}

}  // namespace kernels
}  // namespace dmlcpu
#endif  // HWY_ONCE
