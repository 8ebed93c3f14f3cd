// `dpviz gui`: command line, window and GL context (GLFW + glad), Dear ImGui, the frame loop,
// session persistence and the headless --screenshot check mode.
//
// Index of this file
// [SECTION] Command line
// [SECTION] Window
// [SECTION] Frame loop
// [SECTION] Entry point
#include <glad/gl.h>  // before GLFW, which would otherwise include <GL/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "gui/gui.hpp"

#include <malloc.h>

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include "cli_common.hpp"
#include "exit_codes.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/render/output_file.hpp"
#include "dpviz/render/png.hpp"
#include "gui/compute.hpp"
#include "gui/files.hpp"
#include "gui/frame.hpp"
#include "gui/gl_view.hpp"
#include "gui/panels.hpp"
#include "gui/session.hpp"
#include "gui/keys.hpp"
#include "gui/teach_lessons.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

// ---------------------------------------------------------------------------------------------
// [SECTION] Command line
// ---------------------------------------------------------------------------------------------

const char* const kGuiHelp = R"(Usage: dpviz gui [QUERY TARGET] [options]
       dpviz gui --algo viterbi --hmm MODEL OBSERVATIONS [options]
       dpviz                      (the same, no inputs: the last session, or the globin example)

Opens the matrix viewer. QUERY and TARGET are files as for dpviz align (FASTA, FASTQ, plain,
gzip; CSV/TSV signals with --algo dtw) or literal sequences with --seq. For --algo viterbi the
matrix is the trellis of the HMM file MODEL (rows: its states) over OBSERVATIONS (columns: a
file, or the symbols themselves with --seq; --target-record R picks a FASTA record).

Inputs and parameters (as dpviz align):
  --algo A, --matrix NAME|FILE, --match N, --mismatch N, --gap-open N (10), --gap-extend N
  (0.5): EMBOSS needle's and water's gaps; scores take up to two decimals (10.5, 0.25),
  --band N, --dtw-cost abs|squared, --column C, --query-record R, --target-record R, --seq,
  --backend auto|cpu|cuda|cuda-portable (dpx / dpx-free accepted), --threads N (CPU threads,
  default all), --dtw-scale S (DTW fixed-point scale, a power of two; default the largest safe)
  --hmm MODEL                  the HMM file of --algo viterbi
  --example globins|dna|dtw|casino|cpg   a bundled example instead of QUERY TARGET (casino and
                               cpg: Viterbi on the dishonest casino's rolls, a CpG-island model)

View:
  --colormap M                 viridis, magma, grayscale, diverging (default: auto)
  --layer H|E|F|landscape      matrix shown: E and F for affine gaps (Viterbi: E, each delta
                               behind the best of its column); landscape: the best alignment
                               through each cell (not for Viterbi)
  --mask                       tint the cells on any optimal path
  --view I,J,PX                center cell (I, J) at PX screen pixels per cell
  --hover I,J                  put the mouse on cell (I, J) (shows its tooltip; for screenshots)
  --run-all                    run all backends at start (timing panel)
  --panel NAME                 open a teaching view: inspector, machine-code, lesson (repeatable;
                               arranges the windows as a lesson does)
  --inspect I,J                the cell the inspector shows (as a click on it)
  --lesson N [--lesson-step K] open lesson N (1-4) at step K (Lessons menu; sets inputs and view)
  --teach playback|ownership   open the Wavefront panel with this view over the matrix
  --teach-step K               playback: show the fill up to step K (1 = the first step, as the
                               Wavefront panel counts; clamped to the last)
  --teach-color block|warp|lane  ownership: colour cells by block (CPU: thread), warp or lane
  --size WxH                   window size (default 1280x800)
  --scale S                    UI scale (fonts and spacing) S, 0.5-4, instead of the monitor's
                               content scale; Ctrl +, Ctrl - and Ctrl 0 change it in the window
  --no-session                 neither read nor write ~/.config/dpviz (imgui.ini, session.ini)

Headless check:
  --screenshot FILE            render, save the window as PNG, exit (no session is used)
  --frames N                   frames rendered after the result is shown (default 3)
  --timeout S                  give up after S seconds, naming what was still pending (exit 4;
                               default 120 for --screenshot, 900 for the measurements)

Measurements (print a table, exit; no session is used):
  --measure-interactive N      change gap open N times (two values in turn) and time each change
                               to the frame showing the new matrix texture and path (glFinish),
                               with the job's stages (fill, traceback, pyramid, view prep, texture)
  --measure-upload N           time N (at least 50) texture updates of a 2048x2048 view
  --measure-window N           a matrix opened through the result store: time N exact 2048x2048
                               windows (at seeded random places) recomputed as zooming in does
  --json                       also print the numbers as one JSON object
  --random-pair LEN            instead of QUERY TARGET: a seeded random DNA pair of LEN residues,
                               ~80% identical (--seed S, default 1)

With --screenshot or a measurement, a --view or --hover cell outside the matrix (query length + 1
rows, target length + 1 columns; Viterbi: states + 1 by observations + 1) is a usage error,
found before any window opens.

Exit codes: 0 success, 2 usage, 3 input (with --screenshot: the inputs did not load),
4 a wait timed out (--timeout) or a file could not be written, 5 no display (GLFW error 65544)
or a blank frame.
)";

