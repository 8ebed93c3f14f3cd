#!/usr/bin/env python3
"""Writes the fuzz seed corpora tests/fuzz/corpus/<target>/ (see corpus/README.md).

Seeds are the bundled examples, the parser fixtures and hand-made edge cases. Re-running this
rewrites the seeds it owns and leaves other files (crash-* regressions, fuzzer finds that
someone chose to keep) alone. gzip members are written with mtime 0, so output is reproducible.
"""
import gzip
import io
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"
EXAMPLES = ROOT / "assets" / "examples"
MATRICES = ROOT / "assets" / "matrices"
FIXTURES = ROOT / "tests" / "fixtures" / "input"


def gz(data: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9, mtime=0, filename="") as f:
        f.write(data)
    return out.getvalue()


def write(target: str, name: str, data: bytes) -> None:
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)


def copy(target: str, src: Path, name: str = "") -> None:
    if src.exists():
        d = CORPUS / target
        d.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, d / (name or src.name))


def copy_each(target: str, folder: Path, prefix: str, names) -> None:
    """Copies each of `names` from `folder` (those that exist) as prefix + name."""
    for name in names:
        copy(target, folder / name, prefix + name)


def write_each(target: str, files: dict) -> None:
    for name, data in files.items():
        write(target, name, data)


# ---------------------------------------------------------------------------------------------
# sequences: FASTA, FASTQ, plain text, gzip
# ---------------------------------------------------------------------------------------------
copy_each("sequences", EXAMPLES, "example_", ("globins.fa", "dna_repeat_inversion.fa"))
copy_each("sequences", FIXTURES, "fixture_",
          ("multi.fa", "multi.fa.gz", "crlf.fa", "reads.fq", "reads.fq.gz", "plain.txt", "plain.txt.gz",
           "truncated.fa.gz", "corrupt.fa.gz", "gap.fa", "nul.fa", "empty.fa", "blank.txt",
           "empty_record.fa", "qual_length.fq"))

seqs = {
    "only_header.fa": b">only a header\n",
    "only_header_no_newline.fa": b">x",
    "lowercase.fa": b">low\nacgtnacgt\nmkvl\n",
    "iupac.fa": b">iupac\nACGTRYSWKMBDHVN\nacgtryswkmbdhvn\n",
    "stop.fa": b">p protein with stops\nMKV*LL*\n*\n",
    "rna.fa": b">r\nACGUUGCA\n",
    "protein_ambiguous.fa": b">x\nBZXJUO\n",
    "comments.fa": b";a comment\n>a\n;mid-record comment\nAC\n>b\nGG\n",
    "crlf_plain.txt": b"ACGT\r\nACGT\r\n",
    "crlf.fq": b"@r1\r\nACGT\r\n+\r\nIIII\r\n",
    "blanks_first.fa": b"   \n\n  >a desc  \nAC GT\n\n\n>b\n\n",
    "digits_tabs.txt": b"1 acgtacgt 9\n\t10 ggcc\n",
    "control_in_header.fa": b">a\x01b\nAC\n",
    "cr_in_header.fa": b">a x\ry\nAC\n",
    "high_bytes.fa": b">h\nAC\xc3\xa9GT\n",
    "utf8_bom.fa": b"\xef\xbb\xbf>a\nAC\n",
    "gap_dot.fa": b">d\nAC.GT\n",
    "names.fa": b">a\nA\n>b\nC\n>\nG\n>2\nT\n>a\nAA\n>  \nCC\n",
    "no_final_newline.fa": b">a\nACGT",
    "long_header.fa": b">" + b"h" * 5000 + b"\nAC\n",
    "long_line.txt": b"ACGT" * 4096,
    "many_records.fa": b"".join(b">r%d\nAC\n" % k for k in range(80)),
    "fastq_mismatch.fq": b"@r\nACGT\n+\nII\n",
    "fastq_plus_repeats_name.fq": b"@r1 desc\nACGT\n+r1 desc\nIIII\n@r2\nGG\n+\n!!\n",
    "fastq_plus_other_name.fq": b"@r1\nAC\n+r2\nII\n",
    "fastq_truncated.fq": b"@r1\nACGT\n+\n",
    "fastq_at_in_quality.fq": b"@r1\nAC\n+\n@I\n@r2\nG\n+\n@\n",
    "fastq_multiline.fq": b"@r1\nAC\nGT\n+\nIIII\n",
    "fastq_space_quality.fq": b"@r1\nAC\n+\nI I\n",
    "fastq_blank_between.fq": b"@r1\nAC\n+\nII\n\n\n@r2\nG\n+\nI\n",
    "fastq_empty_sequence.fq": b"@r1\n\n+\n\n",
}
write_each("sequences", seqs)
write("sequences", "lowercase.fa.gz", gz(seqs["lowercase.fa"]))
write("sequences", "fastq_mismatch.fq.gz", gz(seqs["fastq_mismatch.fq"]))
write("sequences", "two_members.fa.gz", gz(b">a\nAC") + gz(b"GT\n>b\nTT\n"))
write("sequences", "trailing_garbage.fa.gz", gz(b">a\nACGT\n") + b"garbage")
write("sequences", "empty.gz", gz(b""))
write("sequences", "gzip_magic_only.gz", b"\x1f\x8b")
write("sequences", "bomb.txt.gz", gz(b"A" * (1 << 20)))  # 1 MiB of residues from ~1 KiB

