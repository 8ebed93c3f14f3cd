// HMM files and observations: the bundled models, every malformed-file error (kind, origin and
// line), round trips through format_hmm, the observation reader, and Viterbi on the bundled data.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "app/expect_error.hpp"
#include "dpviz/hmm.hpp"
#include "hmm_file.hpp"
#include "kernels/hmm_test_util.hpp"

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

std::string example(const std::string& name) { return std::string(DPVIZ_ASSETS) + "/examples/" + name; }

// A scratch directory for generated inputs, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        const auto* info = testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::temp_directory_path() /
                ("dpviz-hmm-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" + info->name());
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string write(const std::string& name, const std::string& content) const {
        const std::string p = (path_ / name).string();
        std::ofstream(p, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
        return p;
    }
    std::string write_gzip(const std::string& name, const std::string& content) const {
        const std::string p = (path_ / name).string();
        gzFile gz = gzopen(p.c_str(), "wb");
        gzwrite(gz, content.data(), static_cast<unsigned>(content.size()));
        gzclose(gz);
        return p;
    }
    std::string path() const { return path_.string(); }

private:
    fs::path path_;
};

const char* const kCasinoText =
    "# the casino\n"
    "states F L\n"
    "alphabet 1 2 3 4 5 6\n"
    "start 0.5 0.5\n"
    "transition\n"
    "F 0.95 0.05\n"
    "L 0.10 0.90\n"
    "emission\n"
    "F 1/6 1/6 1/6 1/6 1/6 1/6\n"
    "L 0.1 0.1 0.1 0.1 0.1 0.5\n";

Hmm parsed(const std::string& text, const std::string& origin = "t.hmm") {
    auto m = parse_hmm(text, origin);
    EXPECT_TRUE(m) << m.error().message;
    return m ? *m : Hmm{};
}

// Same model, same doubles (bit for bit: format_hmm writes the shortest exact text).
void expect_same(const Hmm& a, const Hmm& b) {
    EXPECT_EQ(a.states, b.states);
    EXPECT_EQ(a.alphabet, b.alphabet);
    EXPECT_EQ(a.start, b.start);
    EXPECT_EQ(a.transition, b.transition);
    EXPECT_EQ(a.emission, b.emission);
    EXPECT_EQ(a.log_transition, b.log_transition);
    EXPECT_EQ(a.log_emission, b.log_emission);
}

// ---------------------------------------------------------------------------------------------
// Good files
// ---------------------------------------------------------------------------------------------

TEST(HmmFile, ParsesTheCasino) {
    const Hmm m = parsed(kCasinoText, "dir/casino.hmm");
    EXPECT_EQ(m.name, "casino.hmm");
    EXPECT_EQ(m.states, (std::vector<std::string>{"F", "L"}));
    EXPECT_EQ(m.alphabet, "123456");
    EXPECT_EQ(m.start, (std::vector<double>{0.5, 0.5}));
    EXPECT_EQ(m.trans(0, 1), 0.05);
    EXPECT_EQ(m.trans(1, 0), 0.10);
    EXPECT_EQ(m.emit(0, 3), 1.0 / 6);  // a fraction is a/b in double
    EXPECT_EQ(m.emit(1, 5), 0.5);
    EXPECT_EQ(m.log_emission[6 + 5], std::log(0.5));
}

TEST(HmmFile, BundledModelsLoad) {
    auto casino = load_hmm(example("casino.hmm"));
    ASSERT_TRUE(casino) << casino.error().message;
    expect_same(*casino, parsed(kCasinoText));
    auto cpg = load_hmm(example("cpg.hmm"));
    ASSERT_TRUE(cpg) << cpg.error().message;
    EXPECT_EQ(cpg->states, (std::vector<std::string>{"I", "B"}));
    EXPECT_EQ(cpg->alphabet, "ACGT");
    EXPECT_EQ(cpg->trans(0, 0), 0.999);
    EXPECT_EQ(cpg->emit(0, 1), 0.35);  // islands: C-rich
}

