// Sequence and signal readers: every format plain and gzip'd, record picking, each malformed
// input (error kind, file and position in the message), and bounded handling of huge inputs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/expect_error.hpp"
#include "gzip_file.hpp"
#include "input.hpp"
#include "temp_dir.hpp"

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) { return std::string(DPVIZ_TEST_DATA) + "/input/" + name; }

using dpviz::test::TempDir;
using dpviz::test::write_gzip;

std::vector<std::string> names_of(const std::vector<SequenceRecord>& records) {
    std::vector<std::string> names;
    for (const auto& r : records) names.push_back(r.name);
    return names;
}

// What a test expects of one record: the fields it sets (the others are not checked).
struct Want {
    std::optional<std::string> name, description, residues;
};

// `r` was read, and holds as many records as `want`, each with the fields `want` sets.
void expect_records(const Expected<std::vector<SequenceRecord>>& r, const std::vector<Want>& want) {
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
        const SequenceRecord& got = (*r)[k];
        if (want[k].name) {
            EXPECT_EQ(got.name, *want[k].name) << "record " << k;
        }
        if (want[k].description) {
            EXPECT_EQ(got.description, *want[k].description) << "record " << k;
        }
        if (want[k].residues) {
            EXPECT_EQ(got.residues, *want[k].residues) << "record " << k;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Good files
// ---------------------------------------------------------------------------------------------

TEST(ReadSequences, MultiRecordFasta) {
    for (const std::string file : {"multi.fa", "multi.fa.gz"}) {
        SCOPED_TRACE(file);
        expect_records(read_sequences(fixture(file)), {{"seq1", "first record, lower case", "ACGTACGTNNACGT"},
                                                       {"seq2", "", "MKV*"},
                                                       {"seq3", {}, "ACGTACGTTTGG"}});  // digits and blanks skipped
    }
}

TEST(ReadSequences, CrLfLineEnds) {
    expect_records(read_sequences(fixture("crlf.fa")), {{"crlf1", "dos line ends", "ACGTAC"}, {{}, {}, "GG"}});
}

TEST(ReadSequences, Fastq) {
    for (const std::string file : {"reads.fq", "reads.fq.gz"}) {
        SCOPED_TRACE(file);
        expect_records(read_sequences(fixture(file)), {{"read1", "run=7", "ACGTN"}, {"read2", {}, "GGCC"}});
    }
}

TEST(ReadSequences, FastqQualityMayStartWithAt) {
    expect_records(parse_sequences("@r1\nAC\n+\n@@\n@r2\nG\n+\nI", "q.fq"), {{"r1", {}, {}}, {"r2", {}, "G"}});
}

TEST(ReadSequences, PlainTextGenBankStyle) {
    for (const std::string file : {"plain.txt", "plain.txt.gz"}) {
        SCOPED_TRACE(file);
        // Named after the file, without its extension (and .gz).
        expect_records(read_sequences(fixture(file)),
                       {{"plain", {}, "GATCCTCCATATACAACGGTATCTCCACCTCAGGTTTAGATCTCAACAAC"}});
    }
}

// bgzip and `cat a.gz b.gz` write several gzip members: zlib reads on across them.
TEST(ReadSequences, ConcatenatedGzipMembers) {
    std::ifstream in(fixture("multi.fa.gz"), std::ios::binary);
    const std::string member((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    TempDir dir;
    auto r = read_sequences(dir.file("twice.fa.gz", member + member));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(names_of(*r), (std::vector<std::string>{"seq1", "seq2", "seq3", "seq1", "seq2", "seq3"}));
}

// Process substitution (`dpviz align <(zcat a.fa.gz) ...`) hands over a pipe: nothing may be
// read twice or skipped, compressed or not.
TEST(ReadSequences, FromAPipe) {
    std::ifstream in(fixture("multi.fa.gz"), std::ios::binary);
    const std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& content : {std::string(">p1\nACGT\n>p2\nGG\n"), gz}) {
        TempDir dir;
        const std::string fifo = dir.path() + "/pipe";
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << content; });
        auto r = read_sequences(fifo);
        writer.join();
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_EQ((*r)[0].name, content == gz ? "seq1" : "p1");
        EXPECT_EQ(r->size(), content == gz ? 3u : 2u);
    }
}

TEST(ParseSequences, BareStringIsOneRecordNamedAfterOrigin) {
    expect_records(parse_sequences("acgt", "query"), {{"query", {}, "ACGT"}});
}

TEST(ParseSequences, PastedFasta) {
    expect_records(parse_sequences("\n\n>a x\nAC\n;old-style comment\nGT\n>b\nTT", "pasted"),
                   {{"a", {}, "ACGT"}, {"b", {}, "TT"}});
}

TEST(DetectAlphabet, DnaRnaProtein) {
    EXPECT_EQ(detect_alphabet("ACGT"), SeqAlphabet::dna);
    EXPECT_EQ(detect_alphabet("acgtnrysWKMBDHV"), SeqAlphabet::dna);
    EXPECT_EQ(detect_alphabet("NNNN"), SeqAlphabet::dna);
    EXPECT_EQ(detect_alphabet(""), SeqAlphabet::dna);
    EXPECT_EQ(detect_alphabet("ACGU"), SeqAlphabet::rna);
    EXPECT_EQ(detect_alphabet("acgun"), SeqAlphabet::rna);
    EXPECT_EQ(detect_alphabet("ACGTU"), SeqAlphabet::dna);  // T and U together: nucleotide, as in EMBOSS
    EXPECT_EQ(detect_alphabet("MKVLE"), SeqAlphabet::protein);
    EXPECT_EQ(detect_alphabet("ACGT*"), SeqAlphabet::protein);
    EXPECT_STREQ(alphabet_name(SeqAlphabet::dna), "DNA");
    EXPECT_STREQ(alphabet_name(SeqAlphabet::rna), "RNA");
    EXPECT_STREQ(alphabet_name(SeqAlphabet::protein), "protein");
}

// ---------------------------------------------------------------------------------------------
// Picking a record
// ---------------------------------------------------------------------------------------------

TEST(PickRecord, ByDefaultIndexAndName) {
    const std::string path = fixture("multi.fa");
    auto records = read_sequences(path);
    ASSERT_TRUE(records);
    auto first = pick_record(*records, "", path);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->name, "seq1");
    auto second = pick_record(*records, "2", path);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->name, "seq2");
    auto by_name = pick_record(*records, "seq3", path);
    ASSERT_TRUE(by_name);
    EXPECT_EQ(by_name->residues, "ACGTACGTTTGG");
}