namespace {

Expected<int> to_int(const std::string& opt, const std::string& v) {
    int x = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (v.empty() || ec != std::errc() || p != v.data() + v.size())
        return usage_error(opt + " expects an integer, got '" + v + "'");
    return x;
}

// "A,B" or "AxB" -> two numbers.
Expected<std::pair<double, double>> to_pair(const std::string& opt, const std::string& v, char sep) {
    const auto k = v.find(sep);
    char* end = nullptr;
    if (k == std::string::npos) return usage_error(opt + " expects A" + sep + "B, got '" + v + "'");
    const std::string a = v.substr(0, k), b = v.substr(k + 1);
    const double x = std::strtod(a.c_str(), &end);
    if (a.empty() || *end) return usage_error(opt + ": '" + a + "' is not a number");
    const double y = std::strtod(b.c_str(), &end);
    if (b.empty() || *end) return usage_error(opt + ": '" + b + "' is not a number");
    return std::make_pair(x, y);
}

}  // namespace

Expected<GuiOptions> parse_gui_args(const std::vector<std::string>& args_in, const AppState& session) {
    std::vector<std::string> args = args_in;
    if (!args.empty() && args.front() == "gui") args.erase(args.begin());
    GuiOptions o;
    o.initial = session;
    AppState& s = o.initial;
    Parameters& p = s.params;
    std::vector<std::string> positional;
    bool literal = false, have_match = false, algo_given = false, query_record_given = false, layer_given = false;
    std::string example, hmm;
    int random_pair = 0;
    uint64_t seed = 1;
    const std::vector<std::string> takes_value = {
        "--algo",     "--matrix",   "--match",   "--mismatch", "--gap-open",      "--gap-extend",
        "--band",     "--dtw-cost", "--column",  "--backend",  "--query-record",  "--target-record",
        "--colormap", "--layer",    "--view",    "--hover",    "--size",          "--screenshot",
        "--frames",   "--example",  "--measure-interactive", "--measure-upload", "--measure-window", "--random-pair", "--seed",  "--panel",   "--inspect",  "--lesson",      "--lesson-step",
        "--teach", "--teach-step", "--teach-color", "--threads", "--dtw-scale", "--timeout", "--scale", "--hmm"};
    // The command line's one parser (app/cli_common.hpp); the options are read in order.
    const std::vector<std::string> flags = {"--help", "--seq", "--mask", "--no-session", "--run-all", "--json"};
    if (std::find(args.begin(), args.end(), "-h") != args.end()) o.help = true;
    std::erase(args, std::string("-h"));
    auto parsed = app::parse_args(args, 0, takes_value, flags, "dpviz gui --help", /*keep_order=*/true);
    if (!parsed) return parsed.error();
    positional = parsed->positional;
    for (const auto& [a, v] : parsed->in_order) {
        if (a == "--help") o.help = true;
        else if (a == "--seq") literal = true;
        else if (a == "--mask") s.view.show_mask = true;
        else if (a == "--no-session") o.use_session = false;
        else if (a == "--run-all") o.run_all_backends = true;
        else if (a == "--algo") {
            const auto algo = parse_algorithm(v);
            if (!algo) return usage_error("unknown --algo '" + v + "' (" + algorithm_choices() + ")");
            p.algo = *algo;
            algo_given = true;
        } else if (a == "--matrix") {
            p.matrix = v;
            p.scoring = ScoringMode::matrix;
        } else if (a == "--match" || a == "--mismatch" || a == "--gap-open" || a == "--gap-extend") {
            auto h = parse_hundredths(a, v);  // as dpviz align reads them: at most two decimals
            if (!h) return h.error();
            Hundredths& dst = a == "--match" ? p.match : a == "--mismatch" ? p.mismatch : a == "--gap-open" ? p.gap_open
                                                                                                      : p.gap_extend;
            dst = *h;
            have_match |= a == "--match" || a == "--mismatch";
        } else if (a == "--band" || a == "--frames") {
            auto n = to_int(a, v);
            if (!n) return n.error();
            if (a == "--band") {
                if (*n < 0) return usage_error("--band must be 0 or more");
                p.band = *n;
                p.band_on = true;
            }
            if (a == "--frames") {
                if (*n < 1 || *n > 10000) return usage_error("--frames must be between 1 and 10000");
                o.frames = *n;
            }
        } else if (a == "--dtw-cost") {
            if (v != "abs" && v != "squared") return usage_error("--dtw-cost is abs or squared, got '" + v + "'");
            p.dtw_cost = v == "abs" ? DtwCost::abs : DtwCost::squared;
        } else if (a == "--column") {
            s.query.column = s.target.column = v;
        } else if (a == "--backend") {
            const auto b = parse_backend(v);
            if (!b || *b == Backend::cpu_reference)
                return usage_error("unknown --backend '" + v + "' (auto, cpu, cuda, cuda-portable)");
            p.backend = *b == Backend::cuda            ? BackendChoice::dpx
                        : *b == Backend::cuda_portable ? BackendChoice::dpx_free
                        : *b == Backend::cpu           ? BackendChoice::cpu
                                                       : BackendChoice::automatic;
        } else if (a == "--query-record") {
            s.query.record = v;
            query_record_given = true;
        } else if (a == "--target-record") {
            s.target.record = v;
        } else if (a == "--colormap") {
            if (v == "auto") {
                s.view.auto_colormap = true;
            } else {
                const auto m = render::parse_colormap(v);
                if (!m) return usage_error("unknown --colormap '" + v + "' (viridis, magma, grayscale, diverging, auto)");
                s.view.auto_colormap = false;
                s.view.colormap = *m;
            }
        } else if (a == "--layer") {
            const auto l = parse_layer(v);
            if (!l) return usage_error("--layer is H, E, F or landscape, got '" + v + "'");
            s.view.layer = *l;
            layer_given = true;
        } else if (a == "--view") {
            const auto k2 = v.rfind(',');
            if (k2 == std::string::npos) return usage_error("--view expects I,J,PX, got '" + v + "'");
            auto ij = to_pair("--view", v.substr(0, k2), ',');
            if (!ij) return ij.error();
            const double px = std::strtod(v.substr(k2 + 1).c_str(), nullptr);
            if (!(px > 0)) return usage_error("--view: PX must be a positive number");
            s.view.center_pending = MatrixView::CenterOn{ij->first, ij->second, px};
        } else if (a == "--hover") {
            auto ij = to_pair("--hover", v, ',');
            if (!ij) return ij.error();
            o.hover = Cell{int32_t(ij->first), int32_t(ij->second)};
        } else if (a == "--size") {
            auto wh = to_pair("--size", v, 'x');
            if (!wh) return wh.error();
            if (wh->first < 320 || wh->second < 240 || wh->first > 8192 || wh->second > 8192)
                return usage_error("--size must be between 320x240 and 8192x8192");
            o.width = int(wh->first);
            o.height = int(wh->second);
        } else if (a == "--scale") {
            char* end = nullptr;
            const double x = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(x >= kMinUiScale && x <= kMaxUiScale))
                return usage_error("--scale expects a number from 0.5 to 4, got '" + v + "'");
            s.ui.base = float(x);
            s.ui.base_fixed = true;
        } else if (a == "--screenshot") {
            if (v.empty()) return usage_error("--screenshot needs a file name");
            o.screenshot = v;
            o.use_session = false;
        } else if (a == "--teach") {
            if (v != "playback" && v != "ownership") return usage_error("--teach is playback or ownership, got '" + v + "'");
            s.wavefront.view = v == "playback" ? TeachView::playback : TeachView::ownership;
            s.panels.wavefront = true;
            s.wavefront.raise = true;
        } else if (a == "--teach-step") {
            char* end = nullptr;
            const long long k = std::strtoll(v.c_str(), &end, 10);
            if (v.empty() || *end || k < 1) return usage_error("--teach-step expects a step number >= 1, got '" + v + "'");
            s.wavefront.playback.step = k - 1;  // the schedule's steps are 0-based; people count from 1
        } else if (a == "--teach-color") {
            if (v != "block" && v != "warp" && v != "lane") return usage_error("--teach-color is block, warp or lane, got '" + v + "'");
            s.wavefront.color_by = v == "block" ? OwnerField::block : v == "warp" ? OwnerField::warp : OwnerField::lane;
        } else if (a == "--panel") {
            if (v == "inspector") s.panels.inspector = true;
            else if (v == "machine-code") s.panels.machine_code = true;
            else if (v == "lesson") s.panels.lesson = true;
            else return usage_error("--panel is inspector, machine-code or lesson, got '" + v + "'");
            s.teach.layout_pending = true;  // the lessons' window layout, with room for the teaching views
        } else if (a == "--inspect") {
            auto ij = to_pair("--inspect", v, ',');
            if (!ij) return ij.error();
            if (ij->first < 0 || ij->second < 0) return usage_error("--inspect: I and J must be 0 or more");
            s.view.inspected = Cell{int32_t(ij->first), int32_t(ij->second)};
        } else if (a == "--lesson" || a == "--lesson-step") {
            auto n = to_int(a, v);
            if (!n) return n.error();
            const int count = int(lessons().size());
            if (a == "--lesson") {
                if (*n < 1 || *n > count) return usage_error("--lesson must be between 1 and " + std::to_string(count));
                o.lesson = *n;
            } else {
                if (*n < 1) return usage_error("--lesson-step must be 1 or more");
                o.lesson_step = *n;
            }
        } else if (a == "--measure-interactive" || a == "--measure-upload" || a == "--measure-window" ||
                   a == "--random-pair") {
            auto n = to_int(a, v);
            if (!n) return n.error();
            if (*n < 1 || *n > 1000000) return usage_error(a + " must be between 1 and 1000000");
            if (a == "--measure-interactive") o.measure.interactive = *n;
            else if (a == "--measure-upload") o.measure.upload = std::max(*n, 50);
            else if (a == "--measure-window") o.measure.window = *n;
            else random_pair = *n;
            o.use_session = false;
        } else if (a == "--threads") {
            auto n = to_int(a, v);
            if (!n) return n.error();
            if (*n < 0 || *n > 1024) return usage_error("--threads must be between 0 and 1024");
            s.engine.threads = unsigned(*n);
        } else if (a == "--dtw-scale") {
            // The number only; whether it is a usable scale is the engine's to say, in the status
            // line of the job (as `dpviz align --dtw-scale` says it on stderr).
            char* end = nullptr;
            const double d = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0') return usage_error("--dtw-scale expects a number, got '" + v + "'");
            s.engine.dtw_scale = d;
        } else if (a == "--timeout") {
            char* end = nullptr;
            const double t = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(t > 0) || t > 86400)
                return usage_error("--timeout expects seconds, more than 0 and at most 86400, got '" + v + "'");
            o.timeout_s = t;
        } else if (a == "--seed") {
            char* end = nullptr;
            seed = std::strtoull(v.c_str(), &end, 10);
            if (v.empty() || *end) return usage_error("--seed expects a non-negative integer, got '" + v + "'");
        } else if (a == "--json") {
            o.measure.json = true;
        } else if (a == "--example") {
            if (v != "globins" && v != "dna" && v != "dtw" && v != "casino" && v != "cpg")
                return usage_error("--example is globins, dna, dtw, casino or cpg");
            example = v;
        } else if (a == "--hmm") {
            if (v.empty()) return usage_error("--hmm needs the model's file name");
            hmm = v;
        }
    }
    if (have_match) p.scoring = ScoringMode::match_mismatch;
    // Viterbi (as `dpviz align`): --hmm MODEL and one OBSERVATIONS; the example brings its own. A
    // saved Viterbi session does not make QUERY TARGET a model and observations.
    if (p.algo == Algorithm::viterbi && !algo_given && hmm.empty() && positional.size() == 2) p.algo = Algorithm::local;
    const bool viterbi = p.algo == Algorithm::viterbi;
    if (!hmm.empty() && !viterbi) return usage_error("--hmm applies to --algo viterbi only");
    if (viterbi && layer_given && s.view.layer == Layer::landscape)
        return usage_error("--layer landscape does not apply to --algo viterbi (a hidden Markov model reversed is no "
                           "model of the same kind: docs/algorithms.md, \"The landscape\")");
    if (viterbi && query_record_given)
        return usage_error("--query-record does not apply to --algo viterbi (the model is the query); use "
                           "--target-record for the observations");
    if (viterbi && example.empty() && (positional.size() == 1) != !hmm.empty())
        return usage_error(hmm.empty() ? "--algo viterbi needs the model: --hmm MODEL OBSERVATIONS"
                                       : "--hmm MODEL needs the observations: --hmm MODEL OBSERVATIONS");
    if (viterbi && positional.size() > 1)
        return usage_error("gui --algo viterbi takes one OBSERVATIONS (got " + std::to_string(positional.size()) +
                           " arguments); see dpviz gui --help");
    if (!viterbi && (positional.size() == 1 || positional.size() > 2))
        return usage_error("gui takes QUERY and TARGET, or neither (got " + std::to_string(positional.size()) +
                           " arguments); see dpviz gui --help");
    if (!example.empty() && !positional.empty()) return usage_error("give --example or QUERY TARGET, not both");
    if (!example.empty() && !hmm.empty()) return usage_error("give --example or --hmm MODEL OBSERVATIONS, not both");
    if (random_pair && (!example.empty() || !positional.empty()))
        return usage_error("--random-pair makes its own inputs: give it without --example or QUERY TARGET");
    if (random_pair) {
        if (p.algo == Algorithm::dtw || viterbi)
            return usage_error(std::string("--random-pair is a DNA pair: not for --algo ") + (viterbi ? "viterbi" : "dtw"));
        const auto [q, t] = random_dna_pair(random_pair, seed);
        const std::string tag = std::to_string(random_pair) + "_seed" + std::to_string(seed);
        s.query = {};
        s.target = {};
        s.query.source = s.target.source = InputSource::paste;
        s.query.pasted = ">random_query_" + tag + "\n" + q + "\n";
        s.target.pasted = ">random_target_" + tag + "\n" + t + "\n";
        o.have_inputs = true;
    }
    if (o.lesson && (!example.empty() || !positional.empty()))
        return usage_error("--lesson sets its own inputs: give it without --example or QUERY TARGET");
    if (o.lesson && o.lesson_step > int(lessons()[size_t(*o.lesson - 1)].steps.size()))
        return usage_error("--lesson-step: lesson " + std::to_string(*o.lesson) + " has " +
                           std::to_string(lessons()[size_t(*o.lesson - 1)].steps.size()) + " steps");
    if (literal && p.algo == Algorithm::dtw) return usage_error("--seq does not apply to --algo dtw");
    if (viterbi && positional.size() == 1) {
        // The model on the query side (always a file), the observations on the target side.
        const std::string record = s.target.record;
        s.query = {};
        s.query.path = hmm;
        s.target = {};
        s.target.record = record;
        s.target.source = literal ? InputSource::paste : InputSource::file;
        (literal ? s.target.pasted : s.target.path) = positional[0];
        o.have_inputs = true;
    }
    if (positional.size() == 2) {
        for (int k = 0; k < 2; ++k) {
            InputSide& in = k == 0 ? s.query : s.target;
            const std::string record = in.record, column = in.column;
            in = {};
            in.record = record;
            in.column = column;
            in.source = literal ? InputSource::paste : InputSource::file;
            (literal ? in.pasted : in.path) = positional[size_t(k)];
        }
        o.have_inputs = true;
    }
    if (!example.empty())
        o.example = example == "globins"  ? Example::globins
                    : example == "dna"    ? Example::dna_repeat_inversion
                    : example == "dtw"    ? Example::dtw_signals
                    : example == "casino" ? Example::casino
                                          : Example::cpg_island;
    return o;
}

