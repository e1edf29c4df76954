// SPDX-License-Identifier: Apache-2.0
// The default thread count's parsing of cgroup files, /proc/self/cgroup and mountinfo, and the
// count itself against the affinity mask.
#include "executor/cpu_count.h"

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sched.h>
#endif

namespace dmlcpu {
namespace internal {
namespace {

TEST(CpuCountTest, CgroupV2CpuMax) {
  EXPECT_EQ(CpuLimitFromCgroupV2("max 100000\n"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("max"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("150000 100000\n"), 2u);
  EXPECT_EQ(CpuLimitFromCgroupV2("100000 100000"), 1u);
  EXPECT_EQ(CpuLimitFromCgroupV2("50000 100000"), 1u);  // half a CPU: still one thread
  EXPECT_EQ(CpuLimitFromCgroupV2("400000 100000"), 4u);
  EXPECT_EQ(CpuLimitFromCgroupV2("400001 100000"), 5u);
  // Not cpu.max: ignored.
  EXPECT_EQ(CpuLimitFromCgroupV2(""), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("garbage"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("150000"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("150000 0"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("0 100000"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("-5 100000"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("15x 100000"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("150000 100000 7"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV2("99999999999999999999999 100000"), 0u);
}

TEST(CpuCountTest, CgroupV1Quota) {
  EXPECT_EQ(CpuLimitFromCgroupV1("-1\n", "100000\n"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV1("200000\n", "100000\n"), 2u);
  EXPECT_EQ(CpuLimitFromCgroupV1("250000", "100000"), 3u);
  EXPECT_EQ(CpuLimitFromCgroupV1("10000", "100000"), 1u);
  EXPECT_EQ(CpuLimitFromCgroupV1("", ""), 0u);  // files absent
  EXPECT_EQ(CpuLimitFromCgroupV1("200000", ""), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV1("abc", "100000"), 0u);
  EXPECT_EQ(CpuLimitFromCgroupV1("200000", "0"), 0u);
}

TEST(CpuCountTest, CgroupPathOfThisProcess) {
  const std::string v2_only = "0::/user.slice/user-1000.slice/session-2.scope\n";
  EXPECT_EQ(CgroupPath(v2_only, true), "/user.slice/user-1000.slice/session-2.scope");
  EXPECT_EQ(CgroupPath(v2_only, false), "");
  EXPECT_EQ(CgroupPath("0::/\n", true), "/");
  const std::string v1 =
      "12:cpuset:/\n"
      "4:cpu,cpuacct:/docker/abc\n"
      "3:cpuacct:/other\n"
      "1:name=systemd:/init.scope\n"
      "0::/docker/abc\n";
  EXPECT_EQ(CgroupPath(v1, false), "/docker/abc");
  EXPECT_EQ(CgroupPath(v1, true), "/docker/abc");
  // "cpuacct" or "cpuset" alone is not the cpu controller.
  EXPECT_EQ(CgroupPath("3:cpuacct:/a\n2:cpuset:/b\n", false), "");
  EXPECT_EQ(CgroupPath("2:cpu:/a:b\n", false), "/a:b");  // ':' inside the path
  EXPECT_EQ(CgroupPath("garbage\n\n:\n", false), "");
  EXPECT_EQ(CgroupPath("", true), "");
}

TEST(CpuCountTest, CgroupMounts) {
  const std::string mountinfo =
      "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
      "32 31 0:29 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup "
      "rw,cpu,cpuacct\n"
      "33 31 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
      "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
  CgroupMount mount;
  ASSERT_TRUE(FindCgroupMount(mountinfo, false, &mount));
  EXPECT_EQ(mount.root, "/docker/abc");
  EXPECT_EQ(mount.mount_point, "/sys/fs/cgroup/cpu,cpuacct");
  ASSERT_TRUE(FindCgroupMount(mountinfo, true, &mount));
  EXPECT_EQ(mount.root, "/");
  EXPECT_EQ(mount.mount_point, "/sys/fs/cgroup/unified");
  // cpuacct alone is not the cpu controller; no cgroup2 mount.
  const std::string no_cpu = "33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n";
  EXPECT_FALSE(FindCgroupMount(no_cpu, false, &mount));
  EXPECT_FALSE(FindCgroupMount(no_cpu, true, &mount));
  EXPECT_FALSE(FindCgroupMount("garbage - \n", true, &mount));
}

// At least one, and never more than the affinity mask allows.
TEST(CpuCountTest, ProcessCpuCountIsWithinTheAffinityMask) {
  const uint32_t count = ProcessCpuCount();
  EXPECT_GE(count, 1u);
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_LE(count, static_cast<uint32_t>(CPU_COUNT(&set)));
  // With one CPU allowed, the count is one.
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) {
      CPU_SET(cpu, &one);
      break;
    }
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(ProcessCpuCount(), 1u);
  ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(ProcessCpuCount(), count);
#endif
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