TEST(PickRecord, ErrorsSayHowManyRecordsExist) {
    const std::string path = fixture("multi.fa");
    auto records = read_sequences(path);
    ASSERT_TRUE(records);
    EXPECT_TRUE(fails_with(pick_record(*records, "4", path), ErrorKind::input, {path, "record 4", "3 records"}));
    EXPECT_TRUE(fails_with(pick_record(*records, "0", path), ErrorKind::usage, {path, "start at 1", "3 records"}));
    EXPECT_TRUE(fails_with(pick_record(*records, "chr9", path), ErrorKind::input,
                           {path, "'chr9'", "3 records", "'seq1'", "'seq3'"}));
    EXPECT_TRUE(fails_with(pick_record({}, "", "x.fa"), ErrorKind::input, {"x.fa", "no records"}));
}

TEST(PickRecord, NameWinsOverIndex) {
    auto records = parse_sequences(">2\nAAAA\n>1\nCCCC\n>x\nGGGG\n", "nums.fa");
    ASSERT_TRUE(records);
    EXPECT_EQ(pick_record(*records, "1", "nums.fa")->residues, "CCCC");
    EXPECT_EQ(pick_record(*records, "2", "nums.fa")->residues, "AAAA");
    EXPECT_EQ(pick_record(*records, "3", "nums.fa")->residues, "GGGG");
}

TEST(PickRecord, EmptyRecordIsAnErrorOnlyWhenPicked) {
    const std::string path = fixture("empty_record.fa");
    auto records = read_sequences(path);
    ASSERT_TRUE(records) << records.error().message;
    ASSERT_EQ(records->size(), 2u);
    EXPECT_TRUE(fails_with(pick_record(*records, "", path), ErrorKind::input,
                           {path, "record 1 'empty1'", "no residues"}));
    EXPECT_EQ(pick_record(*records, "full", path)->residues, "ACGT");
}