TEST(HmmFile, CommentsBlanksCrlfBomZerosAndRowsInAnyOrder) {
    const std::string text =
        "\xEF\xBB\xBF# model\r\n\r\n"
        "  states\tA  B_2   # two\r\n"
        "alphabet x y\r\n"
        "start 1 0\r\n"
        "emission\r\n"
        "B_2 0 1\r\n"
        "A 3/4 0.25\r\n"
        "transition # rows follow\r\n"
        "\r\n"
        "B_2 1e-1 9e-1\r\n"
        "A 1 0\r\n";
    const Hmm m = parsed(text);
    EXPECT_EQ(m.states, (std::vector<std::string>{"A", "B_2"}));
    EXPECT_EQ(m.emission, (std::vector<double>{0.75, 0.25, 0.0, 1.0}));
    EXPECT_EQ(m.transition, (std::vector<double>{1.0, 0.0, 0.1, 0.9}));
    EXPECT_EQ(m.log_start[1], -hmm_test::kInf);
}

TEST(HmmFile, RowSumsWithinOneInAMillion) {
    auto within = parse_hmm("states A B\nalphabet x\nstart 0.5 0.5000009\ntransition\nA 1 0\nB 0 1\n"
                            "emission\nA 1\nB 1\n",
                            "t.hmm");
    EXPECT_TRUE(within) << within.error().message;
    auto beyond = parse_hmm("states A B\nalphabet x\nstart 0.5 0.500002\n", "t.hmm");
    EXPECT_TRUE(fails_with(beyond, ErrorKind::input, {"t.hmm:3: ", "start sums to 1.000002"}));
}

TEST(HmmFile, RoundTripsThroughFormatHmm) {
    for (const char* f : {"casino.hmm", "cpg.hmm"}) {
        auto m = load_hmm(example(f));
        ASSERT_TRUE(m) << f;
        expect_same(parsed(format_hmm(*m)), *m);
    }
    std::mt19937_64 rng(3);
    for (int k = 0; k < 40; ++k) {
        const Hmm m = hmm_test::random_hmm(rng, 1 + k % 7, 1 + k % 5, 0.2);
        const std::string text = format_hmm(m);
        SCOPED_TRACE(text);
        expect_same(parsed(text), m);
        EXPECT_EQ(format_hmm(parsed(text, m.name)), text);  // the name is the comment line
    }
}

TEST(HmmFile, LoadsFilesAndRefusesWhatIsNotOne) {
    TempDir dir;
    const std::string path = dir.write("model.hmm", kCasinoText);
    auto m = load_hmm(path);
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->name, "model.hmm");
    EXPECT_TRUE(fails_with(load_hmm(dir.path() + "/missing.hmm"), ErrorKind::input, {"missing.hmm", "no such file"}));
    EXPECT_TRUE(fails_with(load_hmm(dir.path()), ErrorKind::input, {"is a directory"}));
    // Larger than the limit: refused from its size, before a byte is parsed.
    const std::string big = dir.write("big.hmm", std::string(kMaxHmmFileBytes + 1, '#'));
    EXPECT_TRUE(fails_with(load_hmm(big), ErrorKind::resource, {"big.hmm", "larger than 16 MiB"}));
    EXPECT_TRUE(fails_with(parse_hmm(std::string(kMaxHmmFileBytes + 1, '\n'), "text"), ErrorKind::resource,
                           {"text: larger than 16 MiB"}));
    // The same error from a file and from its text.
    const std::string bad = dir.write("bad.hmm", "states A\nalphabet x\nstart 2\n");
    auto from_file = load_hmm(bad);
    auto from_text = parse_hmm("states A\nalphabet x\nstart 2\n", bad);
    ASSERT_FALSE(from_file);
    ASSERT_FALSE(from_text);
    EXPECT_EQ(from_file.error().message, from_text.error().message);
}

// ---------------------------------------------------------------------------------------------
// Malformed files: one line "t.hmm:LINE: problem", an input error
// ---------------------------------------------------------------------------------------------

