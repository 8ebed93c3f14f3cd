// Builds without CUDA: matrices never stay on a device; the GUI takes the host path.
#include "dpviz/device_view.hpp"

namespace dpviz {

bool device_view_available() { return false; }

std::optional<DeviceMemory> device_memory() { return std::nullopt; }

Expected<DeviceAlignment> align_on_device(const Problem&, bool, int, const RunControl&,
                                          const std::function<void(const DeviceRange&)>&) {
    return device_error("this dpviz was built without CUDA");
}

}  // namespace dpviz