TEST(ReadRecord, MatchesPickRecord) {
    const std::string path = fixture("multi.fa.gz");
    EXPECT_EQ(read_record(path, "")->name, "seq1");
    EXPECT_EQ(read_record(path, "3")->name, "seq3");
    EXPECT_EQ(read_record(path, "seq2")->residues, "MKV*");
    EXPECT_TRUE(fails_with(read_record(path, "9"), ErrorKind::input, {path, "record 9", "3 records"}));
    EXPECT_TRUE(fails_with(read_record(path, "nope"), ErrorKind::input, {path, "'nope'", "3 records"}));
    EXPECT_TRUE(fails_with(read_record(fixture("empty_record.fa"), "1"), ErrorKind::input, {"no residues"}));

    TempDir dir;
    const std::string nums = dir.file("nums.fa", ">2\nAAAA\n>1\nCCCC\n>x\nGGGG\n");
    EXPECT_EQ(read_record(nums, "1")->residues, "CCCC");
    EXPECT_EQ(read_record(nums, "2")->residues, "AAAA");
    EXPECT_EQ(read_record(nums, "3")->residues, "GGGG");
}

// ---------------------------------------------------------------------------------------------
// Malformed sequence inputs: kind, file, line (and column) in the message
// ---------------------------------------------------------------------------------------------

TEST(SequenceErrors, GapCharacter) {
    const std::string path = fixture("gap.fa");
    EXPECT_TRUE(fails_with(read_sequences(path), ErrorKind::input,
                           {path + ":4:3:", "'-'", "record 2 'gapped'", "gaps are not allowed"}));
}

TEST(SequenceErrors, NulByte) {
    const std::string path = fixture("nul.fa");
    EXPECT_TRUE(fails_with(read_sequences(path), ErrorKind::input, {path + ":2:3:", "invalid byte 0", "record 1 'nul'"}));
}

TEST(SequenceErrors, BinaryAndControlBytes) {
    EXPECT_TRUE(fails_with(parse_sequences(">a\nAC\n>b\nGG\xc8T\n", "bin.fa"), ErrorKind::input,
                           {"bin.fa:4:3:", "byte 200", "record 2 'b'"}));
    EXPECT_TRUE(fails_with(parse_sequences("ACGT\nAC\x07", "bell"), ErrorKind::input, {"bell:2:3:", "byte 7"}));
    EXPECT_TRUE(fails_with(parse_sequences(">a\x01x\nAC\n", "h.fa"), ErrorKind::input,
                           {"h.fa:1:3:", "byte 1", "header of record 1"}));
    // A '>' in the middle of plain text is not a record start.
    EXPECT_TRUE(fails_with(parse_sequences("ACGT\n>x\nAC", "mixed"), ErrorKind::input, {"mixed:2:1:", "'>'"}));
}

TEST(SequenceErrors, EmptyAndBlankFiles) {
    EXPECT_TRUE(fails_with(read_sequences(fixture("empty.fa")), ErrorKind::input, {fixture("empty.fa"), "empty"}));
    EXPECT_TRUE(fails_with(read_sequences(fixture("blank.txt")), ErrorKind::input,
                           {fixture("blank.txt"), "no sequence"}));
    EXPECT_TRUE(fails_with(parse_sequences("", "--seq"), ErrorKind::input, {"--seq", "empty"}));
    EXPECT_TRUE(fails_with(parse_sequences("  12 345\n", "digits"), ErrorKind::input, {"digits", "no residues"}));
}

TEST(SequenceErrors, MissingFileAndDirectory) {
    EXPECT_TRUE(fails_with(read_sequences(fixture("no-such-file.fa")), ErrorKind::input,
                           {fixture("no-such-file.fa"), "no such file"}));
    EXPECT_TRUE(fails_with(read_sequences(fixture("")), ErrorKind::input, {"is a directory"}));
}

