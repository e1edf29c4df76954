# SPDX-License-Identifier: Apache-2.0
# Windows shared build (docs/windows.md): dmlcpu.dll with the GNU import library dmlcpu.dll.a
# (mingw), plus, for MSVC users, dmlcpu.def (the C ABI's exports) and the import library
# dmlcpu.lib made from it. The C++ runtime, libgcc and winpthread are linked into the DLL (the
# toolchain file's -static), and so are Highway and oneTBB.
set_target_properties(dmlcpu PROPERTIES PREFIX "" IMPORT_PREFIX "")
set(dmlcpu_all_def "${CMAKE_CURRENT_BINARY_DIR}/dmlcpu-all-exports.def")
set(dmlcpu_def "${CMAKE_CURRENT_BINARY_DIR}/dmlcpu.def")
set(dmlcpu_msvc_lib "${CMAKE_CURRENT_BINARY_DIR}/dmlcpu.lib")
# Exports: dmlcpu's DMLCPU_API only, none of the static libraries' (oneTBB marks its own).
target_link_options(dmlcpu PRIVATE "LINKER:--output-def,${dmlcpu_all_def}"
                    "LINKER:--exclude-libs,ALL")
# MSVC-style (short) import library when llvm-dlltool is there; binutils' dlltool otherwise.
find_program(DMLCPU_DLLTOOL NAMES llvm-dlltool llvm-dlltool-14 x86_64-w64-mingw32-dlltool
             REQUIRED)
if(DMLCPU_DLLTOOL MATCHES "llvm-dlltool")
  set(dmlcpu_dlltool_args -m i386:x86-64 -d "${dmlcpu_def}" -l "${dmlcpu_msvc_lib}" -D dmlcpu.dll)
else()
  set(dmlcpu_dlltool_args -d "${dmlcpu_def}" -l "${dmlcpu_msvc_lib}" -D dmlcpu.dll)
endif()
add_custom_command(TARGET dmlcpu POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DIN=${dmlcpu_all_def} -DOUT=${dmlcpu_def}
          -P ${CMAKE_CURRENT_LIST_DIR}/dmlcpu_c_def.cmake
  COMMAND ${DMLCPU_DLLTOOL} ${dmlcpu_dlltool_args}
  BYPRODUCTS ${dmlcpu_def} ${dmlcpu_msvc_lib}
  COMMENT "dmlcpu.def and dmlcpu.lib (the C ABI, for MSVC)"
  VERBATIM)
if(DMLCPU_INSTALL)
  install(FILES ${dmlcpu_def} ${dmlcpu_msvc_lib} DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
