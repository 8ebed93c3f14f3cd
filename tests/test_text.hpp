// Reading what a program wrote, for the tests that check it: its lines, the tab-separated fields
// of one line, one field of a flat JSON object, and a whole file.
#pragma once

#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace dpviz::test {

inline std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

inline std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string f; std::getline(in, f, '\t');) out.push_back(f);
    return out;
}

// A field of a flat JSON object as written (a quoted string, a number, null or a flat array),
// "<missing>" when absent: enough for dpviz's one-object-per-pair output.
inline std::string json_field(const std::string& json, const std::string& key) {
    const std::regex re("\"" + key + "\":(\"[^\"]*\"|[-0-9.eE+]+|null|true|false|\\[[^\\]]*\\])");
    std::smatch m;
    return std::regex_search(json, m, re) ? m[1].str() : "<missing>";
}

// The bytes of a file ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

}  // namespace dpviz::test