TEST(SequenceErrors, TruncatedAndCorruptGzip) {
    EXPECT_TRUE(fails_with(read_sequences(fixture("truncated.fa.gz")), ErrorKind::input,
                           {fixture("truncated.fa.gz"), "truncated gzip"}));
    EXPECT_TRUE(fails_with(read_sequences(fixture("corrupt.fa.gz")), ErrorKind::input,
                           {fixture("corrupt.fa.gz") + ": corrupt gzip data: incorrect data check"}));
    EXPECT_TRUE(fails_with(read_record(fixture("truncated.fa.gz"), ""), ErrorKind::input, {"truncated gzip"}));
    TempDir dir;  // the magic bytes and nothing else
    EXPECT_TRUE(fails_with(read_sequences(dir.file("magic.gz", "\x1f\x8b")), ErrorKind::input, {"magic.gz"}));
}

TEST(SequenceErrors, FastqQualityLengthMismatch) {
    const std::string path = fixture("qual_length.fq");
    EXPECT_TRUE(fails_with(read_sequences(path), ErrorKind::input,
                           {path + ":4:", "record 1 'r1'", "3 characters", "sequence 4"}));
}

TEST(SequenceErrors, FastqStructure) {
    struct Case {
        const char* text;
        const char* origin;
        std::vector<std::string> says;
    };
    const Case cases[] = {
        {"@r1\nACGT\nACGT\n+\nIIIIIIII\n", "multi.fq", {"multi.fq:3:", "'+' line", "record 1 'r1'"}},
        {"@r1\nAC\n+r2\nII\n", "plus.fq", {"plus.fq:3:", "'+' line", "'r2'"}},
        {"@r1\nAC\n+\nI I\n", "space.fq", {"space.fq:4:2:", "invalid quality character ' '"}},
        {"@r1\nAC\n+\nII\nr2\n", "at.fq", {"at.fq:5:1:", "expected '@'", "record 2"}},
        {"@r1\nAC\n", "short.fq", {"short.fq:3:", "record 1 'r1'", "truncated"}},
        {"@r1\nAC\n+\n", "noqual.fq", {"noqual.fq:4:", "0 characters"}},
        {"@r1\nA-C\n+\nIII\n", "gap.fq", {"gap.fq:2:2:", "'-'"}},
    };
    for (const Case& c : cases)
        EXPECT_TRUE(fails_with(parse_sequences(c.text, c.origin), ErrorKind::input, c.says)) << c.origin;
}

// ---------------------------------------------------------------------------------------------
// Limits: pathological inputs in bounded memory and time (generated at run time)
// ---------------------------------------------------------------------------------------------

TEST(SequenceLimits, LongSingleLineIsStreamed) {
    TempDir dir;
    std::string line(size_t(16) << 20, 'A');  // 16 MiB, one line, no newline
    const std::string path = dir.file("long.txt", line);
    ReadLimits limits;
    limits.max_line = 1024;  // sequence lines are not buffered, so this does not apply to them
    auto r = read_sequences(path, limits);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ((*r)[0].residues.size(), line.size());
}

TEST(SequenceLimits, LongHeaderLineIsRejected) {
    TempDir dir;
    const std::string path = dir.file("header.fa", ">" + std::string(size_t(4) << 20, 'h') + "\nACGT\n");
    ReadLimits limits;
    limits.max_line = 1 << 20;
    EXPECT_TRUE(fails_with(read_sequences(path, limits), ErrorKind::input, {path + ":1:", "header", "1 MiB"}));
}

TEST(SequenceLimits, FileLargerThanLimit) {
    TempDir dir;
    const std::string path = dir.file("big.txt", std::string(size_t(3) << 20, 'C'));
    ReadLimits limits;
    limits.max_bytes = size_t(1) << 20;
    EXPECT_TRUE(fails_with(read_sequences(path, limits), ErrorKind::resource, {path, "larger than 1 MiB"}));
    EXPECT_TRUE(fails_with(parse_sequences(std::string(size_t(2) << 20, 'C'), "pasted", limits), ErrorKind::resource,
                           {"pasted", "1 MiB"}));
}

TEST(SequenceLimits, GzipBombStopsAtTheLimit) {
    TempDir dir;
    const std::string block(size_t(1) << 20, 'G');
    const std::string path = write_gzip(dir.path("bomb.txt.gz"), block, 64);  // 64 MiB inflated, ~64 KiB on disk
    ReadLimits limits;
    limits.max_bytes = size_t(4) << 20;
    EXPECT_TRUE(fails_with(read_sequences(path, limits), ErrorKind::resource, {path, "decompresses to more than 4 MiB"}));
}