namespace {

std::string number_text(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
}

}  // namespace

Status check_view_cells(const GuiOptions& o, int rows, int cols) {
    const auto outside = [&](double i, double j) { return !(i >= 0 && i < rows && j >= 0 && j < cols); };
    const auto message = [&](const std::string& opt, double i, double j) {
        return opt + ": cell (" + number_text(i) + ", " + number_text(j) + ") is outside the " + std::to_string(rows) +
               " x " + std::to_string(cols) + " matrix (rows 0-" + std::to_string(rows - 1) + ", columns 0-" +
               std::to_string(cols - 1) +
               (o.initial.params.algo == Algorithm::viterbi ? ": states + 1 by observations + 1)"
                                                            : ": query length + 1 by target length + 1)");
    };
    if (const auto& c = o.initial.view.center_pending; c && outside(c->i, c->j)) return usage_error(message("--view", c->i, c->j));
    if (o.hover && outside(o.hover->i, o.hover->j)) return usage_error(message("--hover", o.hover->i, o.hover->j));
    return Ok{};
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Window
// ---------------------------------------------------------------------------------------------

// GLFW reports errors through a callback; the last one explains a failed init or window.
struct GlfwError {
    int code = 0;
    std::string text;
};
GlfwError g_glfw_error;

void on_glfw_error(int code, const char* text) {
    g_glfw_error.code = code;
    g_glfw_error.text = text ? text : "";
}

// The window moved to a monitor of another scale (or the desktop's scale changed).
void on_content_scale(GLFWwindow* w, float x, float) {
    auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
    if (!s->ui.base_fixed && x > 0) s->ui.base = x;
}

// The panels test keys by GLFW's codes (keys.hpp): ImGui 1.86's backend indexes io.KeysDown by them.
static_assert(kKey0 == GLFW_KEY_0 && kKeyMinus == GLFW_KEY_MINUS && kKeyEqual == GLFW_KEY_EQUAL && kKeyC == GLFW_KEY_C &&
              kKeyG == GLFW_KEY_G && kKeyKeypad0 == GLFW_KEY_KP_0 && kKeyKeypadSubtract == GLFW_KEY_KP_SUBTRACT &&
              kKeyKeypadAdd == GLFW_KEY_KP_ADD);

void on_drop(GLFWwindow* w, int count, const char** paths) {
    auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
    for (int k = 0; k < count; ++k) s->requests.dropped_files.emplace_back(paths[k]);
}

std::string glfw_failure(const char* what) {
    std::string m = std::string("cannot open a window: ") + what;
    if (g_glfw_error.code)
        m += ": " + g_glfw_error.text + " (GLFW error " + std::to_string(g_glfw_error.code) + ")";
    if (g_glfw_error.code == 65544 || g_glfw_error.code == GLFW_PLATFORM_ERROR)
        m += "; no display? Run under xvfb-run, or use dpviz align --png for images";
    return m;
}

class Window {
public:
    ~Window() {
        if (window_) glfwDestroyWindow(window_);
        if (glfw_) glfwTerminate();
    }
    Status open(int w, int h, AppState& state) {
        glfwSetErrorCallback(on_glfw_error);
        if (!glfwInit()) return device_error(glfw_failure("GLFW init failed"));
        glfw_ = true;
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // a 2x monitor gets a window twice the size
        window_ = glfwCreateWindow(w, h, "dpviz", nullptr, nullptr);
        if (!window_) return device_error(glfw_failure("no OpenGL 3.3 core context"));
        glfwMakeContextCurrent(window_);
        if (!gladLoadGL(glfwGetProcAddress)) return device_error("cannot load OpenGL 3.3 functions (glad)");
        glfwSetWindowUserPointer(window_, &state);
        glfwSetDropCallback(window_, on_drop);
        return Ok{};
    }
    GLFWwindow* get() const { return window_; }

private:
    bool glfw_ = false;
    GLFWwindow* window_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Frame loop
// ---------------------------------------------------------------------------------------------

// The screenshot is taken once the requested work is on screen (pending_work() is ""): result
// shown, texture drawn for the current view, timings in (with --run-all); then `frames` more
// frames. Every wait ends: after the timeout the message names what was still pending.
constexpr double kScreenshotTimeoutS = 120.0;
constexpr double kMeasureTimeoutS = 900.0;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The time a wait took, as its message gives it ("120.0"): a frame may end past the limit.
std::string seconds_text(double s) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", s);
    return b;
}

int run_window(GuiOptions& opt, std::ostream& out, std::ostream& err) {
    AppState& s = opt.initial;
    const bool screenshot = !opt.screenshot.empty();
    Window window;
    if (Status st = window.open(opt.width, opt.height, s); !st) {
        err << "dpviz: " << st.error().message << "\n";
        return app::kExitDevice;
    }
    InteractiveMeasure measure(opt.measure);
    const bool measuring = measure.active();
    bool measured = false;
    glfwSwapInterval(screenshot || measuring ? 0 : 1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    // Deliberate: the layout file lives with the session, never in the working directory.
    std::string ini_path;
    const std::string cfg = opt.use_session ? config_dir() : "";
    if (!cfg.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(cfg, ec);
        if (!ec) ini_path = (std::filesystem::path(cfg) / "imgui.ini").string();
    }
    // dpviz reads and writes the layout itself: ImGui's own saving ignores write errors.
    io.IniFilename = nullptr;
    if (!ini_path.empty() && std::filesystem::is_regular_file(ini_path))
        ImGui::LoadIniSettingsFromDisk(ini_path.c_str());
    bool layout_error_shown = false;
    const auto save_layout = [&]() -> Status {
        io.WantSaveIniSettings = false;
        if (ini_path.empty()) return Ok{};
        return render::write_file_atomic(ini_path, ImGui::SaveIniSettingsToMemory());
    };
    // Fonts and style at the monitor's content scale (or --scale); rebuilt in the loop when it
    // changes (Ctrl +/-, another monitor).
    if (!s.ui.base_fixed) {
        float sx = 1.0f, sy = 1.0f;
        glfwGetWindowContentScale(window.get(), &sx, &sy);
        if (sx > 0) s.ui.base = sx;
    }
    glfwSetWindowContentScaleCallback(window.get(), on_content_scale);
    apply_ui_scale(s);
    if (!s.ui.font_note.empty()) err << "dpviz: note: " << s.ui.font_note << "\n";
    ImGui_ImplGlfw_InitForOpenGL(window.get(), true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    Worker worker(run_job);
    worker.set_on_finish([] { glfwPostEmptyEvent(); });  // thread-safe: wakes the wait below
    set_store_window_ready_hook([] { glfwPostEmptyEvent(); });  // a store result's exact window too
    GlView view;
    if (Status st = view.init(s, /*prefer_interop=*/true); !st) err << "dpviz: note: " << st.error().message << "\n";
    probe_backends(s.system);
    if (opt.run_all_backends) s.requests.run_all_backends = true;  // runs once the first result is in

    int settled_frames = 0;
    const double measure_timeout = opt.timeout_s > 0 ? opt.timeout_s : kMeasureTimeoutS;
    const double screenshot_timeout = opt.timeout_s > 0 ? opt.timeout_s : kScreenshotTimeoutS;
    const auto started = std::chrono::steady_clock::now();
    auto screenshot_started = started;  // after a measurement: when it ended
    int code = app::kExitOk;
    while (!glfwWindowShouldClose(window.get()) && !s.requests.quit) {
        // Idle windows sleep until an event. While a job runs, frames come at about 60 per second
        // (the progress bar moves; the GPU is not kept busy with GL work the fill has to share it
        // with), and the job's end wakes the loop at once (set_on_finish above).
        if (s.requests.compute) glfwPollEvents();
        else if (s.job.busy) glfwWaitEventsTimeout(1.0 / 60.0);
        else if (screenshot || measuring) glfwPollEvents();
        else glfwWaitEventsTimeout(0.1);
        if (measuring && !measured) measure.before_frame(s);  // may change gap open and request a recompute
        collect_outcome(s, worker);
        if (measuring && !measured) measure.after_collect(s);
        view.update(s);  // the region the matrix panel asked for last frame

        if (apply_ui_scale(s)) {  // the scale changed: the new atlas goes to GL before the frame
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        if (opt.hover && s.result && s.view.canvas.w > 0) {
            const Vec2d p = to_screen(s.view.xf, s.view.canvas, {opt.hover->j + 0.5, opt.hover->i + 0.5});
            io.MousePos = ImVec2(float(p.x), float(p.y));
        } else if (screenshot || measuring) {
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // Xvfb's pointer rests mid-screen: no stray tooltip
        }
        const auto t_ui = std::chrono::steady_clock::now();
        ImGui::NewFrame();
        draw_ui(s);
        ImGui::Render();
        const auto t_gl = std::chrono::steady_clock::now();
        process_requests(s, worker);
        if (measuring && !measured) {
            measure.after_submit(s);
            measure.after_collect(s);
        }

        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window.get(), &fb_w, &fb_h);
        glViewport(0, 0, fb_w, fb_h);
        glClearColor(0.09f, 0.09f, 0.10f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        // Read the back buffer before the swap: after it, its contents are undefined.
        if (s.requests.export_file && s.requests.export_file->kind == ExportKind::window_png) {
            const std::string path = s.requests.export_file->path;
            Status st = render::write_png_atomic(read_framebuffer(fb_w, fb_h), path);
            s.export_message = st ? "wrote " + path : "export failed: " + st.error().message;
            s.requests.export_file.reset();
        }
        if (measuring && !measured) {
            glFinish();  // this frame's GL work (the texture and the path) is done
            const auto t_end = std::chrono::steady_clock::now();
            measure.frame_parts(std::chrono::duration<double, std::milli>(t_gl - t_ui).count(),
                                std::chrono::duration<double, std::milli>(t_end - t_gl).count());
            const double waited = seconds_since(started);
            const bool done = measure.after_frame(s, view.last_drawn_result(), view.last_upload_ms());
            if (done || waited > measure_timeout) {
                measured = true;
                screenshot_started = std::chrono::steady_clock::now();
                if (!done) {
                    err << "dpviz: measurement: waited " << seconds_text(waited) << " s for "
                        << measure.waiting_for(s, view.last_drawn_result()) << "\n";
                    code = app::kExitResource;
                } else if (!measure.failed() && measure.wants_upload() && s.result) {
                    const int w = std::min(2048, s.result->cols()), h = std::min(2048, s.result->rows());
                    const render::TexelRequest req{0, 0, s.result->rows(), s.result->cols(), w, h, false};
                    auto ms = view.time_uploads(s, req, measure.upload_repeats());
                    if (ms) measure.set_upload_times(std::move(*ms), w, h);
                    if (auto b2b = view.time_uploads_back_to_back(s, req, measure.upload_repeats()); ms && b2b)
                        measure.set_upload_back_to_back(*b2b);
                    else err << "dpviz: --measure-upload: " << ms.error().message << "\n";
                }
                if (done && !measure.failed() && measure.wants_windows()) {
                    if (s.result && s.result->stored()) measure.time_windows(*s.result, 2048);
                    else err << "dpviz: --measure-window: the matrix is held whole (no result store): no window to "
                                "recompute\n";
                }
                if (done || measure.trials() > 0) measure.report(s, out, err);  // no empty table after a timeout
                if (measure.failed()) code = app::kExitInput;
                if (!screenshot || !done) break;  // no screenshot of a measurement that timed out
            }
        }
        if (screenshot && (!measuring || measured)) {
            const std::string pending = pending_work(s, opt.run_all_backends);
            const bool settled = pending.empty();
            settled_frames = settled ? settled_frames + 1 : 0;
            const double waited = seconds_since(screenshot_started);
            if (settled_frames >= opt.frames || waited > screenshot_timeout) {
                const render::Image img = read_framebuffer(fb_w, fb_h);
                if (!settled) {
                    err << "dpviz: --screenshot: waited " << seconds_text(waited) << " s for " << pending
                        << "; nothing written (--timeout S waits longer)\n";
                    code = app::kExitResource;
                } else if (image_is_blank(img)) {
                    err << "dpviz: --screenshot: the frame is blank (nothing was drawn; GL: " << s.system.gl_renderer
                        << ")\n";
                    code = app::kExitDevice;
                } else if (Status st = render::write_png_atomic(img, opt.screenshot); !st) {
                    err << "dpviz: " << st.error().message << "\n";
                    code = app::kExitResource;
                } else {
                    out << "dpviz: wrote " << opt.screenshot << " (" << fb_w << "x" << fb_h << ", " << s.system.gl_renderer
                        << ", texture upload " << s.system.upload_path << ")\n";
                    if (!s.error.empty()) {
                        err << "dpviz: " << s.error << "\n";
                        code = app::kExitInput;
                    }
                }
                break;
            }
        }
        glfwSwapBuffers(window.get());
        if (io.WantSaveIniSettings) {  // ImGui asks a few seconds after the layout changed
            Status st = save_layout();
            if (!st && !layout_error_shown) err << "dpviz: " << st.error().message << "\n";
            layout_error_shown = layout_error_shown || !st;
        }
    }

    if (worker.progress().busy && !screenshot)
        err << "dpviz: stopping the running computation\n";
    if (opt.use_session) {
        // A layout or session that could not be written is an error (exit 4), as any write.
        for (const Status& st : {save_layout(), save_session(s, cfg)}) {
            if (st) continue;
            err << "dpviz: " << st.error().message << "\n";
            if (code == app::kExitOk) code = app::kExitResource;
        }
    }
    set_store_window_ready_hook(nullptr);  // a window thread still running must not wake a GLFW that is gone
    background_threads().join_all();       // a window or a landscape still being made: stopped, waited for
    view.release();  // GL objects go before the context
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return code;
}

}  // namespace

}  // namespace dpviz::gui

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------------

namespace dpviz::app {
namespace {

bool has_option(const std::vector<std::string>& args, const std::string& name) {
    return std::any_of(args.begin(), args.end(),
                       [&](const std::string& a) { return a == name || a.rfind(name + "=", 0) == 0; });
}

}  // namespace

int run_gui(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    using namespace dpviz::gui;
    // Every job allocates the same large buffers again (overviews, pyramids, checkpoints: tens
    // to hundreds of MB). glibc maps blocks above 32 MB afresh and unmaps them on free, so each
    // job faulted its pages in again (a third of a 20,000^2 parameter change on the 2-core
    // machine); kept in the heap, the next job reuses them.
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    // The saved session first (unless the command line turns it off), the command line on top.
    AppState session;
    const bool no_session = has_option(args, "--no-session") || has_option(args, "--screenshot") ||
                            has_option(args, "--measure-interactive") || has_option(args, "--measure-upload") ||
                            has_option(args, "--measure-window");
    if (!no_session) {
        session.notice = load_session(session, config_dir());
        if (!session.notice.empty()) err << "dpviz: note: " << session.notice << "\n";
    }
    session.query.record_names.clear();
    session.target.record_names.clear();
    auto parsed = parse_gui_args(args, session);
    if (!parsed) {
        err << "dpviz: " << parsed.error().message << "\n";
        return kExitUsage;
    }
    GuiOptions& opt = *parsed;
    if (opt.help) {
        out << kGuiHelp;
        return kExitOk;
    }
    AppState& s = opt.initial;
    s.assets_dir = find_assets_dir("");
    if (opt.have_inputs) s.requests.compute = true;
    if (opt.example) {
        if (s.assets_dir.empty()) {
            err << "dpviz: the bundled examples were not found (set DPVIZ_ASSETS to the assets folder)\n";
            return kExitInput;
        }
        // The example sets inputs and algorithm; parameters given on the command line stay.
        const Parameters given = s.params;
        load_example(s, *opt.example);
        if (has_option(args, "--algo")) s.params.algo = given.algo;
        if (has_option(args, "--matrix") || has_option(args, "--match") || has_option(args, "--mismatch")) {
            s.params.scoring = given.scoring;
            s.params.matrix = given.matrix;
        }
    } else if (opt.lesson) {
        if (s.assets_dir.empty()) {
            err << "dpviz: the bundled examples were not found (set DPVIZ_ASSETS to the assets folder)\n";
            return kExitInput;
        }
        open_lesson(s, *opt.lesson - 1, opt.lesson_step - 1);
    } else if (!opt.have_inputs) {
        const bool session_inputs = !(s.query.path.empty() && s.query.pasted.empty());
        if (session_inputs) s.requests.compute = true;
        else if (!s.assets_dir.empty()) load_example(s, Example::globins);  // first run: something to look at
    }
    // Cells named on the command line, against the matrix they name, before a window opens: a
    // view with no cell of the matrix in it draws nothing, and a screenshot would wait for it.
    // Inputs that do not load are left to the job, whose error the screenshot shows.
    const bool headless_check = !opt.screenshot.empty() || opt.measure.interactive > 0 || opt.measure.upload > 0;
    if (headless_check && (s.view.center_pending || opt.hover)) {
        if (auto p = build_problem(make_job_request(s, JobRequest::Kind::align)); p) {
            if (Status st = check_view_cells(opt, p->rows() + 1, p->cols() + 1); !st) {
                err << "dpviz: " << st.error().message << "\n";
                return kExitUsage;
            }
        }
    }
    return run_window(opt, out, err);
}

}  // namespace dpviz::app
