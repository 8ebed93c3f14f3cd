// A session.ini that is not sound (cut short, binary, absurd values, overlong lines, too large,
// a folder, a FIFO or a link loop in its place) is ignored as a whole: the state keeps its
// defaults, the notice is one line naming the file and why, the GUI's frames run with it and
// show it; seeded random files never crash the reader. The real binary starts under Xvfb with
// a garbage session and says so on stderr.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <utility>

#include "gui/session.hpp"
#include "gui_test_util.hpp"
#include "xvfb_display.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// A session as the GUI writes it, with values that differ from the defaults.
std::string a_valid_session() {
    AppState a;
    a.query.path = "/data/q.fa";
    a.target.source = InputSource::paste;
    a.target.pasted = ">t\nACGT\n";
    a.params.algo = Algorithm::global;
    a.params.gap_open = Hundredths::units(7);
    a.params.band = 12;
    a.recent_files = {"/data/q.fa"};
    return session_text(a);
}

// What load_session may change; all of it must stay at the defaults when a file is ignored.
void expect_defaults(const AppState& s, const std::string& why) {
    const AppState d;
    EXPECT_EQ(s.query, d.query) << why;
    EXPECT_EQ(s.target, d.target) << why;
    EXPECT_EQ(s.params, d.params) << why;
    EXPECT_EQ(s.view.auto_colormap, d.view.auto_colormap) << why;
    EXPECT_EQ(s.view.show_path, d.view.show_path) << why;
    EXPECT_EQ(s.view.show_mask, d.view.show_mask) << why;
    EXPECT_EQ(s.export_settings.folder, d.export_settings.folder) << why;
    EXPECT_EQ(s.export_settings.stem, d.export_settings.stem) << why;
    EXPECT_TRUE(s.recent_files.empty()) << why;
}

struct Corrupt {
    const char* name;
    std::string text;
    const char* says;  // in the notice
};

std::vector<Corrupt> corrupt_files() {
    const std::string good = a_valid_session();
    std::string binary(4096, '\0');
    std::mt19937 rng(16);
    for (char& c : binary) c = char(rng());
    std::vector<Corrupt> out = {
        {"cut mid-line", good.substr(0, good.find("gap_open=7") + 10 - 1), "cut short"},
        {"cut in the first line", good.substr(0, 5), "cut short"},
        {"empty", "", "empty"},
        {"binary", binary, "binary data"},
        {"a NUL inside a value", good.substr(0, good.find("\n") + 1) + std::string("matrix=BLO\0SUM62\n", 17) + good.substr(good.find("\n") + 1),
         "binary data (byte 0x00 on line 2)"},
        {"an escape byte", "gap_open=5\n\x1b[2Jband=3\n", "binary data (byte 0x1b"},
        {"a huge number", good + "gap_open=99999999999999999999\n", "gap_open=99999999999999999999"},
        {"beyond the engine's penalties", "gap_extend=1000001\n", "gap_extend=1000001"},
        {"a negative band", good + "band=-5\n", "band=-5"},
    };
    // A file of one bad setting: the notice quotes it.
    const std::pair<const char*, const char*> one_bad_line[] = {
        {"a negative gap", "gap_open=-1"},
        {"a zero match", "match=0"},
        {"a positive mismatch", "mismatch=3"},
        {"NaN", "gap_open=nan"},
        {"three decimals", "gap_extend=0.125"},
        {"a positive fractional mismatch", "mismatch=0.5"},
        {"a decimal comma", "gap_open=10,5"},
        {"a float", "band=2.5"},
        {"an exponent", "band=1e3"},
        {"a backend out of range", "backend=7"},
        {"a flag that is no flag", "show_path=yes"},
        {"an unknown algorithm", "algo=blast"},
        {"an unknown source", "query.source=url"},
    };
    for (const auto& [name, line] : one_bad_line) out.push_back({name, std::string(line) + "\n", line});
    out.insert(out.end(), {
        {"only unknown keys", "future_key=1\nanother=2\n", "no line of it is a dpviz session setting"},
        {"no key=value at all", "just some text\nand more\n", "no line of it is a dpviz session setting"},
        {"only comments", "# dpviz GUI session (written on exit)\n", "no line of it is a dpviz session setting"},
        {"an overlong line", "query.pasted=" + std::string(3u << 20, 'A') + "\n", "line 1 is 3145741 bytes long"},
        {"an overlong last line, cut", "algo=local\nquery.pasted=" + std::string(3u << 20, 'C'), "line 2 is"},
        {"a long value shown short", "matrix=ok\nband=" + std::string(300, '9') + "\n", "band=9999999999"},
    });
    return out;
}

