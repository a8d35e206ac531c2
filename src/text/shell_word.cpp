// shell_word(): one word, whatever the bytes.
#include "text/shell_word.hpp"

#include <algorithm>

namespace rdmi {
namespace {

bool plain(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_word(std::string_view text) {
    if (!text.empty() && std::all_of(text.begin(), text.end(), plain)) return std::string(text);
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    return out + "'";
}

}  // namespace rdmi
