// SPDX-License-Identifier: Apache-2.0
// The default thread count: the process's affinity mask capped by its cgroup CPU quota.
#include "executor/cpu_count.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>

#include <cerrno>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace dmlcpu {
namespace internal {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

// A decimal integer in [1, 2^62] filling all of `word`; 0 otherwise.
uint64_t PositiveInteger(const std::string& word) {
  if (word.empty() || word.size() > 18) return 0;
  uint64_t value = 0;
  for (char c : word) {
    if (c < '0' || c > '9') return 0;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

uint32_t CeilCpus(uint64_t quota, uint64_t period) {
  if (quota == 0 || period == 0) return 0;
  const uint64_t cpus = quota / period + (quota % period != 0 ? 1 : 0);
  return static_cast<uint32_t>(std::min<uint64_t>(cpus, UINT32_MAX));
}

#if defined(__linux__)
std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

uint32_t AffinityCount() {
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
    cpu_set_t* set = CPU_ALLOC(cpus);
    if (set == nullptr) break;
    const size_t set_bytes = CPU_ALLOC_SIZE(cpus);
    if (sched_getaffinity(0, set_bytes, set) == 0) {
      const int count = CPU_COUNT_S(set_bytes, set);
      CPU_FREE(set);
      return static_cast<uint32_t>(std::max(count, 1));
    }
    const int error = errno;
    CPU_FREE(set);
    if (error != EINVAL) break;  // EINVAL: more CPUs than the set holds
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// The tightest limit from the process's cgroup directory up to the hierarchy's mount point;
// `limit_in(directory)` reads one directory's (0 = none).
template <typename LimitIn>
uint32_t TightestLimit(const std::string& mountinfo, const std::string& proc_self_cgroup, bool v2,
                       const LimitIn& limit_in) {
  CgroupMount mount;
  if (!FindCgroupMount(mountinfo, v2, &mount)) return 0;
  std::string path = CgroupPath(proc_self_cgroup, v2);
  if (path.empty()) return 0;
  // Inside a cgroup namespace or a container the mount shows the hierarchy from `root` down.
  if (mount.root != "/" && path.compare(0, mount.root.size(), mount.root) == 0) {
    path.erase(0, mount.root.size());
  }
  uint32_t tightest = 0;
  while (true) {
    const uint32_t limit = limit_in(mount.mount_point + path);
    if (limit != 0 && (tightest == 0 || limit < tightest)) tightest = limit;
    const size_t slash = path.find_last_of('/');
    if (path.empty() || slash == std::string::npos) break;
    path.erase(slash);
  }
  return tightest;
}

uint32_t CgroupCpuLimit() {
  const std::string mountinfo = ReadText("/proc/self/mountinfo");
  const std::string self = ReadText("/proc/self/cgroup");
  const uint32_t v2 = TightestLimit(mountinfo, self, true, [](const std::string& directory) {
    return CpuLimitFromCgroupV2(ReadText(directory + "/cpu.max"));
  });
  const uint32_t v1 = TightestLimit(mountinfo, self, false, [](const std::string& directory) {
    return CpuLimitFromCgroupV1(ReadText(directory + "/cpu.cfs_quota_us"),
                                ReadText(directory + "/cpu.cfs_period_us"));
  });
  if (v2 == 0) return v1;
  return v1 == 0 ? v2 : std::min(v1, v2);
}
#endif  // __linux__

}  // namespace

uint32_t CpuLimitFromCgroupV2(const std::string& cpu_max) {
  const std::vector<std::string> words = Words(cpu_max);
  if (words.size() != 2) return 0;  // "max" alone, or not cpu.max
  return CeilCpus(PositiveInteger(words[0]), PositiveInteger(words[1]));
}

uint32_t CpuLimitFromCgroupV1(const std::string& cfs_quota_us, const std::string& cfs_period_us) {
  const std::vector<std::string> quota = Words(cfs_quota_us);
  const std::vector<std::string> period = Words(cfs_period_us);
  if (quota.size() != 1 || period.size() != 1) return 0;
  return CeilCpus(PositiveInteger(quota[0]), PositiveInteger(period[0]));  // "-1": no limit
}

std::string CgroupPath(const std::string& proc_self_cgroup, bool v2) {
  for (const std::string& line : Split(proc_self_cgroup, '\n')) {
    // "hierarchy-id:controller,list:/path" (the path may itself hold ':').
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string id = line.substr(0, first);
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    if (path.empty() || path[0] != '/') continue;
    if (path.size() > 1 && path.back() == '/') path.pop_back();
    if (path == "/") path.clear();  // the root: the mount point itself
    const bool is_v2 = id == "0" && controllers.empty();
    if (v2 && is_v2) return path.empty() ? "/" : path;
    if (!v2 && !is_v2) {
      for (const std::string& controller : Split(controllers, ',')) {
        if (controller == "cpu") return path.empty() ? "/" : path;
      }
    }
  }
  return "";
}

bool FindCgroupMount(const std::string& mountinfo, bool v2, CgroupMount* mount) {
  for (const std::string& line : Split(mountinfo, '\n')) {
    // "id parent major:minor root mount_point options [optional...] - fstype source super".
    const std::vector<std::string> words = Words(line);
    const auto dash = std::find(words.begin(), words.end(), "-");
    if (words.size() < 5 || dash == words.end() || words.end() - dash < 4) continue;
    const std::string& fstype = dash[1];
    if (v2 ? fstype != "cgroup2" : fstype != "cgroup") continue;
    if (!v2) {
      const std::vector<std::string> options = Split(dash[3], ',');
      if (std::find(options.begin(), options.end(), "cpu") == options.end()) continue;
    }
    mount->root = words[3];
    mount->mount_point = words[4];
    return true;
  }
  return false;
}

uint32_t ProcessCpuCount() {
#if defined(__linux__)
  const uint32_t affinity = AffinityCount();
  const uint32_t quota = CgroupCpuLimit();
  return quota == 0 ? affinity : std::max(1u, std::min(affinity, quota));
#elif defined(_WIN32)
  DWORD_PTR process_mask = 0;
  DWORD_PTR system_mask = 0;
  if (GetProcessAffinityMask(GetCurrentProcess(), &process_mask, &system_mask) &&
      process_mask != 0) {
    uint32_t count = 0;
    for (; process_mask != 0; process_mask &= process_mask - 1) ++count;
    return count;
  }
  return std::max(1u, std::thread::hardware_concurrency());
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

}  // namespace internal
}  // namespace dmlcpu
