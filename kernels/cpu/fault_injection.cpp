// The DPVIZ_GPU_FAULT switch (test-only): parsing, the per-call counters behind the injection
// points of the real device (cuda_check.hpp, dispatch.cu, cuda_interop.cu) and the simulated one.
#include "dpviz/fault_injection.hpp"

#include <charconv>
#include <cstdlib>
#include <initializer_list>

#include "simulated_gpu.hpp"

namespace dpviz::gpu_fault {
namespace {

constexpr const char* kSyntax =
    "expected a comma-separated list of no-device, alloc:N, launch:N, interop, simulate (N >= 1)";

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Printable and short, so a message stays one readable line whatever the variable holds.
std::string shown(std::string_view s) {
    std::string o;
    for (const char c : s.substr(0, 80)) o += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (s.size() > 80) o += "...";
    return o;
}

// Appends only (gcc 12 warns falsely on `"literal" + std::string` in this file: -Wrestrict).
std::string cat(std::initializer_list<std::string_view> parts) {
    std::string o;
    for (const auto p : parts) o.append(p);
    return o;
}

thread_local Run* t_current = nullptr;
thread_local Counts t_last;

}  // namespace

Expected<Spec> parse(std::string_view text) {
    Spec s;
    s.text = std::string(trim(text));
    const auto bad = [&](const std::string& why) {
        return usage_error(cat({kEnvVar, "='", shown(text), "': ", why, " (test-only switch; ", kSyntax, ")"}));
    };
    const std::string_view all = s.text;
    for (size_t start = 0, comma = 0; !all.empty() && comma != std::string_view::npos; start = comma + 1) {
        comma = all.find(',', start);
        const std::string_view item = trim(all.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (item.empty()) return bad("empty item");
        bool* flag = nullptr;
        int64_t* count = nullptr;
        std::string_view name = item, number;
        if (const size_t colon = item.find(':'); colon != std::string_view::npos) {
            name = item.substr(0, colon);
            number = item.substr(colon + 1);
        }
        if (name == "no-device") flag = &s.no_device;
        else if (name == "simulate") flag = &s.simulate;
        else if (name == "interop") flag = &s.interop;
        else if (name == "alloc") count = &s.alloc_at;
        else if (name == "launch") count = &s.launch_at;
        else return bad(cat({"unknown fault '", shown(item), "'"}));
        if (flag) {
            if (name.size() != item.size()) return bad(cat({"'", name, "' takes no number"}));
            if (*flag) return bad(cat({"'", name, "' given twice"}));
            *flag = true;
            continue;
        }
        int64_t n = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (number.empty() || ec != std::errc{} || end != number.data() + number.size() || n < 1 || n > 1000000000)
            return bad(cat({"'", shown(item), "' needs a count N from 1 to 1000000000, as in ", name, ":3"}));
        if (*count) return bad(cat({"'", name, "' given twice"}));
        *count = n;
    }
    return s;
}

Expected<Spec> current() {
    const char* v = std::getenv(kEnvVar);
    return parse(v ? v : "");
}

std::optional<bool> usable_override() {
    const auto s = current();
    if (!s) return std::nullopt;
    if (s->no_device) return false;
    if (s->simulate) return true;
    return std::nullopt;
}

Run::Run() : outer_(t_current) {
    auto s = current();
    if (s) spec_ = std::move(*s);
    else invalid_ = s.error();
    t_current = this;
}

Run::~Run() {
    t_last = {allocs_, launches_, fired_};
    t_current = outer_;
}

std::optional<Expected<DpResult>> Run::instead(const Problem& p, OutputLevel level, int32_t checkpoint_spacing,
                                               int32_t overview_block) {
    if (invalid_) return Expected<DpResult>(*invalid_);
    if (spec_->no_device)
        return Expected<DpResult>(device_error(
            cat({"no CUDA device (no CUDA-capable device is detected)", injected_note("no-device")})));
    if (spec_->simulate) return align_simulated(p, level, *spec_, checkpoint_spacing, overview_block);
    return std::nullopt;
}

std::optional<std::string> Run::allocation_fault() {
    if (!spec_ || ++allocs_ != spec_->alloc_at) return std::nullopt;
    fired_ = true;
    return cat({"alloc:", std::to_string(allocs_)});
}

std::optional<std::string> Run::launch_fault() {
    if (!spec_ || ++launches_ != spec_->launch_at) return std::nullopt;
    fired_ = true;
    return cat({"launch:", std::to_string(launches_)});
}

std::optional<std::string> allocation_fault() {
    return t_current ? t_current->allocation_fault() : std::nullopt;
}
std::optional<std::string> launch_fault() { return t_current ? t_current->launch_fault() : std::nullopt; }
Counts last_run() { return t_last; }

std::string injected_note(std::string_view item) {
    return cat({" [injected by ", kEnvVar, "=", item, "]"});
}

bool interop_registration_fails() {
    const auto s = current();
    return s && s->interop;
}

std::optional<std::string> simulated_interop_refusal() {
    const auto s = current();
    if (!s || !s->simulate) return std::nullopt;
    if (s->interop)
        return cat({"CUDA cannot register the GL texture (simulated device: registration failed", injected_note("interop"),
                    "): host upload path"});
    return cat({"simulated device (", kEnvVar, "=simulate): no CUDA-GL interop: host upload path"});
}

}  // namespace dpviz::gpu_fault
