// Breaking over-long lines of a human document at spaces, with a hanging indent.
#include "text/fit_width.hpp"

#include <algorithm>
#include <vector>

#include "text/text.hpp"

namespace rdmi::text {
namespace {

constexpr std::size_t kHang = 4;
constexpr std::size_t kLeastRoom = 20;     // columns a continuation keeps for its words
constexpr std::size_t kLongestLabel = 16;  // "meaning:", "fix:", "resolves (run, build):"

// Bytes of an SGR sequence ("\033[...m") starting at `at`, 0 when there is none.
std::size_t sgr_length(std::string_view text, std::size_t at) {
    if (text[at] != '\033' || at + 1 >= text.size() || text[at + 1] != '[') return 0;
    for (std::size_t i = at + 2; i < text.size(); ++i) {
        const char c = text[i];
        if (c == 'm') return i - at + 1;
        if ((c < '0' || c > '9') && c != ';') return 0;
    }
    return 0;
}

// A run of non-space bytes, with the spaces before it.
struct Word {
    std::string_view spaces;
    std::string_view text;
};

// Where a shell word that starts at `start` ends: a printed command quotes a path with spaces
// as one word ('a b', NAME='a b', 'it'\''s'), which must not be broken at its spaces. Only a
// word that opens a quote at its start or after '=' is read so (an apostrophe in prose,
// "slot's", is not a quote); npos when its quote never closes (then it is plain words).
std::size_t shell_word_end(std::string_view line, std::size_t start) {
    const std::size_t space = std::min(line.find(' ', start), line.size());
    const std::size_t equals = line.substr(start, space - start).find('=');
    const std::size_t opens = equals == std::string_view::npos ? start : start + equals + 1;
    if (opens >= line.size() || line[opens] != '\'') return std::string_view::npos;
    bool quoted = false;
    for (std::size_t i = start; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\'') {
            quoted = !quoted;
        } else if (c == '\\' && !quoted) {
            ++i;
        } else if (c == ' ' && !quoted) {
            return i;
        }
    }
    return quoted ? std::string_view::npos : line.size();
}

std::vector<Word> words_of(std::string_view line) {
    std::vector<Word> words;
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t start = line.find_first_not_of(' ', at);
        if (start == std::string_view::npos) break;
        std::size_t end = shell_word_end(line, start);
        if (end == std::string_view::npos) end = std::min(line.find(' ', start), line.size());
        words.push_back({line.substr(at, start - at), line.substr(start, end - start)});
        at = end;
    }
    return words;
}

bool is_label(std::string_view word) {
    if (word.size() > kLongestLabel) return false;
    if (word.size() >= 2 && word.back() == ':') return true;
    // "1." .. "99.": a numbered step.
    return word.size() >= 2 && word.back() == '.' &&
           std::all_of(word.begin(), word.end() - 1, [](char c) { return c >= '0' && c <= '9'; });
}

// Where a continuation of `line` starts: under the value of a label, else deeper than the line.
std::size_t hang_of(const std::vector<Word>& words, std::size_t width) {
    const std::size_t leading = words.front().spaces.size();
    // A label, or the first of a row's columns (two spaces or more after it).
    if (words.size() > 1 && (is_label(words[0].text) || words[1].spaces.size() >= 2)) {
        const std::size_t value = leading + display_columns(words[0].text) + words[1].spaces.size();
        if (value <= width / 2) return value;
    }
    // A continuation with no room left would put every word on a line of its own.
    return leading + kHang + kLeastRoom <= width ? leading + kHang : kHang;
}

std::string fit_line(std::string_view line, std::size_t width) {
    const std::vector<Word> words = words_of(line);
    if (words.empty()) return std::string(line);
    const std::size_t hang = hang_of(words, width);
    std::string out;
    std::size_t column = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const Word& word = words[i];
        const std::size_t length = display_columns(word.text);
        // A word too long for a continuation line too (a path, a command's argument) stays
        // after the word before it: breaking there would only leave a short line above it, and
        // would cut `export NAME=...` into two commands when pasted. The spaces at a break are
        // dropped: the hang takes their place.
        if (i > 0 && column + word.spaces.size() + length > width && hang + length <= width) {
            out += '\n';
            out.append(hang, ' ');
            column = hang;
        } else {
            out += word.spaces;
            column += word.spaces.size();
        }
        out += word.text;
        column += length;
    }
    return out;
}

}  // namespace

std::size_t display_columns(std::string_view line) {
    std::size_t columns = 0;
    for (std::size_t i = 0; i < line.size();) {
        if (const std::size_t sgr = sgr_length(line, i); sgr > 0) {
            i += sgr;
            continue;
        }
        // A UTF-8 continuation byte belongs to the character before it.
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++columns;
        ++i;
    }
    return columns;
}

std::string fit_to_width(std::string_view text, std::size_t width) {
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t newline = text.find('\n', at);
        const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
        const std::string_view line = text.substr(at, end - at);
        out += display_columns(line) <= width ? std::string(line) : fit_line(line, width);
        if (newline == std::string_view::npos) break;
        out += '\n';
        at = newline + 1;
    }
    return out;
}

}  // namespace rdmi::text
