// Small text helpers.
#include "text/text.hpp"

namespace rdmi {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (const auto& item : items) {
        if (&item != &items.front()) out += separator;
        out += item;
    }
    return out;
}

std::string_view trim(std::string_view text, std::string_view chars) {
    const auto first = text.find_first_not_of(chars);
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(chars);
    return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find('\n');
        lines.push_back(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return lines;
}

std::vector<std::string_view> split_items(std::string_view text, std::string_view separators,
                                          std::string_view blanks) {
    std::vector<std::string_view> items;
    while (true) {
        const auto end = text.find_first_of(separators);
        if (auto item = trim(text.substr(0, end), blanks); !item.empty()) items.push_back(item);
        if (end == std::string_view::npos) return items;
        text.remove_prefix(end + 1);
    }
}

std::string lower_hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        out += kDigits[byte >> 4U];
        out += kDigits[byte & 0x0fU];
    }
    return out;
}

}  // namespace rdmi