TEST(GuiSessionCorrupt, EveryCorruptFileLeavesTheDefaultsAndSaysWhyInOneLine) {
    for (const Corrupt& c : corrupt_files()) {
        TempDir dir;
        write_file(dir.file("session.ini"), c.text);
        AppState s;
        const std::string notice = load_session(s, dir.path());
        expect_defaults(s, c.name);
        EXPECT_NE(notice.find(dir.file("session.ini") + " ignored: "), std::string::npos) << c.name << ": " << notice;
        EXPECT_NE(notice.find(c.says), std::string::npos) << c.name << ": " << notice;
        EXPECT_NE(notice.find("starting with the defaults"), std::string::npos) << c.name;
        EXPECT_EQ(notice.find('\n'), std::string::npos) << c.name;
        EXPECT_LT(notice.size(), 300u) << c.name << ": " << notice;  // one line, not the file's contents
    }
}

TEST(GuiSessionCorrupt, SoundFilesStillLoadUnknownKeysAndCrLfIncluded) {
    const std::string good = a_valid_session();
    for (const std::string& text : {good, good + "future_key=1\n", "# new in 2027\nzoom_curve=3\n" + good}) {
        TempDir dir;
        write_file(dir.file("session.ini"), text);
        AppState s;
        EXPECT_EQ(load_session(s, dir.path()), "");
        EXPECT_EQ(s.params.gap_open.text(), "7");
        EXPECT_EQ(s.params.band, 12);
        EXPECT_EQ(s.target.pasted, ">t\nACGT\n");
    }
    std::string crlf;  // the same file after a Windows editor
    for (const char c : good) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    AppState s;
    EXPECT_EQ(apply_session_file_text(s, crlf), "");
    EXPECT_EQ(s.params.gap_open.text(), "7");
    EXPECT_EQ(s.query.path, "/data/q.fa");
    // A file cut exactly at a line's end holds only whole settings: those apply.
    AppState cut;
    EXPECT_EQ(apply_session_file_text(cut, good.substr(0, good.find("gap_open=7\n") + 11)), "");
    EXPECT_EQ(cut.params.gap_open.text(), "7");
    EXPECT_EQ(cut.params.band, AppState{}.params.band);
    // At most 12 recent files, however many lines there are.
    std::string many;
    for (int k = 0; k < 500; ++k) many += "recent=/f" + std::to_string(k) + "\n";
    AppState r;
    EXPECT_EQ(apply_session_file_text(r, many), "");
    EXPECT_EQ(r.recent_files.size(), 12u);
    EXPECT_EQ(r.recent_files.front(), "/f0");
}

TEST(GuiSessionCorrupt, SomethingElseInPlaceOfTheFileIsNeverOpened) {
    {
        TempDir dir;  // a folder
        std::filesystem::create_directory(dir.file("session.ini"));
        AppState s;
        const std::string n = load_session(s, dir.path());
        expect_defaults(s, "folder");
        EXPECT_NE(n.find("session.ini ignored: it is a folder"), std::string::npos) << n;
    }
    {
        TempDir dir;  // a FIFO: opening it for reading would wait for a writer forever
        ASSERT_EQ(mkfifo(dir.file("session.ini").c_str(), 0600), 0);
        AppState s;
        const std::string n = load_session(s, dir.path());
        EXPECT_NE(n.find("it is not a regular file"), std::string::npos) << n;
    }
    {
        TempDir dir;  // a link that points at itself
        std::filesystem::create_symlink(dir.file("session.ini"), dir.file("session.ini"));
        AppState s;
        const std::string n = load_session(s, dir.path());
        expect_defaults(s, "link loop");
        EXPECT_NE(n.find("session.ini ignored: "), std::string::npos) << n;
    }
    {
        TempDir dir;  // a link to a valid session is followed
        write_file(dir.file("real.ini"), a_valid_session());
        std::filesystem::create_symlink(dir.file("real.ini"), dir.file("session.ini"));
        AppState s;
        EXPECT_EQ(load_session(s, dir.path()), "");
        EXPECT_EQ(s.params.gap_open.text(), "7");
    }
    {
        TempDir dir;  // larger than any session: not read at all
        {
            std::ofstream f(dir.file("session.ini"), std::ios::binary);
            const std::string line = "recent=" + std::string(1000, 'x') + "\n";
            for (int k = 0; k < 9000; ++k) f << line;
        }
        AppState s;
        const std::string n = load_session(s, dir.path());
        expect_defaults(s, "too large");
        EXPECT_NE(n.find("more than a session holds"), std::string::npos) << n;
    }
    if (geteuid() != 0) {
        TempDir dir;  // unreadable (root reads it anyway)
        write_file(dir.file("session.ini"), a_valid_session());
        chmod(dir.file("session.ini").c_str(), 0);
        AppState s;
        const std::string n = load_session(s, dir.path());
        expect_defaults(s, "unreadable");
        EXPECT_NE(n.find("cannot read it"), std::string::npos) << n;
    }
    AppState s;  // no file: a first run, no notice
    TempDir empty;
    EXPECT_EQ(load_session(s, empty.path()), "");
    EXPECT_EQ(load_session(s, ""), "");
}

