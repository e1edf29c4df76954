// SPDX-License-Identifier: Apache-2.0
// Page-level memory for tests, on POSIX (mmap) and Windows (VirtualAlloc): zero-filled mappings
// backed lazily (only touched pages cost memory) and inaccessible guard pages.
#ifndef DMLCPU_TESTS_SUPPORT_VIRTUAL_MEMORY_H_
#define DMLCPU_TESTS_SUPPORT_VIRTUAL_MEMORY_H_

#include <cstddef>
#include <cstdint>

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dmlcpu_test {

inline size_t PageBytes() {
#if defined(_WIN32)
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwPageSize;
#else
  return static_cast<size_t>(sysconf(_SC_PAGESIZE));
#endif
}

// `bytes` of zero-filled read-write memory, pages backed on first touch; null on failure.
inline uint8_t* MapZeroed(size_t bytes) {
#if defined(_WIN32)
  return static_cast<uint8_t*>(VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT,
                                            PAGE_READWRITE));
#else
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
#endif
}

// Releases a MapZeroed(bytes) mapping.
inline void Unmap(uint8_t* p, size_t bytes) {
#if defined(_WIN32)
  (void)bytes;
  VirtualFree(p, 0, MEM_RELEASE);
#else
  munmap(p, bytes);
#endif
}

// Makes whole pages [p, p + bytes) of a MapZeroed mapping inaccessible; false on failure.
inline bool ProtectNone(uint8_t* p, size_t bytes) {
#if defined(_WIN32)
  DWORD old_protection;
  return VirtualProtect(p, bytes, PAGE_NOACCESS, &old_protection) != 0;
#else
  return mprotect(p, bytes, PROT_NONE) == 0;
#endif
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_VIRTUAL_MEMORY_H_
