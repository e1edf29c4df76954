# SPDX-License-Identifier: Apache-2.0
# ctest driver (cmake -P): configures tests/subproject (which add_subdirectory()s SOURCE_DIR)
# with GoogleTest and Google Benchmark made unfindable and no build type, builds it and runs
# both programs. Any failing step is a FATAL_ERROR (a failed test).
#
# Variables (-D...): SOURCE_DIR, WORK_DIR (required); GENERATOR, C_COMPILER, CXX_COMPILER,
# C_FLAGS, CXX_FLAGS, EXE_LINKER_FLAGS (optional, forwarded by append_toolchain_args).
cmake_minimum_required(VERSION 3.25)

foreach(required SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "run_subproject.cmake: ${required} is not set")
  endif()
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/../cmake/driver_helpers.cmake")

set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(configure_args -S "${SOURCE_DIR}/tests/subproject" -B "${build}"
    "-DDMLCPU_SOURCE_DIR=${SOURCE_DIR}"
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
)
append_toolchain_args(configure_args)
# No CMAKE_BUILD_TYPE, from the command line or the environment: dmlcpu must not set one.
set(ENV{CMAKE_BUILD_TYPE} "")
run_step("configure parent" "${CMAKE_COMMAND}" ${configure_args})
file(STRINGS "${build}/CMakeCache.txt" build_type_line REGEX "^CMAKE_BUILD_TYPE:")
if(NOT build_type_line MATCHES "^CMAKE_BUILD_TYPE:[A-Z]+=$")
  message(FATAL_ERROR "the parent's cache says '${build_type_line}', expected an empty build type")
endif()

run_step("build parent" "${CMAKE_COMMAND}" --build "${build}" --parallel 2
         --target parent_c parent_cxx)
foreach(exe parent_cxx parent_c)
  set(path "${build}/${exe}")
  if(EXISTS "${path}.exe")
    set(path "${path}.exe")
  endif()
  run_program("run ${exe}" "${path}" "${build}")
  message(STATUS "${step_output}")
endforeach()