struct BadCase {
    const char* what;
    std::string text;
    int line;
    std::string says;
};

// A valid head (lines 1-3) for the cases that break a later line.
const std::string kHead = "states F L\nalphabet a b\nstart 0.5 0.5\n";
const std::string kRows = "transition\nF 0.5 0.5\nL 0.5 0.5\nemission\nF 0.5 0.5\nL 0.5 0.5\n";

std::vector<BadCase> bad_cases() {
    std::string many_states = "states";
    for (int k = 0; k <= kMaxHmmStates; ++k) many_states += " s" + std::to_string(k);
    return {
        {"empty", "", 1, "no model (the text is empty or only comments)"},
        {"only comments", "# a\n\n# b\n", 3, "no model"},
        {"binary", "states F\x01L\n", 1, "binary data (byte 1)"},
        {"NUL in a comment", kHead + std::string("# \0\n", 4), 4, "binary data (byte 0)"},
        {"line too long", kHead + "# " + std::string(kMaxHmmLine, 'x') + "\n", 4, "line longer than 64 KiB"},
        {"too many states", many_states + "\n", 1, "more than 1024 states"},
        {"states line too long", "states F # " + std::string(kMaxHmmLine, 'x') + "\n", 1, "line longer than"},
        {"no states", "states\n", 1, "'states' lists no state names"},
        {"state name", "states F-1\n", 1, "state name 'F-1' is not letters, digits and '_'"},
        {"long state name", "states " + std::string(33, 'a') + "\n", 1, "longer than 32 characters"},
        {"keyword as state", "states F start\n", 1, "a state cannot be named 'start'"},
        {"duplicate state", "states F L F\n", 1, "state 'F' named twice"},
        {"second states", "states F\nstates L\n", 2, "a second 'states' line (the first is line 1)"},
        {"multi-character symbol", "states F\nalphabet a bc\n", 2, "symbol 'bc' is not a single character"},
        {"symbol not allowed", "states F\nalphabet a >\n", 2, "symbol '>' is not allowed"},
        {"duplicate symbol", "states F\nalphabet a b a\n", 2, "symbol 'a' listed twice"},
        {"no symbols", "states F\nalphabet # none\n", 2, "'alphabet' lists no symbols"},
        {"start first", "start 1\nstates F\n", 1, "'start' before the 'states' line"},
        {"transition first", "transition\n", 1, "'transition' before the 'states' line"},
        {"emission before alphabet", "states F\nstart 1\nemission\n", 3, "'emission' before the 'alphabet' line"},
        {"second start", kHead + "start 1 0\n", 4, "a second 'start' line (the first is line 3)"},
        {"second section", kHead + kRows + "transition\n", 10, "a second 'transition' section (the first is line 4)"},
        {"section with values", kHead + "transition 0.5\n", 4, "'transition' takes no values"},
        {"row outside a section", kHead + "F 0.5 0.5\n", 4, "'F' is not a keyword"},
        {"unknown keyword", "stats F\n", 1, "'stats' is not a keyword"},
        {"unknown state in a row", kHead + "transition\nX 0.5 0.5\n", 5,
         "the transition row starts with 'X', which is not a state (states: F L)"},
        {"row twice", kHead + "transition\nF 0.5 0.5\nF 0.5 0.5\n", 6,
         "a second transition row for state 'F' (the first is line 5)"},
        {"row missing", kHead + "transition\nF 0.5 0.5\nemission\nF 1 0\nL 0 1\n", 4,
         "the transition section has no row for state 'L'"},
        {"emission row missing", kHead + "transition\nF 1 0\nL 0 1\nemission\nL 1 0\n", 7,
         "the emission section has no row for state 'F'"},
        {"no states line", "alphabet a\n", 1, "no 'states' section"},
        {"no alphabet", "states F\nstart 1\ntransition\nF 1\n", 4, "no 'alphabet' section"},
        {"no start", "states F\nalphabet a\ntransition\nF 1\nemission\nF 1\n", 6, "no 'start' section"},
        {"no transition", kHead + "emission\nF 1 0\nL 0 1\n", 6, "no 'transition' section"},
        {"no emission", kHead + "transition\nF 1 0\nL 0 1\n", 6, "no 'emission' section"},
        {"too few start values", "states F L\nstart 1\n", 2, "start has 1 value, expected 2 (one per state)"},
        {"too many start values", "states F L\nstart 0.5 0.5 0\n", 2, "start has more than 2 values"},
        {"too few row values", kHead + "transition\nF 1\n", 5, "transition row 'F' has 1 value, expected 2"},
        {"too many emission values", kHead + "emission\nF 0.5 0.5 0\n", 5,
         "emission row 'F' has more than 2 values (one per symbol)"},
        {"NaN", "states F L\nstart nan 1\n", 2, "start: value 'nan' for state 'F' is not a finite number"},
        {"infinity", "states F L\nstart 0 inf\n", 2, "value 'inf' for state 'L' is not a finite number"},
        {"negative", kHead + "transition\nF -0.1 1.1\n", 5,
         "transition row 'F': value '-0.1' for state 'F' is negative"},
        {"greater than 1", kHead + "emission\nF 1.5 0\n", 5,
         "emission row 'F': value '1.5' for symbol 'a' is greater than 1"},
        {"fraction greater than 1", "states F\nstart 7/6\n", 2, "value '7/6' for state 'F' is greater than 1"},
        {"not a number", "states F\nstart one\n", 2, "value 'one' for state 'F' is not a number"},
        {"plus sign", "states F\nstart +1\n", 2, "value '+1' for state 'F' is not a number"},
        {"bad fraction", "states F\nstart 1/2/2\n", 2, "value '1/2/2' for state 'F' is not a number"},
        {"division by zero", "states F\nstart 1/0\n", 2, "value '1/0' for state 'F' divides by zero"},
        {"out of range", "states F\nstart 1e999\n", 2, "value '1e999' for state 'F' is out of the range"},
        {"start sum", "states F L\nstart 0.5 0.4\n", 2, "start sums to 0.9, not 1"},
        {"transition row sum", kHead + "transition\nF 0.5 0.5\nL 0.6 0.6\n", 6, "transition row 'L' sums to 1.2"},
        {"emission row sum", kHead + kRows.substr(0, 31) + "emission\nF 0.25 0.25\n", 8,
         "emission row 'F' sums to 0.5"},
    };
}

