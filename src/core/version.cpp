// DOCA version parsing.
#include "core/version.hpp"

#include <cctype>
#include <charconv>
#include <tuple>

#include "text/text.hpp"

namespace rdmi {
namespace {

constexpr unsigned kMaxField = 1000000;

bool parse_field(std::string_view text, unsigned& out) {
    if (text.empty() || text.size() > 7) return false;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && out < kMaxField;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

std::string DocaVersion::release() const {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string DocaVersion::to_string() const {
    if (!build) return release();
    std::string third = std::to_string(patch * 1000 + *build);
    while (third.size() < 4) third.insert(third.begin(), '0');
    return std::to_string(major) + "." + std::to_string(minor) + "." + third;
}

std::optional<DocaVersion> parse_doca_version(std::string_view text) {
    text = trim(text);
    const auto dot1 = text.find('.');
    if (dot1 == std::string_view::npos) return std::nullopt;
    const auto dot2 = text.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos) return std::nullopt;
    DocaVersion v;
    unsigned third = 0;
    const auto third_text = text.substr(dot2 + 1);
    if (!parse_field(text.substr(0, dot1), v.major) ||
        !parse_field(text.substr(dot1 + 1, dot2 - dot1 - 1), v.minor) ||
        !parse_field(third_text, third)) {
        return std::nullopt;
    }
    if (third_text.size() == 4) {
        v.patch = third / 1000;
        v.build = third % 1000;
    } else {
        v.patch = third;
    }
    return v;
}

std::optional<DocaVersion> find_doca_version(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!is_digit(text[i]) || (i > 0 && (is_digit(text[i - 1]) || text[i - 1] == '.')))
            continue;
        std::size_t end = i;
        int dots = 0;
        while (end < text.size() && (is_digit(text[end]) || (text[end] == '.' && dots < 2))) {
            if (text[end] == '.') ++dots;
            ++end;
        }
        if (dots == 2 && is_digit(text[end - 1])) {
            if (auto v = parse_doca_version(text.substr(i, end - i))) return v;
        }
        i = end;
    }
    return std::nullopt;
}

bool same_doca_version(const DocaVersion& a, const DocaVersion& b) {
    if (std::tie(a.major, a.minor, a.patch) != std::tie(b.major, b.minor, b.patch)) return false;
    return !a.build || !b.build || *a.build == *b.build;
}

int compare_doca_versions(const DocaVersion& a, const DocaVersion& b) {
    auto key = [](const DocaVersion& v) {
        return std::make_tuple(v.major, v.minor, v.patch, v.build.value_or(0));
    };
    if (key(a) < key(b)) return -1;
    return key(a) == key(b) ? 0 : 1;
}

}  // namespace rdmi
