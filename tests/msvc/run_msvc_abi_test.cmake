# SPDX-License-Identifier: Apache-2.0
# ctest driver (cmake -P) for tests/msvc/msvc_abi_test.c: compiles it for the MSVC ABI with clang
# (--target=x86_64-pc-windows-msvc, no C runtime), links it with lld-link (link.exe's command
# line) against the build's dmlcpu.lib and a kernel32 import library made here, and runs it under
# EMULATOR (wine) with only dmlcpu.dll beside it. Stands in for an MSVC application: MSVC itself
# does not run on these machines. Needs clang-14, lld-14 and llvm-14 (scripts/setup_mingw_deps.sh).
#
# Variables (-D...): SOURCE_DIR, WORK_DIR, IMPORT_LIB (dmlcpu.lib), DLL (dmlcpu.dll), EMULATOR.
cmake_minimum_required(VERSION 3.25)

foreach(required SOURCE_DIR WORK_DIR IMPORT_LIB DLL)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "run_msvc_abi_test.cmake: ${required} is not set")
  endif()
endforeach()
foreach(tool clang lld-link llvm-dlltool)
  string(MAKE_C_IDENTIFIER "${tool}" var)
  find_program(${var} NAMES ${tool}-14 ${tool})
  if(NOT ${var})
    message(FATAL_ERROR "run_msvc_abi_test.cmake: ${tool} not found (apt-get install clang-14 "
                        "lld-14 llvm-14; scripts/setup_mingw_deps.sh installs them)")
  endif()
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/../cmake/driver_helpers.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(COPY "${DLL}" DESTINATION "${WORK_DIR}")

run_step("compile (clang, MSVC ABI)" "${clang}" --target=x86_64-pc-windows-msvc -std=c11 -O1
         -Wall -Wextra -Werror -ffreestanding -fno-builtin -DDMLCPU_SHARED
         "-I${SOURCE_DIR}/include" -c "${SOURCE_DIR}/tests/msvc/msvc_abi_test.c"
         -o "${WORK_DIR}/msvc_abi_test.obj")
file(WRITE "${WORK_DIR}/kernel32.def"
     "LIBRARY kernel32.dll\nEXPORTS\nGetStdHandle\nWriteFile\nExitProcess\n")
run_step("kernel32.lib" "${llvm_dlltool}" -m i386:x86-64 -d "${WORK_DIR}/kernel32.def"
         -l "${WORK_DIR}/kernel32.lib" -D kernel32.dll)
run_step("link (lld-link)" "${lld_link}" /nologo /entry:Start /subsystem:console /nodefaultlib
         "/out:${WORK_DIR}/msvc_abi_test.exe" "${WORK_DIR}/msvc_abi_test.obj" "${IMPORT_LIB}"
         "${WORK_DIR}/kernel32.lib")
run_program("msvc_abi_test.exe" "${WORK_DIR}/msvc_abi_test.exe" "${WORK_DIR}")
message(STATUS "${step_output}")
if(NOT step_output MATCHES " [1-9][0-9]* passed, 0 failed")
  message(FATAL_ERROR "msvc_abi_test: no passing summary:\n${step_output}")
endif()