TEST(HmmFile, EveryMalformedFileIsOneLineNamingItsLine) {
    for (const BadCase& c : bad_cases()) {
        SCOPED_TRACE(c.what);
        const std::string where = "t.hmm:" + std::to_string(c.line) + ": ";
        auto r = parse_hmm(c.text, "t.hmm");
        EXPECT_TRUE(fails_with(r, ErrorKind::input, {where, c.says}));
        if (!r) {
            EXPECT_EQ(r.error().message.rfind(where, 0), 0u) << r.error().message;
        }
    }
}

TEST(HmmFile, AMillionStatesAreRefusedAtTheLimit) {
    std::string line = "states";
    for (int k = 0; k < 1'000'000; ++k) line += " s" + std::to_string(k);
    ASSERT_LT(line.size(), kMaxHmmFileBytes);
    EXPECT_TRUE(fails_with(parse_hmm(line + "\n", "big.hmm"), ErrorKind::input, {"big.hmm:1: more than 1024 states"}));
}

// ---------------------------------------------------------------------------------------------
// Observations
// ---------------------------------------------------------------------------------------------

TEST(HmmObservations, PlainTextIgnoresBlanksLineBreaksAndComments) {
    auto r = parse_observations("\xEF\xBB\xBF# header\n12 34\r\n\t56  # a comment\n\n6\n", "dir/rolls.txt");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->name, "rolls");
    EXPECT_EQ(r->symbols, "1234566");
}

