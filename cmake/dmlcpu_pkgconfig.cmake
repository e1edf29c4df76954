# SPDX-License-Identifier: Apache-2.0
# Generates and installs dmlcpu.pc (module name "dmlcpu"). With a relative libdir the paths are
# relative to the .pc file's own directory (${pcfiledir}), so `cmake --install --prefix <any>`
# yields a working file.
#
# Shared library: the dependencies are private (Requires.private / Libs.private; libdmlcpu.so
# names its own). Static library: every link needs them, so they are public (Requires / Libs),
# and `pkg-config --static` gives the same.
set(dmlcpu_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${dmlcpu_pc_dir}")
  set(dmlcpu_pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH dmlcpu_pc_up "/r/${dmlcpu_pc_dir}" "/r")
  string(REGEX REPLACE "/$" "" dmlcpu_pc_up "${dmlcpu_pc_up}")
  set(dmlcpu_pc_prefix "\${pcfiledir}/${dmlcpu_pc_up}")
endif()
foreach(kind libdir includedir)
  string(TOUPPER "${kind}" kind_upper)
  set(dir "${CMAKE_INSTALL_${kind_upper}}")
  if(IS_ABSOLUTE "${dir}")
    set(dmlcpu_pc_${kind} "${dir}")
  else()
    set(dmlcpu_pc_${kind} "\${prefix}/${dir}")
  endif()
endforeach()

set(dmlcpu_pc_cflags "")
set(dmlcpu_pc_deps "")
if(DMLCPU_PORTABLE)
  string(APPEND dmlcpu_pc_cflags " -DDMLCPU_NO_TBB")
elseif(NOT (WIN32 AND BUILD_SHARED_LIBS))  # dmlcpu.dll contains Highway and oneTBB
  set(dmlcpu_pc_deps "tbb libhwy")
endif()
if(BUILD_SHARED_LIBS)
  string(APPEND dmlcpu_pc_cflags " -DDMLCPU_SHARED")
endif()
if(WIN32)
  string(APPEND dmlcpu_pc_cflags " -DNOMINMAX")
endif()
# The C++ runtime and libm, for C programs that link the C ABI (dmlcpu.dll contains its own).
set(dmlcpu_pc_runtime "-lstdc++ -lm")
if(WIN32 AND BUILD_SHARED_LIBS)
  set(dmlcpu_pc_runtime "")
endif()
# A static library with the D3D12 backend: its system import libraries too.
if(DMLCPU_D3D12 AND NOT BUILD_SHARED_LIBS)
  string(APPEND dmlcpu_pc_runtime " -ld3d12 -ldxgi -ldxguid")
endif()
set(dmlcpu_pc_requires "")
if(BUILD_SHARED_LIBS)
  if(dmlcpu_pc_deps)
    set(dmlcpu_pc_requires "Requires.private: ${dmlcpu_pc_deps}")
  endif()
  set(dmlcpu_pc_libs "")
  set(dmlcpu_pc_libs_private "${dmlcpu_pc_runtime}")
else()
  if(dmlcpu_pc_deps)
    set(dmlcpu_pc_requires "Requires: ${dmlcpu_pc_deps}")
  endif()
  set(dmlcpu_pc_libs " ${dmlcpu_pc_runtime}")
  set(dmlcpu_pc_libs_private "")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/dmlcpu.pc.in" "${PROJECT_BINARY_DIR}/dmlcpu.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/dmlcpu.pc" DESTINATION "${dmlcpu_pc_dir}")
