// SPDX-License-Identifier: Apache-2.0
// Replays every file of tests/fuzz/regressions/<fuzzer>/ and tests/fuzz/corpus/<fuzzer>/ through
// the fuzz harnesses (fuzz_harness.h) without libFuzzer, so the normal release and asan builds
// keep every past finding and the seed corpus green. A finding aborts the test process.
#include <dirent.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "gtest/gtest.h"

namespace {

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.empty() || name[0] == '.' || name == "README.md") continue;
      files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

size_t Replay(const std::string& fuzzer, void (*harness)(const uint8_t*, size_t)) {
  size_t count = 0;
  for (const char* kind : {"regressions", "corpus"}) {
    for (const std::string& path :
         FilesIn(std::string(DMLCPU_FUZZ_DIR) + "/" + kind + "/" + fuzzer)) {
      SCOPED_TRACE(path);
      const std::vector<uint8_t> bytes = ReadFile(path);
      harness(bytes.data(), bytes.size());
      ++count;
    }
  }
  return count;
}

TEST(FuzzRegressionTest, CompileFuzzerInputs) {
  EXPECT_GT(Replay("compile_fuzzer", dmlcpu_fuzz::CompileFuzzOne), 0u);
}

TEST(FuzzRegressionTest, ExecuteFuzzerInputs) {
  EXPECT_GT(Replay("execute_fuzzer", dmlcpu_fuzz::ExecuteFuzzOne), 0u);
}

// Degenerate inputs: empty and all-0xFF, at a few lengths.
TEST(FuzzRegressionTest, DegenerateInputs) {
  for (size_t n : {0, 1, 7, 64, 512}) {
    const std::vector<uint8_t> zeros(n, 0), ones(n, 0xFF);
    dmlcpu_fuzz::CompileFuzzOne(zeros.data(), zeros.size());
    dmlcpu_fuzz::CompileFuzzOne(ones.data(), ones.size());
    dmlcpu_fuzz::ExecuteFuzzOne(zeros.data(), zeros.size());
    dmlcpu_fuzz::ExecuteFuzzOne(ones.data(), ones.size());
  }
}

}  // namespace