TEST(HmmObservations, FastaRecordsByPositionOrName) {
    const std::string text = "# comment\n>one first record\nAC GT\nac\n>two\n\n>4\nGG\n>three\nTT\n";
    auto first = parse_observations(text, "x.fa");
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->name, "one");
    EXPECT_EQ(first->symbols, "ACGTac");
    auto named = parse_observations(text, "x.fa", "4");  // a name wins over an index
    ASSERT_TRUE(named);
    EXPECT_EQ(named->symbols, "GG");
    auto third = parse_observations(text, "x.fa", "three");
    ASSERT_TRUE(third);
    EXPECT_EQ(third->symbols, "TT");
    auto numbered = parse_observations(text, "x.fa", "1");
    ASSERT_TRUE(numbered);
    EXPECT_EQ(numbered->name, "one");
    EXPECT_TRUE(fails_with(parse_observations(text, "x.fa", "two"), ErrorKind::input,
                           {"x.fa: record 'two' has no observations"}));
    EXPECT_TRUE(fails_with(parse_observations(text, "x.fa", "five"), ErrorKind::input,
                           {"x.fa: no record 'five' (4 records"}));
    EXPECT_TRUE(fails_with(parse_observations(text, "x.fa", "9"), ErrorKind::input, {"no record '9'"}));
}

TEST(HmmObservations, ErrorsNameTheFileAndLine) {
    EXPECT_TRUE(fails_with(parse_observations("", "o.txt"), ErrorKind::input, {"o.txt: no observations"}));
    EXPECT_TRUE(fails_with(parse_observations("# only\n \n", "o.txt"), ErrorKind::input, {"o.txt: no observations"}));
    EXPECT_TRUE(fails_with(parse_observations(std::string_view("12\n3\0" "4\n", 6), "o.txt"), ErrorKind::input,
                           {"o.txt:2: binary data (byte 0)"}));
}

TEST(HmmObservations, EncodingNamesPositionAndSymbol) {
    const Hmm casino = parsed(kCasinoText, "casino.hmm");
    auto codes = encode_observations(casino, "16625", "rolls.txt");
    ASSERT_TRUE(codes);
    EXPECT_EQ(*codes, (std::vector<uint8_t>{0, 5, 5, 1, 4}));
    EXPECT_TRUE(fails_with(encode_observations(casino, "166275", "rolls.txt"), ErrorKind::input,
                           {"rolls.txt: position 5: symbol '7' is not in the alphabet of casino.hmm (123456)"}));
    EXPECT_TRUE(fails_with(encode_observations(casino, "1\xC3", "rolls.txt"), ErrorKind::input,
                           {"position 2: symbol byte 195"}));
    // A letter matches its other case unless the alphabet has both.
    const Hmm dna = parsed("states S\nalphabet A C G T\nstart 1\ntransition\nS 1\nemission\nS 1/4 1/4 1/4 1/4\n");
    codes = encode_observations(dna, "acGt", "d.fa");
    ASSERT_TRUE(codes);
    EXPECT_EQ(*codes, (std::vector<uint8_t>{0, 1, 2, 3}));
    const Hmm both = parsed("states S\nalphabet a A\nstart 1\ntransition\nS 1\nemission\nS 0.5 0.5\n");
    codes = encode_observations(both, "aAa", "b.txt");
    ASSERT_TRUE(codes);
    EXPECT_EQ(*codes, (std::vector<uint8_t>{0, 1, 0}));
    EXPECT_FALSE(encode_observations(both, "b", "b.txt"));
}

TEST(HmmObservations, ReadsFilesPlainAndGzip) {
    TempDir dir;
    const std::string text = ">r1\n6666\n>r2\n1234\n";
    auto plain = read_observations(dir.write("o.fa", text), "r2");
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_EQ(plain->symbols, "1234");
    auto gz = read_observations(dir.write_gzip("o.fa.gz", text), "2");
    ASSERT_TRUE(gz) << gz.error().message;
    EXPECT_EQ(gz->symbols, "1234");
    EXPECT_TRUE(fails_with(read_observations(dir.path() + "/none.txt"), ErrorKind::input, {"none.txt: no such file"}));
    EXPECT_TRUE(fails_with(read_observations(dir.path()), ErrorKind::input, {"is a directory"}));
    EXPECT_TRUE(fails_with(read_observations(dir.write("long.txt", std::string(100, '1')), "", 99),
                           ErrorKind::resource, {"long.txt: more than 99 bytes"}));
}

