// SPDX-License-Identifier: Apache-2.0
// How many CPUs this process may run on: its affinity mask, capped by its cgroup CPU quota.
// The default thread count of a Device (DeviceOptions::max_threads = 0).
#ifndef DMLCPU_EXECUTOR_CPU_COUNT_H_
#define DMLCPU_EXECUTOR_CPU_COUNT_H_

#include <cstdint>
#include <string>

namespace dmlcpu {
namespace internal {

// CPUs a cgroup v2 cpu.max ("$MAX $PERIOD", e.g. "150000 100000") allows: ceil(max / period);
// 0 for "max ..." (no limit) and for text that does not parse.
uint32_t CpuLimitFromCgroupV2(const std::string& cpu_max);

// CPUs a cgroup v1 pair allows: ceil(cfs_quota_us / cfs_period_us); 0 for quota -1 (no limit)
// and for text that does not parse.
uint32_t CpuLimitFromCgroupV1(const std::string& cfs_quota_us, const std::string& cfs_period_us);

// The cgroup of this process from /proc/self/cgroup's text: the v2 entry ("0::/path") when
// `v2`, else the path of the v1 hierarchy whose controller list holds "cpu"; "" when absent.
std::string CgroupPath(const std::string& proc_self_cgroup, bool v2);

// Where a cgroup hierarchy is mounted, from /proc/self/mountinfo's text: the cgroup2 mount when
// `v2`, else the v1 mount whose super options hold "cpu". False when there is none.
struct CgroupMount {
  std::string root;         // the hierarchy's directory shown at mount_point ("/" usually)
  std::string mount_point;  // e.g. "/sys/fs/cgroup" or "/sys/fs/cgroup/cpu,cpuacct"
};
bool FindCgroupMount(const std::string& mountinfo, bool v2, CgroupMount* mount);

// The CPUs this process may run on (>= 1): the affinity mask (Linux sched_getaffinity, Windows
// GetProcessAffinityMask, else std::thread::hardware_concurrency), capped by the tightest
// cgroup CPU quota on the path from the process's cgroup to the root (Linux, v2 or v1).
uint32_t ProcessCpuCount();

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_CPU_COUNT_H_
