# SPDX-License-Identifier: Apache-2.0
# Dependency discovery for dmlcpu. Everything comes from the system (Debian 12 packages:
# libhwy-dev, libtbb-dev, libgtest-dev, libbenchmark-dev), found in CONFIG mode. No source is
# vendored and nothing is downloaded: if a package is missing, configuration stops with the
# apt-get line that installs it.
function(dmlcpu_require package target debian_package)
  find_package(${package} CONFIG QUIET)
  if(NOT TARGET ${target})
    message(FATAL_ERROR
      "dmlcpu needs ${package} (CMake target ${target}). On Debian 12: "
      "apt-get install -y ${debian_package}  (or run ./scripts/deps.sh)")
  endif()
endfunction()

if(NOT DMLCPU_PORTABLE)
  # A static oneTBB's package (Windows builds) names Threads::Threads without finding it.
  find_package(Threads REQUIRED)
  dmlcpu_require(hwy hwy::hwy libhwy-dev)
  dmlcpu_require(TBB TBB::tbb libtbb-dev)
endif()
if(DMLCPU_BUILD_TESTS)
  dmlcpu_require(GTest GTest::gtest_main libgtest-dev)
endif()
if(DMLCPU_BUILD_BENCHMARKS)
  dmlcpu_require(benchmark benchmark::benchmark libbenchmark-dev)
endif()