TEST(SequenceLimits, MillionRecords) {
    TempDir dir;
    std::string text;
    constexpr int kRecords = 1'000'000;
    text.reserve(size_t(kRecords) * 16);
    for (int k = 1; k <= kRecords; ++k) {
        text += ">r";
        text += std::to_string(k);
        text += k == kRecords ? "\nMKV\n" : "\nAC\n";
    }
    const std::string path = dir.file("many.fa", text);

    // One pass that keeps one record: fine with any number of records.
    auto last = read_record(path, "r1000000");
    ASSERT_TRUE(last) << last.error().message;
    EXPECT_EQ(last->residues, "MKV");
    auto by_index = read_record(path, "999999");
    ASSERT_TRUE(by_index) << by_index.error().message;
    EXPECT_EQ(by_index->name, "r999999");

    // Listing every record is bounded by max_records.
    ReadLimits limits;
    limits.max_records = 1000;
    EXPECT_TRUE(fails_with(read_sequences(path, limits), ErrorKind::resource, {path, "more than 1000 records"}));
}

// ---------------------------------------------------------------------------------------------
// Signals
// ---------------------------------------------------------------------------------------------

TEST(ReadSignal, CsvWithHeaderByNameAndIndex) {
    for (const std::string file : {"signal.csv", "signal.csv.gz"}) {
        SCOPED_TRACE(file);
        auto by_name = read_signal(fixture(file), "value");
        ASSERT_TRUE(by_name) << by_name.error().message;
        EXPECT_EQ(by_name->values, (std::vector<double>{1.5, -2.25, 300.0}));
        EXPECT_EQ(by_name->name, "signal:value");
        auto by_index = read_signal(fixture(file), "1");
        ASSERT_TRUE(by_index) << by_index.error().message;
        EXPECT_EQ(by_index->values, (std::vector<double>{0, 1, 2}));
    }
}

// A UTF-8 byte-order mark at the start is skipped (files, gzip files and pasted text); one
// anywhere else is still an invalid byte.
TEST(ByteOrderMark, SkippedAtTheStartOnly) {
    const TempDir dir;
    const std::string bom = "\xEF\xBB\xBF";
    for (const bool gz : {false, true}) {
        SCOPED_TRACE(gz ? "gzip" : "plain");
        const std::string fa = gz ? write_gzip(dir.path("bom.fa.gz"), bom + ">s1 d\nACGT\n", 1)
                                  : dir.file("bom.fa", bom + ">s1 d\nACGT\n");
        auto seqs = read_sequences(fa);
        ASSERT_TRUE(seqs) << seqs.error().message;
        ASSERT_EQ(seqs->size(), 1u);
        EXPECT_EQ((*seqs)[0].name, "s1");
        EXPECT_EQ((*seqs)[0].residues, "ACGT");
        const std::string csv = gz ? write_gzip(dir.path("bom.csv.gz"), bom + "t,value\n0,1.5\n1,2\n", 1)
                                   : dir.file("bom.csv", bom + "t,value\n0,1.5\n1,2\n");
        auto sig = read_signal(csv, "value");
        ASSERT_TRUE(sig) << sig.error().message;
        EXPECT_EQ(sig->values, (std::vector<double>{1.5, 2.0}));
    }
    auto pasted = parse_sequences(bom + "ACGT", "pasted");
    ASSERT_TRUE(pasted) << pasted.error().message;
    EXPECT_EQ((*pasted)[0].residues, "ACGT");
    auto pasted_signal = parse_signal(bom + "value\n3\n4\n", "pasted", "value");
    ASSERT_TRUE(pasted_signal) << pasted_signal.error().message;
    EXPECT_EQ(pasted_signal->values, (std::vector<double>{3.0, 4.0}));
    EXPECT_FALSE(parse_sequences("AC" + bom + "GT", "pasted"));
}

TEST(ReadSignal, TsvWithoutHeader) {
    auto r = read_signal(fixture("signal.tsv"), "2");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->values, (std::vector<double>{10, 20, 30}));
    EXPECT_TRUE(fails_with(read_signal(fixture("signal.tsv"), "value"), ErrorKind::usage,
                           {fixture("signal.tsv"), "no header line", "1-based index"}));
}

