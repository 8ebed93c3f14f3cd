// Substitution matrix files: the NCBI/EMBOSS text format, and the built-in tables that
// app/CMakeLists.txt compiles in from assets/matrices (builtin_matrices.cpp in the build dir).

#include "matrix_file.hpp"
#include "text_util.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>

// Defined in the generated builtin_matrices.cpp: canonical names and the files' bytes.
namespace dpviz::app::builtin {
extern const char* const kMatrixNames[];
extern const unsigned char* const kMatrixData[];
extern const std::size_t kMatrixSizes[];
extern const std::size_t kMatrixCount;
}  // namespace dpviz::app::builtin

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxEntry = kMaxScoreMagnitude;
constexpr uintmax_t kMaxMatrixFileBytes = uintmax_t(1) << 20;

struct Alias {
    std::string_view alias;
    std::string_view canonical;
};
constexpr Alias kAliases[] = {
    {"EBLOSUM45", "BLOSUM45"}, {"EBLOSUM50", "BLOSUM50"}, {"EBLOSUM62", "BLOSUM62"}, {"EBLOSUM80", "BLOSUM80"},
    {"EPAM250", "PAM250"},     {"EDNAFULL", "NUC.4.4"},   {"DNAFULL", "NUC.4.4"},    {"NUC44", "NUC.4.4"},
};

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
           });
}


// "1 entry", "3 entries".
std::string count_of(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}



Expected<SubstitutionMatrix> parse_named(std::string_view text, const std::string& origin, std::string name) {
    SubstitutionMatrix m;
    m.name = std::move(name);
    size_t rows = 0;
    size_t line_no = 0;
    auto fail = [&](const std::string& problem) -> Error {
        return input_error(origin + ":" + std::to_string(std::max<size_t>(line_no, 1)) + ": " + problem);
    };
    auto letter = [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); };
    auto is_matrix_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '*'; };

    while (!text.empty()) {
        ++line_no;
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);

        Tokens tokens(line);
        std::string_view tok;
        if (!tokens.next(tok) || tok.front() == '#') continue;

        if (m.alphabet.empty()) {  // the header row
            do {
                if (tok.size() != 1 || !is_matrix_letter(tok[0]))
                    return fail("header entry " + show_token(tok) +
                                " is not a letter or '*' (the first non-comment line lists the column letters)");
                const char c = letter(tok[0]);
                // Letters and '*' give at most 27 distinct columns, so this also stops a header
                // of a million columns at its 28th entry.
                if (m.alphabet.find(c) != std::string::npos)
                    return fail("duplicate letter '" + std::string(1, c) + "' in the header");
                m.alphabet.push_back(c);
            } while (tokens.next(tok));
            m.scores.reserve(m.alphabet.size() * m.alphabet.size());
            continue;
        }

        const size_t n = m.alphabet.size();
        if (rows == n)
            return fail("more rows than the " + std::to_string(n) + " header letters: the matrix must be square");
        if (tok.size() != 1 || !is_matrix_letter(tok[0]))
            return fail("row starts with " + show_token(tok) + ", expected the row letter '" +
                        std::string(1, m.alphabet[rows]) + "'");
        const char row_letter = letter(tok[0]);
        if (m.alphabet.find(row_letter) == std::string::npos)
            return fail("row letter '" + std::string(1, row_letter) + "' is not in the header");
        if (row_letter != m.alphabet[rows])
            return fail("row '" + std::string(1, row_letter) + "' out of order: expected '" +
                        std::string(1, m.alphabet[rows]) + "' (rows follow the header order)");
        size_t cols = 0;
        while (tokens.next(tok)) {
            if (cols == n)
                return fail("row '" + std::string(1, row_letter) + "' has more than " + std::to_string(n) +
                            " entries, one per header letter");
            int64_t v = 0;
            const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
            const bool integer = ec != std::errc::invalid_argument && ptr == tok.data() + tok.size();
            if (!integer)
                return fail("entry " + show_token(tok) + " in row '" + std::string(1, row_letter) + "', column '" +
                            std::string(1, m.alphabet[cols]) + "' is not an integer");
            if (ec == std::errc::result_out_of_range || v > kMaxEntry || v < -kMaxEntry)
                return fail("entry " + show_token(tok) + " in row '" + std::string(1, row_letter) + "', column '" +
                            std::string(1, m.alphabet[cols]) + "' is out of range (|v| <= " +
                            std::to_string(kMaxEntry) + ")");
            m.scores.push_back(static_cast<int32_t>(v));
            ++cols;
        }
        if (cols < n)
            return fail("row '" + std::string(1, row_letter) + "' has " + count_of(cols, "entry", "entries") + ", expected " +
                        std::to_string(n));
        ++rows;
    }
    if (m.alphabet.empty()) return fail("no header row (the text is empty or only comments)");
    if (rows < m.alphabet.size())
        return fail(count_of(rows, "row", "rows") + " for " + std::to_string(m.alphabet.size()) +
                    " header letters: the matrix must be square");
    return m;
}

std::optional<size_t> builtin_index(std::string_view name_or_alias) {
    std::string_view name = name_or_alias;
    for (const Alias& a : kAliases)
        if (iequals(name, a.alias)) name = a.canonical;
    for (size_t k = 0; k < builtin::kMatrixCount; ++k)
        if (iequals(name, builtin::kMatrixNames[k])) return k;
    return std::nullopt;
}

std::string builtin_list() {
    std::string s;
    for (const auto& n : builtin_matrix_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
}

}  // namespace

std::vector<std::string> builtin_matrix_names() {
    return {builtin::kMatrixNames, builtin::kMatrixNames + builtin::kMatrixCount};
}

std::optional<std::string> builtin_matrix_name(std::string_view name_or_alias) {
    if (const auto k = builtin_index(name_or_alias)) return std::string(builtin::kMatrixNames[*k]);
    return std::nullopt;
}

std::optional<std::string_view> builtin_matrix_text(std::string_view name_or_alias) {
    const auto k = builtin_index(name_or_alias);
    if (!k) return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(builtin::kMatrixData[*k]), builtin::kMatrixSizes[*k]);
}

Expected<SubstitutionMatrix> load_matrix(const std::string& name_or_path) {
    if (const auto k = builtin_index(name_or_path)) {
        const std::string name = builtin::kMatrixNames[*k];
        return parse_named(*builtin_matrix_text(name), "built-in " + name, name);
    }
    std::error_code ec;
    const fs::file_status st = fs::status(name_or_path, ec);
    if (ec || !fs::exists(st))
        return usage_error("'" + name_or_path + "': no built-in matrix or file of that name (built-in: " +
                           builtin_list() + ")");
    if (fs::is_directory(st)) return input_error(name_or_path + ": is a directory, not a matrix file");
    const uintmax_t size = fs::file_size(name_or_path, ec);
    if (!ec && size > kMaxMatrixFileBytes)
        return input_error(name_or_path + ": larger than 1 MiB, too large for a substitution matrix");
    std::ifstream in(name_or_path, std::ios::binary);
    if (!in) return input_error(name_or_path + ": cannot open");
    std::string text;
    text.resize(static_cast<size_t>(std::min<uintmax_t>(ec ? 0 : size, kMaxMatrixFileBytes)));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad() || static_cast<size_t>(in.gcount()) != text.size())
        return input_error(name_or_path + ": read error");
    return parse_matrix(text, name_or_path);
}

Expected<SubstitutionMatrix> parse_matrix(const std::string& text, const std::string& origin) {
    std::string name = fs::path(origin).filename().string();
    return parse_named(text, origin, name.empty() ? origin : std::move(name));
}

}  // namespace dpviz::app
