# SPDX-License-Identifier: Apache-2.0
# ctest driver for the find_package consumer (cmake -P). Installs the already-built dmlcpu from
# BINARY_DIR into WORK_DIR/prefix, configures and builds tests/consumer against that prefix, and
# runs both consumer executables; then links main.c with nothing but the compiler and
# `pkg-config --cflags --libs dmlcpu` (and --static) against the installed dmlcpu.pc and runs
# it. Any failing step is a FATAL_ERROR (a failed test).
#
# Variables (-D...): SOURCE_DIR, BINARY_DIR, WORK_DIR, LIBDIR (required); BUILD_TYPE, GENERATOR,
# C_COMPILER, CXX_COMPILER, C_FLAGS, CXX_FLAGS, EXE_LINKER_FLAGS, TOOLCHAIN_FILE (optional,
# forwarded so that sanitizer and cross builds configure and link the consumer the same way as
# the library); EMULATOR (cross builds: runs the programs, under wine for Windows).
cmake_minimum_required(VERSION 3.25)

foreach(required SOURCE_DIR BINARY_DIR WORK_DIR LIBDIR)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${required} is not set")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/../cmake/driver_helpers.cmake")

# 1. Install.
run_step("install" "${CMAKE_COMMAND}" --install "${BINARY_DIR}" --prefix "${prefix}"
         --config "${BUILD_TYPE}")
if(NOT EXISTS "${prefix}/include/dmlcpu/dmlcpu.h")
  message(FATAL_ERROR "install did not put include/dmlcpu/dmlcpu.h under ${prefix}")
endif()

# 2. Configure the consumer against the prefix only.
set(configure_args -S "${SOURCE_DIR}/tests/consumer" -B "${consumer_build}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
)
append_toolchain_args(configure_args)
run_step("configure consumer" "${CMAKE_COMMAND}" ${configure_args})

# The package must have come from the prefix, not from the build tree or the system.
file(STRINGS "${consumer_build}/CMakeCache.txt" dmlcpu_dir_line REGEX "^dmlcpu_DIR:")
string(REGEX REPLACE "^dmlcpu_DIR:[A-Z]+=" "" dmlcpu_dir "${dmlcpu_dir_line}")
file(REAL_PATH "${prefix}" real_prefix)
file(REAL_PATH "${dmlcpu_dir}" real_dmlcpu_dir)
string(FIND "${real_dmlcpu_dir}" "${real_prefix}/" position)
if(NOT position EQUAL 0)
  message(FATAL_ERROR "dmlcpu was found at '${dmlcpu_dir}', not under '${prefix}'")
endif()

# 3. Build.
run_step("build consumer" "${CMAKE_COMMAND}" --build "${consumer_build}" --config "${BUILD_TYPE}")

# 4. Run both executables (single- and multi-config layouts).
foreach(exe consumer_cxx consumer_c)
  set(path "")
  foreach(candidate "${consumer_build}/${exe}" "${consumer_build}/${BUILD_TYPE}/${exe}"
                    "${consumer_build}/${exe}.exe" "${consumer_build}/${BUILD_TYPE}/${exe}.exe")
    if(path STREQUAL "" AND EXISTS "${candidate}")
      set(path "${candidate}")
    endif()
  endforeach()
  if(path STREQUAL "")
    message(FATAL_ERROR "${exe} was not built under ${consumer_build}")
  endif()
  run_program("run ${exe}" "${path}" "${prefix}/bin")
  message(STATUS "${step_output}")
endforeach()

# 5. pkg-config: a plain compiler line, shared-style and --static.
find_program(PKG_CONFIG_EXECUTABLE NAMES pkgconf pkg-config)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(FATAL_ERROR "pkg-config (or pkgconf) is not installed: apt-get install -y pkgconf")
endif()
if(NOT C_COMPILER)
  set(C_COMPILER cc)
endif()
set(pc_dir "${prefix}/${LIBDIR}/pkgconfig")
if(NOT EXISTS "${pc_dir}/dmlcpu.pc")
  message(FATAL_ERROR "install did not put dmlcpu.pc under ${pc_dir}")
endif()
run_step("pkg-config --modversion" "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pc_dir}"
         "${PKG_CONFIG_EXECUTABLE}" --modversion dmlcpu)
string(STRIP "${step_output}" pc_version)
file(STRINGS "${prefix}/include/dmlcpu/version.h" version_line
     REGEX "^#define DMLCPU_VERSION_STRING ")
if(NOT version_line MATCHES "\"${pc_version}\"")
  message(FATAL_ERROR "dmlcpu.pc says ${pc_version}, version.h says '${version_line}'")
endif()
separate_arguments(c_flags_list UNIX_COMMAND "${C_FLAGS}")
separate_arguments(linker_flags_list UNIX_COMMAND "${EXE_LINKER_FLAGS}")
foreach(mode plain static)
  set(pc_args --cflags --libs dmlcpu)
  if(mode STREQUAL "static")
    list(PREPEND pc_args --static)
  endif()
  string(REPLACE ";" " " pc_args_text "${pc_args}")
  run_step("pkg-config ${pc_args_text}" "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pc_dir}"
           "${PKG_CONFIG_EXECUTABLE}" ${pc_args})
  string(STRIP "${step_output}" pc_flags)
  message(STATUS "  ${pc_flags}")
  separate_arguments(pc_flags_list UNIX_COMMAND "${pc_flags}")
  set(exe "${WORK_DIR}/consumer_pc_${mode}")
  run_step("${C_COMPILER} main.c $(pkg-config ${pc_args_text})" "${C_COMPILER}" -std=c99
           ${c_flags_list} "${SOURCE_DIR}/tests/consumer/main.c" -o "${exe}" ${pc_flags_list}
           ${linker_flags_list})
  if(EXISTS "${exe}.exe")  # mingw's gcc adds the suffix
    set(exe "${exe}.exe")
  endif()
  run_program("run consumer_pc_${mode}" "${exe}" "${prefix}/bin")
  message(STATUS "${step_output}")
endforeach()
