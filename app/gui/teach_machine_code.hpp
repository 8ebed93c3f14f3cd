// The machine-code panel: the SASS instruction mix of the fill kernel that ran (per cell of its
// steady-state loop, and over the whole kernel), DPX opcodes highlighted, beside the DPX-free
// kernel of the same algorithm; registers per thread and occupancy; why fused add-max helps.
// Data: app/sass_report.hpp (the build's reports, else the shipped ones) and app/gpu_model.hpp.
#pragma once

#include "gui/app_state.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {

// The SASS report the teaching views and the timing panel read: loaded on first use, then kept
// in the state.
const app::SassReport& sass_report(AppState& s);

void draw_teach_machine_code(AppState& s);

}  // namespace dpviz::gui
