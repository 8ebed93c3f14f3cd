// The command-line helpers shared by the entry points (see cli_common.hpp).
#include "cli_common.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <ostream>

#include "cli.hpp"

namespace dpviz::app {

int exit_code(ErrorKind k) {
    switch (k) {
        case ErrorKind::usage: return kExitUsage;
        case ErrorKind::input: return kExitInput;
        case ErrorKind::resource: return kExitResource;
        case ErrorKind::device: return kExitDevice;
        case ErrorKind::cancelled: return kExitResource;  // the CLI never cancels a run
    }
    return kExitInput;
}

std::string one_line(const std::string& s) {
    std::string o;
    for (const char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            o += buf;
        } else {
            o += c;
        }
    }
    return o;
}

int fail(std::ostream& err, const Error& e) {
    err << "dpviz: " << one_line(e.message) << "\n";
    return exit_code(e.kind);
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (const char c : s) {
        switch (c) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    o += buf;
                } else {
                    o += c;
                }
        }
    }
    return o;
}

std::string Args::get(const std::string& k, const std::string& fallback) const {
    const auto it = values.find(k);
    return it == values.end() ? fallback : it->second;
}

Expected<Args> parse_args(const std::vector<std::string>& args, size_t first, const std::vector<std::string>& value_opts,
                          const std::vector<std::string>& flag_opts, const std::string& help) {
    Args a;
    auto is = [](const std::vector<std::string>& v, const std::string& s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (size_t k = first; k < args.size(); ++k) {
        std::string s = args[k];
        if (s == "--") {
            for (++k; k < args.size(); ++k) a.positional.push_back(args[k]);
            break;
        }
        if (s.size() > 2 && s.rfind("--", 0) == 0) {
            std::string value;
            bool has_inline = false;
            if (const auto eq = s.find('='); eq != std::string::npos) {
                value = s.substr(eq + 1);
                s = s.substr(0, eq);
                has_inline = true;
            }
            if (is(flag_opts, s)) {
                if (has_inline) return usage_error("option " + s + " takes no value");
                a.flags[s] = true;
            } else if (is(value_opts, s)) {
                if (!has_inline) {
                    if (k + 1 >= args.size()) return usage_error("option " + s + " needs a value");
                    value = args[++k];
                }
                a.values[s] = value;
            } else {
                return usage_error("unknown option " + s + " (see " + help + ")");
            }
        } else if (s.size() > 1 && s[0] == '-' && !std::isdigit(static_cast<unsigned char>(s[1]))) {
            return usage_error("unknown option " + s + " (see " + help + ")");
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

Expected<int32_t> int_option(const Args& a, const std::string& name, int32_t fallback) {
    const auto it = a.values.find(name);
    if (it == a.values.end()) return fallback;
    int32_t v = 0;
    const std::string& s = it->second;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return usage_error(name + " expects an integer, got '" + s + "'");
    return v;
}

}  // namespace dpviz::app
