// Device blocks kept for reuse (cuda_check.hpp, "Block recycling"): the GUI's GPU-resident view
// asks for the same ~1 GB of buffers, and the same few dozen small ones, job after job; a
// cudaMalloc/cudaFree pair costs milliseconds for the large ones and tens of microseconds (with a
// device-wide wait in cudaFree) for each small one. Off until enable_block_recycling(); exact
// sizes only.
#include <mutex>
#include <utility>
#include <vector>

#include "cuda_check.hpp"

namespace dpviz::cuda {
namespace {

constexpr size_t kLargeBytes = size_t(16) << 20;
constexpr size_t kMaxLarge = 32;   // blocks of >= kLargeBytes kept at most
constexpr size_t kMaxSmall = 128;  // smaller blocks kept at most

struct Pool {
    std::mutex mutex;
    bool enabled = false;
    std::vector<std::pair<void*, size_t>> blocks;
    size_t large = 0;  // how many of them are >= kLargeBytes
};

Pool& pool() {
    static Pool* p = new Pool;  // never destroyed: blocks outlive static destruction order
    return *p;
}

}  // namespace

void enable_block_recycling() {
    std::lock_guard lock(pool().mutex);
    pool().enabled = true;
}

void* recycled_block(size_t bytes) {
    Pool& p = pool();
    void* found = nullptr;
    {
        std::lock_guard lock(p.mutex);
        if (!p.enabled || bytes == 0) return nullptr;
        for (size_t k = 0; k < p.blocks.size(); ++k)
            if (p.blocks[k].second == bytes) {
                found = p.blocks[k].first;
                p.blocks.erase(p.blocks.begin() + long(k));
                if (bytes >= kLargeBytes) --p.large;
                break;
            }
    }
    // Work queued before the block came back (on any stream) may still use it: wait for it.
    if (found && cudaDeviceSynchronize() != cudaSuccess) {
        cudaFree(found);
        return nullptr;
    }
    return found;
}

bool recycle_block(void* ptr, size_t bytes) {
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    if (!p.enabled || bytes == 0) return false;
    const bool large = bytes >= kLargeBytes;
    if (large ? p.large >= kMaxLarge : p.blocks.size() - p.large >= kMaxSmall) return false;
    p.blocks.emplace_back(ptr, bytes);
    if (large) ++p.large;
    return true;
}

size_t flush_recycled_blocks() {
    std::vector<std::pair<void*, size_t>> blocks;
    {
        std::lock_guard lock(pool().mutex);
        blocks.swap(pool().blocks);
        pool().large = 0;
    }
    size_t freed = 0;
    for (const auto& [ptr, bytes] : blocks) {
        cudaFree(ptr);
        freed += bytes;
    }
    return freed;
}

}  // namespace dpviz::cuda
