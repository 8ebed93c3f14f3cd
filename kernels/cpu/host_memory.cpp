// How much memory this process can still take: the tightest of its cgroup, its resource limits
// and the machine's available memory, unless $DPVIZ_MEMORY_LIMIT says otherwise.
#include "host_memory.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

namespace dpviz {
namespace {

constexpr uint64_t kAssumedBytes = uint64_t(8) << 30;  // no MemAvailable: assume a small machine

// The file's first word ("max", "123"), empty when it cannot be read.
std::string first_word(const std::string& file) {
    std::ifstream f(file);
    std::string word;
    f >> word;
    return word;
}

std::optional<uint64_t> parse_count(const std::string& word) {
    if (word.empty() || word.size() > 20 || word.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    errno = 0;
    const unsigned long long v = std::strtoull(word.c_str(), nullptr, 10);
    if (errno == ERANGE) return std::nullopt;
    return uint64_t(v);
}

// A "Key:   N kB" field of a /proc status-style file, in bytes.
std::optional<uint64_t> read_kib_field(const std::string& file, std::string_view key) {
    std::ifstream f(file);
    std::string line;
    while (std::getline(f, line)) {
        if (line.size() <= key.size() || line.compare(0, key.size(), key) != 0 || line[key.size()] != ':') continue;
        std::istringstream fields(line.substr(key.size() + 1));
        std::string kib;
        fields >> kib;
        const std::optional<uint64_t> v = parse_count(kib);
        if (!v || *v > UINT64_MAX / 1024) return std::nullopt;
        return *v * 1024;
    }
    return std::nullopt;
}

// The cgroup v2 path of this process: "/user.slice/..." of the line "0::/user.slice/...".
std::optional<std::string> cgroup_path(const std::string& proc) {
    std::ifstream f(proc + "/self/cgroup");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("0::", 0) == 0) return line.substr(3);
    return std::nullopt;
}

std::optional<uint64_t> headroom(std::optional<uint64_t> limit, std::optional<uint64_t> used) {
    if (!limit) return std::nullopt;
    const uint64_t u = used.value_or(0);
    return *limit > u ? *limit - u : 0;
}

std::optional<uint64_t> rlimit_bytes(int resource) {
    struct rlimit rl {};
    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return std::nullopt;
    return uint64_t(rl.rlim_cur);
}

}  // namespace

ResourceLimits current_resource_limits() { return {rlimit_bytes(RLIMIT_AS), rlimit_bytes(RLIMIT_DATA)}; }

std::optional<uint64_t> cgroup_headroom(const HostMemoryPaths& paths) {
    const std::optional<std::string> path = cgroup_path(paths.proc);
    if (!path) return std::nullopt;
    // The root, then each level down to the process's own cgroup: a parent's limit binds too.
    std::vector<std::string> dirs{paths.cgroup_root};
    std::istringstream parts(*path);
    for (std::string part; std::getline(parts, part, '/');)
        if (!part.empty() && part != "." && part != "..") dirs.push_back(dirs.back() + "/" + part);
    std::optional<uint64_t> best;
    for (const std::string& dir : dirs) {
        const std::string max = first_word(dir + "/memory.max");
        const std::optional<uint64_t> room = headroom(parse_count(max), parse_count(first_word(dir + "/memory.current")));
        if (room && (!best || *room < *best)) best = room;
    }
    return best;
}

HostMemoryLimit binding_host_limit(const HostMemoryPaths& paths, const ResourceLimits& limits) {
    const std::string status = paths.proc + "/self/status";
    const std::optional<uint64_t> available = read_kib_field(paths.proc + "/meminfo", "MemAvailable");
    const std::pair<const char*, std::optional<uint64_t>> candidates[] = {
        {"cgroup memory.max", cgroup_headroom(paths)},
        {"RLIMIT_AS", headroom(limits.address_space, limits.address_space ? read_kib_field(status, "VmSize") : std::nullopt)},
        {"RLIMIT_DATA", headroom(limits.data, limits.data ? read_kib_field(status, "VmData") : std::nullopt)},
        {available ? "MemAvailable" : "assumed", available.value_or(kAssumedBytes)},
    };
    // Only a strictly smaller headroom replaces one before it: on a tie the more specific limit is named.
    std::optional<HostMemoryLimit> best;
    for (const auto& [source, bytes] : candidates)
        if (bytes && (!best || *bytes < best->bytes)) best = HostMemoryLimit{source, *bytes};
    return *best;  // the last candidate is always there
}

HostMemoryLimit measured_host_memory_limit() { return binding_host_limit({}, current_resource_limits()); }

Expected<HostMemoryLimit> host_memory_limit() {
    if (const char* env = std::getenv("DPVIZ_MEMORY_LIMIT")) {
        if (const std::optional<uint64_t> v = parse_byte_size(env)) return HostMemoryLimit{"DPVIZ_MEMORY_LIMIT", *v};
        std::string shown;
        for (const char c : std::string_view(env).substr(0, 64)) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
        return usage_error("DPVIZ_MEMORY_LIMIT='" + shown +
                           "' is not a size: give bytes, or a number with K, M, G or T (powers of two, "
                           "optionally followed by iB or B), e.g. 100M or 1.5GiB");
    }
    return measured_host_memory_limit();
}

Expected<uint64_t> available_host_bytes() {
    Expected<HostMemoryLimit> limit = host_memory_limit();
    if (!limit) return limit.error();
    return limit->bytes;
}

}  // namespace dpviz
