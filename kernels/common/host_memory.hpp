// The limits that bound how much memory this process can still take, read from /proc, the
// cgroup v2 tree and getrlimit; the readers take their roots, so tests point them at fake trees.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dpviz/engine.hpp"

namespace dpviz {

// Where the files are: PROC/self/cgroup, PROC/self/status, PROC/meminfo, CGROUP_ROOT/PATH/memory.*.
struct HostMemoryPaths {
    std::string proc = "/proc";
    std::string cgroup_root = "/sys/fs/cgroup";
};

// Soft limits in bytes; nullopt = RLIM_INFINITY.
struct ResourceLimits {
    std::optional<uint64_t> address_space;  // RLIMIT_AS
    std::optional<uint64_t> data;           // RLIMIT_DATA
};
ResourceLimits current_resource_limits();

// The smallest memory.max - memory.current of this process's cgroup (the "0::PATH" line of
// PROC/self/cgroup) and each parent up to the root. "max" or a missing memory.max is no limit
// there; a missing memory.current counts as nothing used. nullopt: no limit anywhere, or no
// "0::" line. (cgroup v1's memory.limit_in_bytes is not read.)
std::optional<uint64_t> cgroup_headroom(const HostMemoryPaths& paths);

// The smallest headroom of: cgroup_headroom, RLIMIT_AS minus VmSize and RLIMIT_DATA minus VmData
// (PROC/self/status; a missing field counts as nothing used), and MemAvailable (PROC/meminfo),
// or 8 GiB "assumed" when meminfo has none. On a tie the first in that order is named.
HostMemoryLimit binding_host_limit(const HostMemoryPaths& paths, const ResourceLimits& limits);

}  // namespace dpviz
