// Byte-level checks of a `.pc` file: NUL bytes, overlong lines, variable reference cycles.
#include "pkgconfig/pc_text_check.hpp"

#include <cctype>
#include <map>
#include <set>

namespace rdmi::pkgconfig {
namespace {

// Variables libpkgconf defines itself for every package or globally.
bool is_builtin_variable(std::string_view name) {
    return name == "pcfiledir" || name == "pc_sysrootdir" || name == "pc_top_builddir";
}

struct LogicalLine {
    std::size_t number = 0;  // 1-based number of the first physical line
    std::string text;
};

// Mirrors libpkgconf's pkgconf_fgetline: '#' starts a comment unless escaped, a backslash
// before the newline continues the line.
std::vector<LogicalLine> logical_lines(std::string_view bytes) {
    std::vector<LogicalLine> out;
    LogicalLine cur{1, {}};
    std::size_t physical = 1;
    bool comment = false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (c == '\n') {
            ++physical;
            if (!comment && !cur.text.empty() && cur.text.back() == '\\') {
                cur.text.pop_back();
                continue;
            }
            out.push_back(std::move(cur));
            cur = LogicalLine{physical, {}};
            comment = false;
            continue;
        }
        if (comment) continue;
        if (c == '#') {
            if (!cur.text.empty() && cur.text.back() == '\\') {
                cur.text.back() = '#';
            } else {
                comment = true;
            }
            continue;
        }
        cur.text += c;
    }
    if (!cur.text.empty()) out.push_back(std::move(cur));
    return out;
}

bool is_key_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
}

// "${name}" references in a value; "$$" is libpkgconf's escape for a literal '$'.
std::vector<std::string> references(std::string_view value) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i + 1 < value.size(); ++i) {
        if (value[i] != '$') continue;
        if (value[i + 1] == '$') {
            ++i;
            continue;
        }
        if (value[i + 1] != '{') continue;
        const auto close = value.find('}', i + 2);
        if (close == std::string_view::npos) break;
        out.emplace_back(value.substr(i + 2, close - i - 2));
        i = close;
    }
    return out;
}

struct Statement {
    std::size_t line = 0;
    std::string key;  // "" when the line is neither a variable nor a field
    bool is_variable = false;
    std::vector<std::string> refs;
};

Statement parse_statement(const LogicalLine& line) {
    Statement st;
    st.line = line.number;
    std::string_view text = line.text;
    std::size_t pos = 0;
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])) != 0) ++pos;
    const std::size_t key_start = pos;
    while (pos < text.size() && is_key_char(text[pos])) ++pos;
    if (pos == key_start) return st;
    const std::string_view key = text.substr(key_start, pos - key_start);
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])) != 0) ++pos;
    if (pos >= text.size() || (text[pos] != '=' && text[pos] != ':')) return st;
    st.key = std::string(key);
    st.is_variable = text[pos] == '=';
    st.refs = references(text.substr(pos + 1));
    return st;
}

// A path of variable names from `from` to `to` through the definitions' references, or empty.
std::vector<std::string> find_path(const std::map<std::string, std::set<std::string>>& graph,
                                   const std::string& from, const std::string& to) {
    std::vector<std::string> path{from};
    std::set<std::string> seen{from};
    // Iterative DFS keeps a hostile file with thousands of variables off the call stack.
    std::vector<std::pair<std::string, std::set<std::string>::const_iterator>> stack;
    const auto edges = [&](const std::string& name) -> const std::set<std::string>* {
        auto it = graph.find(name);
        return it == graph.end() ? nullptr : &it->second;
    };
    if (from == to) return path;
    const auto* first = edges(from);
    if (first == nullptr) return {};
    stack.emplace_back(from, first->begin());
    while (!stack.empty()) {
        auto& [name, it] = stack.back();
        const auto* out = edges(name);
        if (it == out->end()) {
            stack.pop_back();
            path.pop_back();
            continue;
        }
        const std::string next = *it;
        ++it;
        if (next == to) {
            path.push_back(next);
            return path;
        }
        if (!seen.insert(next).second) continue;
        const auto* next_edges = edges(next);
        if (next_edges == nullptr) continue;
        path.push_back(next);
        stack.emplace_back(next, next_edges->begin());
    }
    return {};
}

}  // namespace

PcTextCheck check_pc_text(std::string_view bytes) {
    PcTextCheck result;
    if (const auto nul = bytes.find('\0'); nul != std::string_view::npos) {
        result.fatal = "contains a NUL byte at offset " + std::to_string(nul) + ", not a text file";
        return result;
    }
    std::size_t line_no = 1;
    std::size_t start = 0;
    while (start <= bytes.size()) {
        auto end = bytes.find('\n', start);
        if (end == std::string_view::npos) end = bytes.size();
        if (end - start > kMaxPcLineBytes) {
            result.fatal = "line " + std::to_string(line_no) + " is " +
                           std::to_string(end - start) + " bytes long (libpkgconf splits lines " +
                           "longer than " + std::to_string(kMaxPcLineBytes) + ")";
            return result;
        }
        ++line_no;
        start = end + 1;
    }

    std::vector<Statement> statements;
    std::map<std::string, std::set<std::string>> graph;  // variable -> names its values use
    std::map<std::string, std::size_t> first_definition;
    for (const auto& line : logical_lines(bytes)) {
        Statement st = parse_statement(line);
        if (st.key.empty()) continue;
        if (st.is_variable) {
            graph[st.key].insert(st.refs.begin(), st.refs.end());
            first_definition.emplace(st.key, st.line);
        }
        statements.push_back(std::move(st));
    }

    std::set<std::string> defined;
    for (const auto& st : statements) {
        for (const auto& ref : st.refs) {
            if (defined.count(ref) != 0 || is_builtin_variable(ref)) continue;
            const auto later = first_definition.find(ref);
            const std::string where = "line " + std::to_string(st.line) + ": ";
            if (later == first_definition.end()) {
                result.warnings.push_back(where + "variable '" + ref +
                                          "' is not defined (expands to \"\")");
                continue;
            }
            if (st.is_variable) {
                auto cycle = find_path(graph, ref, st.key);
                if (!cycle.empty()) {
                    std::string text = st.key;
                    for (const auto& name : cycle) text += " -> " + name;
                    result.fatal =
                        where + "variable '" + st.key + "' refers to itself through " + text;
                    return result;
                }
            }
            result.warnings.push_back(where + "variable '" + ref +
                                      "' is used before its definition on line " +
                                      std::to_string(later->second) + " (expands to \"\")");
        }
        if (st.is_variable) defined.insert(st.key);
    }
    return result;
}

}  // namespace rdmi::pkgconfig
