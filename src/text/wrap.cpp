// Word wrapping: a greedy fill, which is what a terminal reader expects of --help.
#include "text/wrap.hpp"

#include <algorithm>

namespace rdmi::text {

std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', at);
        if (start == std::string_view::npos) break;
        const std::size_t end = std::min(text.find(' ', start), text.size());
        const std::string_view word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            lines.push_back(std::move(line));
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
        at = end;
    }
    if (!line.empty()) lines.push_back(std::move(line));
    return lines;
}

std::string hanging(std::string_view head, std::string_view body, std::size_t column,
                    std::size_t width) {
    std::string out = "  ";
    out += head;
    // Too narrow a body column, or one a word of the body cannot fit in, reads worse than
    // starting every body line near the margin.
    std::size_t longest = 0;
    for (const auto& word : wrap_words(body, 1)) longest = std::max(longest, word.size());
    const std::size_t room =
        width > column + std::max<std::size_t>(20, longest - 1) ? width - column : 0;
    const std::size_t indent = room == 0 ? 6 : column;
    const std::size_t body_width = room == 0 ? (width > indent + 20 ? width - indent : 20) : room;
    std::vector<std::string> lines = wrap_words(body, body_width);
    if (lines.empty()) return out + '\n';
    std::size_t first = 0;
    if (room != 0 && out.size() + 2 <= column) {
        out.append(column - out.size(), ' ');
        out += lines[0];
        first = 1;
    }
    out += '\n';
    for (std::size_t i = first; i < lines.size(); ++i) {
        out.append(indent, ' ');
        out += lines[i];
        out += '\n';
    }
    return out;
}

}  // namespace rdmi::text
