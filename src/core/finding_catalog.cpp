// Check ids made from catalog entries, and the lookup of an id in a catalog.
#include "core/finding_catalog.hpp"

#include <stdexcept>

namespace rdmi {
namespace {

struct Pattern {
    std::string_view prefix;
    std::string_view suffix;
};

Pattern split(std::string_view id) {
    const auto open = id.find('<');
    const auto close = id.find('>');
    return {id.substr(0, open), id.substr(close + 1)};
}

}  // namespace

bool is_pattern(const FindingInfo& info) {
    return info.id.find('<') != std::string_view::npos;
}

const FindingInfo* find_finding(std::span<const FindingInfo* const> catalog, std::string_view id) {
    const FindingInfo* best = nullptr;
    std::size_t best_literal = 0;
    for (const FindingInfo* info : catalog) {
        if (!is_pattern(*info)) {
            if (info->id == id) return info;
            continue;
        }
        const auto [prefix, suffix] = split(info->id);
        const std::size_t literal = prefix.size() + suffix.size();
        if (id.size() > literal && id.starts_with(prefix) && id.ends_with(suffix) &&
            (best == nullptr || literal > best_literal)) {
            best = info;
            best_literal = literal;
        }
    }
    return best;
}

FindingId::FindingId(const FindingInfo& info) : info_(&info) {
    if (is_pattern(info))
        throw std::logic_error("finding " + std::string(info.id) + " needs its parameter");
    text_ = info.id;
}

FindingId::FindingId(const FindingInfo& info, std::string_view parameter) : info_(&info) {
    if (!is_pattern(info))
        throw std::logic_error("finding " + std::string(info.id) + " takes no parameter");
    if (parameter.empty())
        throw std::logic_error("finding " + std::string(info.id) + " with an empty parameter");
    const auto [prefix, suffix] = split(info.id);
    text_ = std::string(prefix) + std::string(parameter) + std::string(suffix);
}

}  // namespace rdmi
