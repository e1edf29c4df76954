# SPDX-License-Identifier: Apache-2.0
# Cross-compiling for 64-bit Windows with Debian's mingw-w64 (posix thread model, for
# std::thread / std::mutex). Executables and dmlcpu.dll link the C++ runtime, libgcc and
# winpthread statically, so they need only Windows system DLLs (docs/windows.md).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
# Highway, oneTBB, GoogleTest and Google Benchmark built for this target by
# scripts/setup_mingw_deps.sh (override with -DDMLCPU_MINGW_DEPS=<prefix>).
set(DMLCPU_MINGW_DEPS "${CMAKE_CURRENT_LIST_DIR}/../.cache/mingw-deps/prefix"
    CACHE PATH "Prefix of the mingw builds of dmlcpu's dependencies")
if(EXISTS "${DMLCPU_MINGW_DEPS}")
  list(APPEND CMAKE_FIND_ROOT_PATH "${DMLCPU_MINGW_DEPS}")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# GCC for x86_64 Windows cannot align stack slots beyond 16 bytes (GCC bug 54412), yet emits
# aligned AVX/AVX-512 moves for 32/64-byte spills; the assembler rewrites every aligned vector
# move as its unaligned twin, which is as fast on aligned data (docs/windows.md#avx-and-the-stack).
set(CMAKE_C_FLAGS_INIT "-Wa,-muse-unaligned-vector-move")
set(CMAKE_CXX_FLAGS_INIT "-Wa,-muse-unaligned-vector-move")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
# ctest and gtest_discover_tests run the Windows programs through wine (cmake/wine_run.sh sources
# the environment scripts/setup_wine.sh writes).
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/wine_run.sh")