# ---------------------------------------------------------------------------------------------
# signal: CSV, TSV, whitespace columns
# ---------------------------------------------------------------------------------------------
copy_each("signal", EXAMPLES, "example_", ("signal_a.csv", "signal_b.csv"))
copy_each("signal", FIXTURES, "fixture_",
          ("signal.csv", "signal.csv.gz", "signal.tsv", "signal.txt", "nan.csv", "inf.csv", "empty_field.csv",
           "text_value.csv", "header_only.csv"))

signals = {
    "quoted_header.csv": b"\"time\",\"value\"\n0,1\n1,2\n",
    "quoted_values.csv": b"a,b\n\"1\",\"2\"\n",
    "crlf.csv": b"a,b\r\n1,2\r\n3,4\r\n",
    "nan_spellings.txt": b"v\nnan\nNaN\n-nan\nNAN\n",
    "inf_spellings.txt": b"v\ninf\n-Infinity\n+inf\n",
    "numbers.txt": b"v\n1e308\n-1e-308\n1E5\n+2\n.5\n5.\n-0\n0x10\n1e999\n",
    "huge_values.csv": b"v\n1e300\n-1e300\n5\n",
    "tiny_values.csv": b"v\n1e-300\n-4.9e-324\n0\n",
    "ragged.csv": b"a,b\n1,2\n3\n4,5,6\n",
    "trailing_comma.csv": b"a,b,\n1,2,\n3,4,\n",
    "empty.csv": b"",
    "comments_only.csv": b"# x\n#y\n\n",
    "semicolons.csv": b"a;b\n1;2\n",
    "whitespace.txt": b"  1   2\n 3 4 \n\t5\t6\n",
    "mixed_separators.csv": b"a,b\tc\n1,2\t3\n",
    "single_value.txt": b"42",
    "numeric_first_row.csv": b"1,2\n3,4\n",
    "duplicate_names.csv": b"a,a\n1,2\n",
    "spaced_names.csv": b" my col , x \n1,2\n",
    "utf8_header.csv": b"\xc3\xa9,b\n1,2\n",
    "utf8_bom.csv": b"\xef\xbb\xbfvalue\n1\n2\n",
    "inline_comments.csv": b"time,value # header\n0,1 # first\n# whole line\n1,2\n",
    "empty_lines.txt": b"\n\n1\n\n2\n\n",
    "long_line.csv": b"v\n" + b"1" * 5000 + b"\n",
    "many_columns.csv": b",".join(b"c%d" % k for k in range(300)) + b"\n" + b",".join(b"%d" % k for k in range(300)) + b"\n",
    "nul.csv": b"a,b\n1,\x002\n",
}
write_each("signal", signals)
write("signal", "crlf.csv.gz", gz(signals["crlf.csv"]))

# ---------------------------------------------------------------------------------------------
# matrix: NCBI/EMBOSS substitution matrices
# ---------------------------------------------------------------------------------------------
copy_each("matrix", MATRICES, "builtin_", ("BLOSUM45", "BLOSUM50", "BLOSUM62", "BLOSUM80", "PAM250", "NUC.4.4"))
copy_each("matrix", FIXTURES, "fixture_", ("tiny.mat", "bad_entry.mat"))

