# SPDX-License-Identifier: Apache-2.0
# ctest driver (cmake -P) for the Windows build (docs/windows.md#what-is-verified):
#   - every DLL that FILES import is a Windows system DLL (SYSTEM_DLLS, a list of lowercase
#     names) or, for programs, dmlcpu.dll: no libstdc++-6.dll, libgcc_s_seh-1.dll,
#     libwinpthread-1.dll, tbb12.dll;
#   - no instruction in them moves a ymm/zmm register with an aligned move (vmovdqa*, vmovaps,
#     vmovapd): GCC for x86_64 Windows may emit those for 32/64-byte stack slots it cannot
#     align; -Wa,-muse-unaligned-vector-move rewrites them (docs/windows.md#avx-and-the-stack);
#   - REQUIRE_ZMM: the AVX-512 (AVX3) kernels are compiled in (zmm instructions exist in FILES).
# Variables: OBJDUMP, FILES and SYSTEM_DLLS ('|'-separated), REQUIRE_ZMM (bool).
cmake_minimum_required(VERSION 3.25)
set(total_zmm_count 0)
string(REPLACE "|" ";" FILES "${FILES}")
string(REPLACE "|" ";" SYSTEM_DLLS "${SYSTEM_DLLS}")
foreach(file IN LISTS FILES)
  get_filename_component(name "${file}" NAME)
  execute_process(COMMAND "${OBJDUMP}" -p "${file}" OUTPUT_VARIABLE headers RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -p ${file} failed (${rc})")
  endif()
  string(REGEX MATCHALL "DLL Name: [^\n]+" imports "${headers}")
  set(names "")
  foreach(line IN LISTS imports)
    string(REGEX REPLACE "^DLL Name: " "" dll "${line}")
    string(STRIP "${dll}" dll)
    string(TOLOWER "${dll}" dll)
    list(APPEND names "${dll}")
    if(NOT dll IN_LIST SYSTEM_DLLS AND NOT (dll STREQUAL "dmlcpu.dll" AND
                                            NOT name STREQUAL "dmlcpu.dll"))
      message(FATAL_ERROR "${name} imports ${dll}, not a Windows system DLL")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES names)
  message(STATUS "${name} imports only Windows system DLLs: ${names}")

  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${file}"
                  OUTPUT_VARIABLE disassembly RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${file} failed (${rc})")
  endif()
  string(REGEX MATCHALL "\tvmov(dqa|dqa32|dqa64|aps|apd) [^\n]*%[yz]mm[^\n]*" aligned
         "${disassembly}")
  list(LENGTH aligned aligned_count)
  if(aligned_count GREATER 0)
    list(GET aligned 0 first)
    message(FATAL_ERROR "${name}: ${aligned_count} aligned ymm/zmm moves, e.g. '${first}'")
  endif()
  string(REGEX MATCHALL "%zmm[0-9]+" zmm "${disassembly}")
  string(REGEX MATCHALL "%ymm[0-9]+" ymm "${disassembly}")
  list(LENGTH zmm zmm_count)
  list(LENGTH ymm ymm_count)
  message(STATUS "${name}: no aligned ymm/zmm move; ${ymm_count} ymm and ${zmm_count} zmm "
                 "operands")
  math(EXPR total_zmm_count "${total_zmm_count} + ${zmm_count}")
endforeach()
if(REQUIRE_ZMM AND total_zmm_count EQUAL 0)
  message(FATAL_ERROR "no zmm instruction in ${FILES}: the AVX3 kernels are not compiled in")
endif()
