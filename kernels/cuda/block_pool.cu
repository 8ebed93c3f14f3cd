// Large device blocks kept for reuse (cuda_check.hpp, "Block recycling"): the GUI's
// GPU-resident view asks for the same ~1 GB of buffers job after job, and a cudaMalloc/cudaFree
// pair of that size costs milliseconds. Off until enable_block_recycling(); exact sizes only.
#include <mutex>
#include <utility>
#include <vector>

#include "cuda_check.hpp"

namespace dpviz::cuda {
namespace {

constexpr size_t kMinBytes = size_t(16) << 20;  // smaller blocks are cheap to allocate
constexpr size_t kMaxBlocks = 32;

struct Pool {
    std::mutex mutex;
    bool enabled = false;
    std::vector<std::pair<void*, size_t>> blocks;
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
        if (!p.enabled || bytes < kMinBytes) return nullptr;
        for (size_t k = 0; k < p.blocks.size(); ++k)
            if (p.blocks[k].second == bytes) {
                found = p.blocks[k].first;
                p.blocks.erase(p.blocks.begin() + long(k));
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
    if (!p.enabled || bytes < kMinBytes || p.blocks.size() >= kMaxBlocks) return false;
    p.blocks.emplace_back(ptr, bytes);
    return true;
}

size_t flush_recycled_blocks() {
    std::vector<std::pair<void*, size_t>> blocks;
    {
        std::lock_guard lock(pool().mutex);
        blocks.swap(pool().blocks);
    }
    size_t freed = 0;
    for (const auto& [ptr, bytes] : blocks) {
        cudaFree(ptr);
        freed += bytes;
    }
    return freed;
}

}  // namespace dpviz::cuda