TEST(GuiSessionCorrupt, SeededRandomFilesNeverCrashTheReader) {
    // Sound lines, broken lines, random bytes and extreme numbers, mixed: the reader either takes
    // the file (and then every value is one the GUI and engine accept) or leaves the defaults.
    const std::string good = a_valid_session();
    std::vector<std::string> lines;
    for (size_t a = 0, b; (b = good.find('\n', a)) != std::string::npos; a = b + 1) lines.push_back(good.substr(a, b - a));
    const char* keys[] = {"gap_open", "gap_extend", "band", "match", "mismatch", "backend", "algo", "colormap",
                          "query.source", "show_mask", "recent", "query.pasted", "nonsense"};
    const char* values[] = {"0", "-1", "1000000", "1000001", "-2147483649", "nan", "inf", "", "=", "\\", "\\n", "1e9",
                            "0x10", " 5", "local", "dtw", "paste", "magma", "1", "2", "0.5", "-0.25", "10.125", "1,5",
                            ".", "1000000.01"};
    std::mt19937 rng(2024);
    int taken = 0, ignored = 0;
    for (int k = 0; k < 400; ++k) {
        std::string text;
        const int n = int(rng() % 30);
        for (int l = 0; l < n; ++l) {
            const unsigned kind = rng() % 100;  // mostly sound lines, so that some files are taken
            if (kind < 80) text += lines[rng() % lines.size()];
            else if (kind < 92) text += std::string(keys[rng() % std::size(keys)]) + "=" + values[rng() % std::size(values)];
            else if (kind < 97) text += std::string(keys[rng() % std::size(keys)]) + "=" + std::to_string(int32_t(rng()));
            else
                for (int b = int(rng() % 20); b > 0; --b) text += char(rng());
            if (rng() % 64) text += '\n';
        }
        AppState s;
        const std::string why = apply_session_file_text(s, text);
        if (why.empty()) {
            ++taken;
            const Parameters& p = s.params;
            constexpr int64_t kMax = 100'000'000;  // 10^6 in hundredths
            EXPECT_TRUE(p.gap_open.value >= 0 && p.gap_open.value <= kMax && p.gap_extend.value >= 0 &&
                        p.gap_extend.value <= kMax)
                << text;
            EXPECT_TRUE(p.band >= 0 && p.match.value >= 1 && p.mismatch.value <= 0) << text;
            EXPECT_LE(int(p.backend), int(BackendChoice::cpu));
            EXPECT_LE(s.recent_files.size(), 12u);
        } else {
            ++ignored;
            expect_defaults(s, why);
            EXPECT_EQ(why.find('\n'), std::string::npos);
        }
    }
    EXPECT_GT(taken, 10);  // the mix exercises both outcomes
    EXPECT_GT(ignored, 100);
}

TEST(GuiSessionCorrupt, TheGuiStartsWithTheDefaultsAndShowsTheNotice) {
    // As run_gui does: the session first; no inputs in it, so the globin example; then frames.
    TempDir dir;
    write_file(dir.file("session.ini"), "gap_open=12\nband=-40\n");
    AppState s = fresh_state();
    s.notice = load_session(s, dir.path());
    ASSERT_FALSE(s.notice.empty());
    EXPECT_EQ(s.params.gap_open, AppState{}.params.gap_open);
    load_example(s, Example::globins);
    HeadlessImGui ui;
    Worker w(run_job);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    EXPECT_EQ(s.result->problem.score_text(s.result->problem.gaps.open), AppState{}.params.gap_open.text());
    // The menu bar shows it with a button that dismisses it.
    ui.frame(s, &w);
    EXPECT_FALSE(s.notice.empty());  // frames alone leave it
    activate(widget_id("##MainMenuBar", {"##menubar", "dismiss"}));
    ui.frame(s, &w);
    EXPECT_TRUE(s.notice.empty());
}

TEST(GuiSessionCorrupt, TheRealBinaryStartsWithAGarbageSession) {
    if (std::system("command -v Xvfb >/dev/null 2>&1") != 0) GTEST_SKIP() << "Xvfb is not installed";
    const std::string bin = DPVIZ_BINARY;
    if (std::system((bin + " gui --help >/dev/null 2>&1").c_str()) != 0) GTEST_SKIP() << "this dpviz has no gui command";
    TempDir dir;
    std::filesystem::create_directories(dir.file("dpviz"));
    std::string garbage(2000, '\0');
    std::mt19937 rng(9);
    for (char& c : garbage) c = char(rng());
    write_file(dir.file("dpviz/session.ini"), garbage);
    // The GUI runs until `timeout` stops it (2 s of frames): 124 means it was still running.
    const std::string log = dir.file("log.txt");
    const std::string cmd = "cd " + dir.path() + " && XDG_CONFIG_HOME=" + dir.path() + " " + with_xvfb() +
                            "sh -c 'timeout -s INT 2 " + bin + " gui; echo \"rc=$?\"' >" + log + " 2>&1";
    std::system(cmd.c_str());
    std::ifstream lf(log);
    const std::string output((std::istreambuf_iterator<char>(lf)), {});
    EXPECT_NE(output.find("rc=124"), std::string::npos) << output;
    EXPECT_NE(output.find("dpviz: note: " + dir.file("dpviz/session.ini") + " ignored: binary data"), std::string::npos)
        << output;
}

}  // namespace
}  // namespace dpviz::gui