// ---------------------------------------------------------------------------------------------
// The bundled examples through Viterbi
// ---------------------------------------------------------------------------------------------

// The true states of casino_rolls.txt: its comment lines after the header, which follow each
// line of rolls.
std::string true_casino_states(const std::string& path) {
    std::ifstream in(path);
    std::string line, states;
    bool after_rolls = false;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line[0] != '#') {
            after_rolls = true;
            continue;
        }
        if (after_rolls) states += line.substr(2);
        after_rolls = false;
    }
    return states;
}

TEST(HmmExamples, CasinoRollsDecode) {
    auto m = load_hmm(example("casino.hmm"));
    ASSERT_TRUE(m) << m.error().message;
    const std::string path = example("casino_rolls.txt");
    auto rolls = read_observations(path);
    ASSERT_TRUE(rolls) << rolls.error().message;
    ASSERT_EQ(rolls->symbols.size(), 300u);
    const std::string truth = true_casino_states(path);
    ASSERT_EQ(truth.size(), 300u);
    auto obs = encode_observations(*m, rolls->symbols, path);
    ASSERT_TRUE(obs) << obs.error().message;

    auto r = viterbi_reference(*m, *obs);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->path.size(), 300u);
    std::vector<int32_t> true_path;
    for (const char c : truth) true_path.push_back(c == 'F' ? 0 : 1);
    EXPECT_NEAR(path_log_probability(*m, *obs, r->path), r->log_probability, 1e-9);
    EXPECT_GT(r->log_probability, path_log_probability(*m, *obs, true_path));  // the optimum beats the truth
    // The path recovers the dice better than the best constant guess (all fair, here 177 of 300).
    int agree = 0, fair = 0;
    for (size_t t = 0; t < 300; ++t) {
        agree += r->path[t] == true_path[t];
        fair += true_path[t] == 0;
    }
    EXPECT_GT(agree, std::max(fair, 300 - fair));

    // The fixed-point path at the automatic scale (2^18) is the same: the optimum is unique by
    // far more than twice the quantization bound (300 / 2^18 = 0.0011 nats).
    auto q = quantize_hmm_for(*m, 300);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->scale_log2, 18);
    const hmm_test::TopTwo top = hmm_test::top_two(*m, *obs);
    EXPECT_GT(top.margin(), 2 * viterbi_quantization_bound(*q, 300));
    auto f = viterbi_fixed(*q, *obs);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->path, r->path);
    EXPECT_LE(std::abs(f->log_probability() - r->log_probability), viterbi_quantization_bound(*q, 300));
}

TEST(HmmExamples, CpgModelOnTheRealDnaStopsAtItsFirstN) {
    auto m = load_hmm(example("cpg.hmm"));
    ASSERT_TRUE(m) << m.error().message;
    const std::string path = example("dna_repeat_inversion.fa");
    auto dna = read_observations(path);
    ASSERT_TRUE(dna) << dna.error().message;
    EXPECT_EQ(dna->name, "epsilon_globin_1001_2500");
    ASSERT_EQ(dna->symbols.size(), 1500u);
    const size_t n = dna->symbols.find('N');
    ASSERT_NE(n, std::string::npos);
    EXPECT_TRUE(fails_with(encode_observations(*m, dna->symbols, path), ErrorKind::input,
                           {"position " + std::to_string(n + 1) + ": symbol 'N' is not in the alphabet of cpg.hmm"}));
    // The stretch before the N decodes.
    auto obs = encode_observations(*m, dna->symbols.substr(0, n), path);
    ASSERT_TRUE(obs) << obs.error().message;
    auto r = viterbi_reference(*m, *obs);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->path.size(), n);
    EXPECT_LT(r->log_probability, 0.0);
}

}  // namespace
}  // namespace dpviz::app