TEST(ReadSignal, SingleColumnWithCommentsIsTheDefault) {
    auto r = read_signal(fixture("signal.txt"));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->values, (std::vector<double>{0.5, 1.5, 2.5}));
    EXPECT_EQ(r->name, "signal");
}

TEST(ReadSignal, SeveralColumnsNeedAChoice) {
    EXPECT_TRUE(fails_with(read_signal(fixture("signal.csv")), ErrorKind::usage,
                           {fixture("signal.csv"), "2 columns", "'time'", "'value'", "--column"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("signal.csv"), "3"), ErrorKind::input, {"column 3", "2 columns"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("signal.csv"), "volts"), ErrorKind::input,
                           {"no column named 'volts'", "line 1"}));
}

TEST(SignalErrors, BadValuesNameFileLineAndColumn) {
    EXPECT_TRUE(fails_with(read_signal(fixture("nan.csv"), "b"), ErrorKind::input,
                           {fixture("nan.csv") + ":3:", "column 2 'b'", "'nan'", "not a finite number"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("inf.csv"), "b"), ErrorKind::input,
                           {fixture("inf.csv") + ":3:", "column 2 'b'", "'-inf'"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("empty_field.csv"), "b"), ErrorKind::input,
                           {fixture("empty_field.csv") + ":3:", "column 2 'b'", "empty value"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("text_value.csv"), "b"), ErrorKind::input,
                           {fixture("text_value.csv") + ":3:", "column 2 'b'", "'x7' is not a number"}));
    // The other columns are not the signal: text there is fine.
    EXPECT_TRUE(read_signal(fixture("text_value.csv"), "a"));
}

TEST(SignalErrors, StrictNumbers) {
    EXPECT_TRUE(fails_with(parse_signal("1\n1.5abc\n", "s"), ErrorKind::input, {"s:2:", "'1.5abc'"}));
    EXPECT_TRUE(fails_with(parse_signal("1\n0x10\n", "s"), ErrorKind::input, {"s:2:", "'0x10'"}));
    EXPECT_TRUE(fails_with(parse_signal("1 2\n1,5 3\n", "s", "1"), ErrorKind::input, {"s:2:", "'1,5'"}));
    EXPECT_TRUE(fails_with(parse_signal("1\n1e999\n", "s"), ErrorKind::input, {"s:2:", "out of the range"}));
    EXPECT_TRUE(fails_with(parse_signal("1\nNaN\n", "s"), ErrorKind::input, {"s:2:", "'NaN'"}));
    auto ok = parse_signal("+2\n-1e-3\n .5 \n7.\n", "s");
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_EQ(ok->values, (std::vector<double>{2, -1e-3, 0.5, 7}));
}

TEST(SignalErrors, RaggedRowsAndEmptySignals) {
    EXPECT_TRUE(fails_with(parse_signal("1,2\n3\n", "r.csv", "1"), ErrorKind::input,
                           {"r.csv:2:", "1 field, expected 2", "line 1"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("header_only.csv"), "a"), ErrorKind::input,
                           {fixture("header_only.csv"), "no values"}));
    EXPECT_TRUE(fails_with(parse_signal("", "e"), ErrorKind::input, {"e", "no values"}));
    EXPECT_TRUE(fails_with(parse_signal("# only a comment\n\n", "c"), ErrorKind::input, {"c", "no values"}));
    EXPECT_TRUE(fails_with(read_signal(fixture("missing.csv")), ErrorKind::input, {"missing.csv", "no such file"}));
}

TEST(SignalLimits, LongLineIsRejected) {
    ReadLimits limits;
    limits.max_line = 1000;
    EXPECT_TRUE(fails_with(parse_signal("1\n" + std::string(5000, '1') + "\n", "w", "", limits), ErrorKind::input,
                           {"w:2:", "longer than 1000 bytes"}));
    TempDir dir;
    const std::string path = dir.file("wide.csv", std::string(size_t(3) << 20, '7'));
    EXPECT_TRUE(fails_with(read_signal(path, "", limits), ErrorKind::input, {path + ":1:", "line"}));
}

}  // namespace
}  // namespace dpviz::app