tiny = b"   A  C  *\nA  2 -1 -5\nC -1  3 -5\n*  -5 -5  1\n"
matrices = {
    "tabs.mat": tiny.replace(b"  ", b"\t"),
    "crlf.mat": tiny.replace(b"\n", b"\r\n"),
    "odd_spacing.mat": b"\t A \t\tC\x0b*\n  A 2\t-1 \t -5  \nC\f-1 3 -5\n*   -5   -5 1   \n",
    "lowercase.mat": b"a c\na 1 -1\nc -1 1\n",
    "comments_between.mat": b"# head\n A C\n# between\nA 1 0\n\n#\nC 0 1\n# tail\n",
    "hash_after_values.mat": b"A C\nA 1 0 # note\nC 0 1\n",
    "duplicate_letter.mat": b"A A\nA 1 1\nA 1 1\n",
    "missing_row.mat": b"A C\nA 1 0\n",
    "extra_row.mat": b"A\nA 1\nA 1\n",
    "extra_column.mat": b"A C\nA 1 0 7\nC 0 1\n",
    "short_row.mat": b"A C\nA 1\nC 0 1\n",
    "rows_out_of_order.mat": b"A C\nC 0 1\nA 1 0\n",
    "row_letter_missing.mat": b"A C\n1 0\n0 1\n",
    "limits.mat": b"A C\nA 1000000 -1000000\nC -1000000 1000000\n",
    "beyond_limits.mat": b"A C\nA 1000001 0\nC 0 1\n",
    "int64_overflow.mat": b"A\nA 99999999999999999999\n",
    "plus_sign.mat": b"A C\nA +5 0\nC 0 +1\n",
    "hex.mat": b"A C\nA 0x1 0\nC 0 1\n",
    "float.mat": b"A C\nA 1.5 0\nC 0 1\n",
    "one_letter.mat": b"A\nA 0\n",
    "empty.mat": b"",
    "only_comments.mat": b"# nothing\n#\n",
    "no_final_newline.mat": b"A C\nA 1 0\nC 0 1",
    "digit_header.mat": b"1 2\n1 0 0\n2 0 0\n",
    "multichar_header.mat": b"AB C\nAB 1 0\nC 0 1\n",
    "full_alphabet.mat": b" ".join(bytes([c]) for c in range(65, 91)) + b" *\n" + b"".join(
        bytes([c]) + b" " + b" ".join(b"1" if c == d else b"-1" for d in list(range(65, 91)) + [42]) + b"\n"
        for c in list(range(65, 91)) + [42]),
    "high_bytes.mat": b"A \xc3\xa9\nA 1 0\n\xc3\xa9 0 1\n",
    "utf8_bom.mat": b"\xef\xbb\xbf" + tiny,
}
write_each("matrix", matrices)

# ---------------------------------------------------------------------------------------------
# hmm: HMM model files (docs/algorithms.md, "Viterbi: the HMM file"); the harness also reads
# the same bytes as an observation sequence
# ---------------------------------------------------------------------------------------------
copy_each("hmm", EXAMPLES, "example_", ("casino.hmm", "cpg.hmm"))

head = b"states F L\nalphabet a b\nstart 0.5 0.5\n"
rows = b"transition\nF 0.9 0.1\nL 0.2 0.8\nemission\nF 1/4 3/4\nL 1 0\n"
hmms = {
    "minimal.hmm": b"states S\nalphabet x\nstart 1\ntransition\nS 1\nemission\nS 1\n",
    "rows_any_order.hmm": head + b"emission\nL 1 0\nF 0.25 0.75\ntransition\nL 0.2 0.8\nF 0.9 0.1\n",
    "crlf_bom_comments.hmm": b"\xef\xbb\xbf# m\r\n" + (head + rows).replace(b"\n", b"  # c\r\n"),
    "zeros.hmm": b"states A B\nalphabet x y\nstart 1 0\ntransition\nA 0 1\nB 1 0\nemission\nA 1 0\nB 0 1\n",
    "many_symbols.hmm": b"states S\nalphabet " + b" ".join(bytes([c]) for c in range(0x21, 0x7f) if c not in b"#>")
    + b"\nstart 1\ntransition\nS 1\nemission\nS" + b" 1/92" * 92 + b"\n",
    "empty.hmm": b"",
    "row_sum.hmm": head + b"transition\nF 0.9 0.2\n",
    "unknown_state.hmm": head + b"transition\nX 0.5 0.5\n",
    "row_twice.hmm": head + b"transition\nF 0.9 0.1\nF 0.9 0.1\n",
    "row_missing.hmm": head + b"transition\nF 0.9 0.1\nemission\nF 1 0\nL 1 0\n",
    "no_emission.hmm": head + b"transition\nF 0.9 0.1\nL 0.2 0.8\n",
    "duplicate_state.hmm": b"states F F\n",
    "duplicate_symbol.hmm": b"states F\nalphabet a a\n",
    "multichar_symbol.hmm": b"states F\nalphabet ab\n",
    "bad_values.hmm": b"states A B C D E\nstart nan inf -0.1 1.5 1/0\n",
    "fractions.hmm": b"states A B\nstart 1/3 2/3\n" + b"alphabet x\ntransition\nA 1e-1 9e-1\nB 0.5 1/2\nemission\nA 1\nB 1\n",
    "binary.hmm": b"states F\x00L\n\x01\x02\xff",
    "observations.txt": b"# rolls\n31662 6666\n12\n",
    "observations.fa": b">r1 rolls\nabab\n>r2\nbb\n",
}
write_each("hmm", hmms)

