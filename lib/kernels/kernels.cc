// Highway kernel sets: compiles kernels-inl.h once per SIMD target and picks among them at run
// time. See kernels-inl.h for what each kernel does on which path.
#include "kernels/kernels.h"

#include <cstdint>
#include <vector>

// Re-includes kernels-inl.h for every target in HWY_TARGETS except the static one, which the
// plain #include below compiles.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/kernels-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/targets.h"
#include "kernels/kernels-inl.h"

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

}  // namespace

const KernelSet& BestKernels() {
  // Thread-safe one-time initialisation; the dispatch itself is Highway's.
  static const KernelSet* const best = HWY_DYNAMIC_DISPATCH(GetKernelSet)();
  return *best;
}

std::vector<const KernelSet*> AllSupportedKernels() {
  std::vector<const KernelSet*> sets;
  // Lowest bit first, which is Highway's best-first order.
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    if (const KernelSet* set = KernelSetForTarget(target)) sets.push_back(set);
  }
  if (sets.empty()) sets.push_back(&BestKernels());
  return sets;
}

}  // namespace kernels
}  // namespace dmlcpu
#endif  // HWY_ONCE
