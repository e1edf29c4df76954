// SPDX-License-Identifier: Apache-2.0
// dmlcpu — opt-in oneTBB integration: run a Device's parallel work inside the caller's
// tbb::task_arena. The only public header that includes oneTBB.
//
//   tbb::task_arena arena(4);
//   dmlcpu::DeviceOptions options;
//   dmlcpu::SetTbbArena(options, &arena);  // must outlive the Device and its operators
//   dmlcpu::Device device(options);
#ifndef DMLCPU_TBB_H_
#define DMLCPU_TBB_H_

#include "dmlcpu/dmlcpu.h"

#if defined(DMLCPU_NO_TBB)
// Portable builds have no oneTBB: the setter stays declared so code compiles unchanged, and the
// arena must be null there.
namespace tbb {
class task_arena;
}  // namespace tbb
#else
#include <oneapi/tbb/task_arena.h>
#endif

namespace dmlcpu {

// Stores `arena` (null = none) in options.tbb_arena.
inline void SetTbbArena(DeviceOptions& options, tbb::task_arena* arena) {
  options.tbb_arena = reinterpret_cast<TbbArenaHandle*>(arena);
}

// The arena SetTbbArena stored, or null.
inline tbb::task_arena* GetTbbArena(const DeviceOptions& options) {
  return reinterpret_cast<tbb::task_arena*>(options.tbb_arena);
}

}  // namespace dmlcpu

#endif  // DMLCPU_TBB_H_