# ---------------------------------------------------------------------------------------------
# cli: argv words separated by NUL bytes; the files named are the harness's sandbox files
# (q.fa q.fa.gz t.fa r.fq p.txt e.fa s.csv s.tsv m.mat dir, see cli_sandbox in harness.cpp)
# ---------------------------------------------------------------------------------------------
clis = {
    "seq_literals": ["align", "--seq", "MKVLA", "MKILA"],
    "files": ["align", "q.fa", "t.fa"],
    "global_json": ["align", "--algo", "global", "--json", "q.fa", "t.fa"],
    "dtw_column": ["align", "--algo", "dtw", "--column", "value", "s.csv", "s.csv"],
    "dtw_band_squared": ["align", "--algo", "dtw", "--band", "3", "--dtw-cost", "squared", "--column", "2",
                         "s.tsv", "s.tsv"],
    "dtw_scale": ["align", "--algo", "dtw", "--dtw-scale", "0.5", "--column", "value", "s.csv", "s.csv"],
    "matrix_file": ["align", "--matrix", "m.mat", "--seq", "ACGT", "AC*G"],
    "match_mismatch": ["align", "--match", "2", "--mismatch", "-3", "--seq", "ACGT", "AGT"],
    "score_only_gz_fastq": ["align", "--score-only", "--backend", "cpu", "--threads", "2", "q.fa.gz", "r.fq"],
    "records": ["align", "--query-record", "q2", "--target-record", "2", "q.fa", "q.fa"],
    "edit": ["align", "--algo", "edit", "--seq", "kitten", "sitting"],
    "lcs_plain": ["align", "--algo", "lcs", "p.txt", "q.fa"],
    "inline_values": ["align", "--gap-open=5", "--gap-extend=5", "--seq", "ACGT", "ACGT"],
    "help": ["--help"],
    "version": ["--version"],
    "align_help": ["align", "--help"],
    "align_alone": ["align"],
    "unknown_command": ["bogus"],
    "double_dash": ["align", "--seq", "--", "-A", "B"],
    "empty_file": ["align", "e.fa", "q.fa"],
    "directory": ["align", "dir", "q.fa"],
    "missing_file": ["align", "missing.fa", "q.fa"],
    "colormap": ["align", "--colormap", "magma", "--png-size", "32", "--seq", "A", "A"],
    "pasted_fasta": ["align", "--seq", ">a\nACGT\n>b\nGG", "ACGT"],
    "cuda_fallback": ["align", "--matrix", "BLOSUM62", "--seq", "MKV", "MKV", "--backend", "cuda"],
    "bad_numbers": ["align", "--gap-open", "1e3", "--threads", "-1", "--seq", "A", "A"],
    "semiglobal_semicolon": ["align", "--algo", "semiglobal", "--matrix", "EDNAFULL", "--seq", "ACGTTT", "CGT"],
    "empty_words": ["align", "", "", "--seq"],
    "region_table": ["align", "--region", "1:4,0:3", "--table", "-", "--seq", "ACGTAC", "ACGA"],
    "landscape_table": ["align", "--algo", "global", "--layer", "landscape", "--table", "-", "--seq", "ACGTAC", "ACGA"],
}
for name, words in clis.items():
    write("cli", name, b"\0".join(w.encode() for w in words))
