// The traceback walk, written once over any source of direction bits: a whole grid
// (traceback()) or tiles recomputed from checkpoints (traceback_checkpoints()).
#pragma once

#include <algorithm>
#include <vector>

#include "dpviz/types.hpp"

namespace dpviz {

// `bits_at(i, j)` gives the direction bits of cell (i, j). Three states for affine gaps: in H,
// inside a vertical gap (F), inside a horizontal gap (E). Priorities: diagonal, then up, then
// left; inside a gap, close it (open) before extending (docs/algorithms.md, "Tie-breaks").
template <class BitsAt>
std::vector<Cell> trace_path(const Problem& p, BitsAt&& bits_at, Cell end) {
    enum class State { H, E, F } state = State::H;
    std::vector<Cell> path{end};
    Cell c = end;
    const bool affine = p.affine();
    const StopRule stop = rules_of(p.algo).stop;
    while (true) {
        const uint8_t b = bits_at(c.i, c.j);
        if (state == State::H) {
            if (traceback_stops(stop, c.i, c.j, b)) break;
            if (b & dir::kDiag) {
                c = {c.i - 1, c.j - 1};
            } else if (b & dir::kUp) {
                if (affine) { state = State::F; continue; }
                c = {c.i - 1, c.j};
            } else if (b & dir::kLeft) {
                if (affine) { state = State::E; continue; }
                c = {c.i, c.j - 1};
            } else {
                break;  // no predecessor: a border cell (or an unreachable DTW cell)
            }
        } else if (state == State::F) {
            state = (b & dir::kFOpen) ? State::H : State::F;
            c = {c.i - 1, c.j};
        } else {
            state = (b & dir::kEOpen) ? State::H : State::E;
            c = {c.i, c.j - 1};
        }
        path.push_back(c);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace dpviz
