// The memory limits read from a fake /proc and cgroup v2 tree: the smallest headroom of the
// cgroup levels, RLIMIT_AS, RLIMIT_DATA and MemAvailable binds, and is named; "max" and missing
// files are no limit; $DPVIZ_MEMORY_LIMIT overrides them all.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "host_memory.hpp"
#include "temp_dir.hpp"

namespace dpviz {
namespace {

constexpr uint64_t kMiB = uint64_t(1) << 20;
constexpr uint64_t kGiB = uint64_t(1) << 30;

// A scratch folder holding proc/ and cgroup/ trees, files written on demand.
class FakeHost {
public:
    FakeHost() {
        paths_.proc = dir_.path("proc");
        paths_.cgroup_root = dir_.path("cgroup");
    }
    const HostMemoryPaths& paths() const { return paths_; }
    // Writes `content` to `relative` (e.g. "proc/meminfo"), making its folders.
    void write(const std::string& relative, const std::string& content) const {
        const std::filesystem::path p = dir_.path(relative);
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << content;
    }
    void cgroup_limit(const std::string& cgroup, const std::string& max, uint64_t current) const {
        write("cgroup" + cgroup + "/memory.max", max + "\n");
        write("cgroup" + cgroup + "/memory.current", std::to_string(current) + "\n");
    }

private:
    test::TempDir dir_;
    HostMemoryPaths paths_;
};

std::string meminfo(uint64_t available_kib) {
    return "MemTotal:       16384000 kB\nMemFree:          123456 kB\nMemAvailable:   " +
           std::to_string(available_kib) + " kB\nBuffers:           10000 kB\n";
}

std::string status(uint64_t vm_size_kib, uint64_t vm_data_kib) {
    return "Name:\tdpviz\nVmPeak:\t  999999 kB\nVmSize:\t  " + std::to_string(vm_size_kib) +
           " kB\nVmRSS:\t    5000 kB\nVmData:\t   " + std::to_string(vm_data_kib) + " kB\nVmStk:\t     132 kB\n";
}

TEST(CgroupHeadroom, TheSmallestHeadroomOfTheCgroupAndItsParentsWins) {
    const FakeHost host;
    host.write("proc/self/cgroup", "4:memory:/elsewhere\n0::/user.slice/job\n");
    host.cgroup_limit("/user.slice", std::to_string(1000 * kMiB), 700 * kMiB);  // 300 MiB left
    host.cgroup_limit("/user.slice/job", std::to_string(500 * kMiB), 100 * kMiB);  // 400 MiB left
    EXPECT_EQ(cgroup_headroom(host.paths()), 300 * kMiB);  // the parent binds
    host.cgroup_limit("/user.slice/job", std::to_string(500 * kMiB), 350 * kMiB);  // 150 MiB left
    EXPECT_EQ(cgroup_headroom(host.paths()), 150 * kMiB);  // now the process's own cgroup
    host.cgroup_limit("", std::to_string(200 * kMiB), 100 * kMiB);  // the root counts too
    EXPECT_EQ(cgroup_headroom(host.paths()), 100 * kMiB);
}

TEST(CgroupHeadroom, MaxMeansNoLimitAtThatLevel) {
    const FakeHost host;
    host.write("proc/self/cgroup", "0::/a/b\n");
    host.cgroup_limit("/a", "max", 5 * kGiB);
    host.cgroup_limit("/a/b", "max", 5 * kGiB);
    EXPECT_EQ(cgroup_headroom(host.paths()), std::nullopt);
    host.cgroup_limit("/a/b", std::to_string(2 * kGiB), kGiB);
    EXPECT_EQ(cgroup_headroom(host.paths()), kGiB);
}

TEST(CgroupHeadroom, MissingFilesMeanNoLimit) {
    const FakeHost host;
    host.write("cgroup/memory.max", "1000\n");
    EXPECT_EQ(cgroup_headroom(host.paths()), std::nullopt) << "no proc/self/cgroup";
    host.write("proc/self/cgroup", "4:memory:/x\n1:name=systemd:/x\n");
    EXPECT_EQ(cgroup_headroom(host.paths()), std::nullopt) << "cgroup v1 only: no 0:: line";
    host.write("proc/self/cgroup", "0::/a/b\n");
    std::filesystem::remove(host.paths().cgroup_root + "/memory.max");
    EXPECT_EQ(cgroup_headroom(host.paths()), std::nullopt) << "a v2 line, no memory.max anywhere";
    host.write("cgroup/a/memory.max", std::to_string(3 * kGiB) + "\n");  // no memory.current
    EXPECT_EQ(cgroup_headroom(host.paths()), 3 * kGiB);
    host.write("cgroup/a/b/memory.max", "12abc\n");  // not a number: no limit there
    EXPECT_EQ(cgroup_headroom(host.paths()), 3 * kGiB);
}

TEST(CgroupHeadroom, UsageAboveTheLimitLeavesNothing) {
    const FakeHost host;
    host.write("proc/self/cgroup", "0::/a\n");
    host.cgroup_limit("/a", std::to_string(100 * kMiB), 120 * kMiB);
    EXPECT_EQ(cgroup_headroom(host.paths()), 0u);
}

TEST(BindingHostLimit, MemAvailableWhenNothingElseBinds) {
    const FakeHost host;
    host.write("proc/meminfo", meminfo(3 * 1024 * 1024));
    host.write("proc/self/status", status(200000, 50000));
    const HostMemoryLimit l = binding_host_limit(host.paths(), {});
    EXPECT_EQ(l.source, "MemAvailable");
    EXPECT_EQ(l.bytes, 3 * kGiB);
}

TEST(BindingHostLimit, EachLimitBindsWhenItIsTheSmallest) {
    const FakeHost host;
    host.write("proc/meminfo", meminfo(3 * 1024 * 1024));
    host.write("proc/self/status", status(200000, 50000));
    ResourceLimits limits;
    limits.address_space = kGiB;  // 1 GiB - 200000 kB in use
    HostMemoryLimit l = binding_host_limit(host.paths(), limits);
    EXPECT_EQ(l.source, "RLIMIT_AS");
    EXPECT_EQ(l.bytes, kGiB - 200000 * 1024);

    limits.data = 600 * kMiB;  // 600 MiB - 50000 kB: below what the address space leaves
    l = binding_host_limit(host.paths(), limits);
    EXPECT_EQ(l.source, "RLIMIT_DATA");
    EXPECT_EQ(l.bytes, 600 * kMiB - 50000 * 1024);

    host.write("proc/self/cgroup", "0::/job\n");
    host.cgroup_limit("/job", std::to_string(400 * kMiB), 300 * kMiB);
    l = binding_host_limit(host.paths(), limits);
    EXPECT_EQ(l.source, "cgroup memory.max");
    EXPECT_EQ(l.bytes, 100 * kMiB);
}

TEST(BindingHostLimit, ATieNamesTheMoreSpecificLimit) {
    const FakeHost host;
    host.write("proc/meminfo", meminfo(2 * 1024 * 1024));
    host.write("proc/self/cgroup", "0::/job\n");
    host.cgroup_limit("/job", std::to_string(3 * kGiB), kGiB);
    const HostMemoryLimit l = binding_host_limit(host.paths(), {});
    EXPECT_EQ(l.source, "cgroup memory.max");
    EXPECT_EQ(l.bytes, 2 * kGiB);
}

TEST(BindingHostLimit, ALimitBelowWhatIsInUseLeavesNothing) {
    const FakeHost host;
    host.write("proc/meminfo", meminfo(3 * 1024 * 1024));
    host.write("proc/self/status", status(200000, 50000));
    ResourceLimits limits;
    limits.address_space = 100 * kMiB;
    const HostMemoryLimit l = binding_host_limit(host.paths(), limits);
    EXPECT_EQ(l.source, "RLIMIT_AS");
    EXPECT_EQ(l.bytes, 0u);
}

TEST(BindingHostLimit, WithoutProcEightGiBAreAssumedAndALimitStillBinds) {
    const FakeHost host;  // nothing written
    HostMemoryLimit l = binding_host_limit(host.paths(), {});
    EXPECT_EQ(l.source, "assumed");
    EXPECT_EQ(l.bytes, 8 * kGiB);
    ResourceLimits limits;
    limits.data = kGiB;  // no VmData to subtract: the whole limit
    l = binding_host_limit(host.paths(), limits);
    EXPECT_EQ(l.source, "RLIMIT_DATA");
    EXPECT_EQ(l.bytes, kGiB);
}

TEST(HostMemoryLimit, TheVariableOverridesWhatIsMeasured) {
    setenv("DPVIZ_MEMORY_LIMIT", "100M", 1);
    const Expected<HostMemoryLimit> l = host_memory_limit();
    const Expected<uint64_t> bytes = available_host_bytes();
    const HostMemoryLimit measured = measured_host_memory_limit();
    setenv("DPVIZ_MEMORY_LIMIT", "lots", 1);
    const Expected<uint64_t> bad = available_host_bytes();
    unsetenv("DPVIZ_MEMORY_LIMIT");
    ASSERT_TRUE(l) << l.error().message;
    EXPECT_EQ(l->source, "DPVIZ_MEMORY_LIMIT");
    EXPECT_EQ(l->bytes, 100 * kMiB);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, 100 * kMiB);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, ErrorKind::usage);
    EXPECT_EQ(bad.error().message.rfind("DPVIZ_MEMORY_LIMIT='lots' is not a size", 0), 0u) << bad.error().message;
    EXPECT_NE(measured.source, "DPVIZ_MEMORY_LIMIT");  // the real limits, for an allocation that failed
}

}  // namespace
}  // namespace dpviz
