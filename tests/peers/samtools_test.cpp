// dpviz's SAM output read by Debian's samtools: through a BAM and back every record comes out as
// dpviz wrote it, and samtools calmd against the targets agrees with its NM, POS and =/X CIGAR.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "peer_env.hpp"
#include "real_pairs.hpp"
#include "test_text.hpp"

namespace dpviz::peers {
namespace {

namespace fs = std::filesystem;

using dpviz::test::fields;
using dpviz::test::lines_of;

std::vector<std::string> records(const std::string& sam) {
    std::vector<std::string> out;
    for (const std::string& l : lines_of(sam))
        if (!l.empty() && l[0] != '@') out.push_back(l);
    return out;
}

// A FASTA file of several records next to the peer tests' other scratch files.
std::string write_fasta(const std::string& file, const std::vector<std::pair<std::string, std::string>>& recs) {
    const fs::path dir = fs::path(literal("scratch_probe", "ACGT").fasta).parent_path();
    const std::string path = (dir / file).string();
    std::ofstream f(path);
    for (const auto& [name, residues] : recs) f << '>' << name << '\n' << residues << '\n';
    return path;
}

std::string write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// Runs `dpviz ARGS --format sam` and checks what samtools makes of its output; `ref` is a FASTA
// file of the targets under the names the SAM gives them.
void check_with_samtools(const std::string& samtools, std::vector<std::string> args, const std::string& ref,
                         const std::string& stem) {
    SCOPED_TRACE(stem);
    args.insert(args.begin(), DPVIZ_BINARY);
    args.push_back("--format");
    args.push_back("sam");
    const CommandOutput dp = run_command(args);
    ASSERT_EQ(dp.status, 0) << dp.err;
    const std::string sam = write_file(ref + "." + stem + ".sam", dp.out);
    const std::vector<std::string> ours = records(dp.out);
    ASSERT_FALSE(ours.empty());

    // SAM -> BAM -> SAM: samtools parses every field into its binary form and writes it back.
    const std::string bam = ref + "." + stem + ".bam";
    const CommandOutput to_bam = run_command({samtools, "view", "-b", "-o", bam, sam});
    ASSERT_EQ(to_bam.status, 0) << to_bam.err;
    EXPECT_EQ(to_bam.err, "");
    const CommandOutput back = run_command({samtools, "view", bam});
    ASSERT_EQ(back.status, 0) << back.err;
    EXPECT_EQ(records(back.out), ours);
    const CommandOutput header = run_command({samtools, "view", "-H", bam});
    ASSERT_EQ(header.status, 0) << header.err;
    for (const std::string& l : lines_of(dp.out))
        if (!l.empty() && l[0] == '@') {
            EXPECT_NE(header.out.find(l + "\n"), std::string::npos) << l;
        }

    // calmd recomputes NM from the reference at POS under the CIGAR, and with -e writes '=' for
    // every read base equal to the reference base: exactly the CIGAR's '=' columns.
    const CommandOutput md = run_command({samtools, "calmd", "-e", bam, ref});
    ASSERT_EQ(md.status, 0) << md.err;
    EXPECT_EQ(md.err.find("different NM"), std::string::npos) << md.err;
    const std::vector<std::string> calmd = records(md.out);
    ASSERT_EQ(calmd.size(), ours.size());
    for (size_t k = 0; k < ours.size(); ++k) {
        const auto f = fields(ours[k]), g = fields(calmd[k]);
        ASSERT_GE(f.size(), 11u);
        ASSERT_GE(g.size(), 11u);
        if (f[1] == "4") continue;  // unmapped
        const std::string& cigar = f[5];
        const std::string &seq = f[9], &marked = g[9];
        size_t at = 0;
        int64_t n = 0;
        for (const char c : cigar) {
            if (std::isdigit(static_cast<unsigned char>(c))) {
                n = n * 10 + (c - '0');
                continue;
            }
            if (c != 'D') {  // '=', 'X', 'I' and 'S' consume read bases
                for (int64_t m = 0; m < n; ++m, ++at) {
                    ASSERT_LT(at, marked.size());
                    if (c == '=') {
                        EXPECT_EQ(marked[at], '=') << ours[k] << " base " << at;
                    } else {  // 'X', 'I', 'S': not equal to a reference base, or not over one
                        EXPECT_EQ(marked[at], seq[at]) << ours[k] << " base " << at;
                    }
                }
            }
            n = 0;
        }
        EXPECT_EQ(at, seq.size()) << ours[k];
    }
}

TEST(Samtools, ReadsEveryAlgorithmsSam) {
    const auto samtools = find_program("samtools");
    if (!samtools) GTEST_SKIP() << "samtools is not installed (apt install samtools)";
    // Reads that align with clips at either end, across gaps of both kinds, over ambiguity
    // codes, and not at all.
    const std::string queries = write_fasta("sam_queries.fa", {{"clip_both", "GGGGACGTTAGCATTACGATCAGGGG"},
                                                              {"gapped", "ACGTTAGCTACGATTTCAGTAC"},
                                                              {"unaligned", "NNNNNNNN"},
                                                              {"whole", "TTACGTTAGCATTACGATCAGTACGA"},
                                                              {"with_n", "CACGTNGCATTACGGANCAG"}});
    // chr_b holds an N where with_n does: SAM's NM counts N against N as a difference.
    const std::string targets = write_fasta("sam_targets.fa", {{"chr_a", "TTACGTTAGCATTACGATCAGTACGA"},
                                                              {"chr_b", "CCCACGTNGCATTACGGATCAGCC"}});
    for (const std::string algo : {"local", "global", "semiglobal", "edit", "lcs"})
        check_with_samtools(*samtools,
                            {"batch", "--path", "--all-vs-all", "--backend", "cpu", "--algo", algo, queries, targets},
                            targets, algo);
    // Match/mismatch with linear gaps, and dpviz align's one-pair file.
    check_with_samtools(*samtools, {"batch", "--path", "--all-vs-all", "--backend", "cpu", "--match", "2", "--mismatch",
                                    "-3", "--gap-open", "4", "--gap-extend", "4", queries, targets},
                        targets, "linear");
    check_with_samtools(*samtools, {"align", "--backend", "cpu", "--query-record", "gapped", "--target-record", "chr_b",
                                    queries, targets},
                        targets, "align");
}

TEST(Samtools, ReadsTheSamOfRealDnaPairs) {
    const auto samtools = find_program("samtools");
    if (!samtools) GTEST_SKIP() << "samtools is not installed (apt install samtools)";
    if (const std::string why = emboss_data_missing(); !why.empty()) GTEST_SKIP() << why;
    for (const std::string label : {"rhodopsin_mrna", "lacz_operon"}) {
        const auto [q, t] = real_pair(label).load();
        for (const std::string algo : {"local", "semiglobal", "global"})
            check_with_samtools(*samtools, {"align", "--backend", "cpu", "--algo", algo, q.fasta, t.fasta}, t.fasta,
                                label + "_" + algo);
    }
}

}  // namespace
}  // namespace dpviz::peers
