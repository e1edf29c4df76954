# SPDX-License-Identifier: Apache-2.0
# Shared by the ctest driver scripts (cmake -P) that configure and build a small project against
# dmlcpu: tests/consumer/run_consumer.cmake and tests/subproject/run_subproject.cmake.

# Runs a command; a failure is a FATAL_ERROR (a failed test). Its stdout lands in step_output.
function(run_step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${name}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# Appends to `out_var` the configure arguments that make the inner project build as the outer
# one does: generator, compilers and flags (so sanitizer presets configure and link alike).
# Reads the script's GENERATOR, C_COMPILER, CXX_COMPILER, C_FLAGS, CXX_FLAGS, EXE_LINKER_FLAGS and
# TOOLCHAIN_FILE (cross builds).
function(append_toolchain_args out_var)
  set(args ${${out_var}}
      "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
      "-DCMAKE_EXE_LINKER_FLAGS=${EXE_LINKER_FLAGS}")
  if(GENERATOR)
    list(APPEND args -G "${GENERATOR}")
  endif()
  if(TOOLCHAIN_FILE)
    list(APPEND args "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}")
  endif()
  if(C_COMPILER)
    list(APPEND args "-DCMAKE_C_COMPILER=${C_COMPILER}")
  endif()
  if(CXX_COMPILER)
    list(APPEND args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  set(${out_var} ${args} PARENT_SCOPE)
endfunction()

# Runs a program the inner project built: directly, or through EMULATOR (cross builds: wine),
# with WINEPATH naming `dll_dir` so a Windows program finds dmlcpu.dll. Output in step_output.
function(run_program name program dll_dir)
  if(EMULATOR)
    run_step("${name}" "${CMAKE_COMMAND}" -E env "WINEPATH=${dll_dir}" ${EMULATOR} "${program}")
  else()
    run_step("${name}" "${program}")
  endif()
  set(step_output "${step_output}" PARENT_SCOPE)
endfunction()
