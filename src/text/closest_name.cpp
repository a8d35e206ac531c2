// The optimal string alignment distance: a swapped pair of letters ("chcek") is one typo.
#include "text/closest_name.hpp"

#include <algorithm>
#include <vector>

namespace rdmi::text {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t width = b.size() + 1;
    std::vector<std::size_t> d((a.size() + 1) * width);
    auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * width + j]; };
    for (std::size_t i = 0; i <= a.size(); ++i) at(i, 0) = i;
    for (std::size_t j = 0; j <= b.size(); ++j) at(0, j) = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
        }
    }
    return at(a.size(), b.size());
}

std::optional<std::string_view> closest_name(std::string_view typed,
                                             std::span<const std::string_view> names) {
    const std::size_t allowed = typed.size() <= 4 ? 1 : 2;
    std::optional<std::string_view> best;
    std::size_t best_distance = allowed + 1;
    bool tied = false;
    for (const std::string_view name : names) {
        const std::size_t distance = edit_distance(typed, name);
        if (distance == 0) return std::nullopt;
        if (distance < best_distance) {
            best = name;
            best_distance = distance;
            tied = false;
        } else if (distance == best_distance) {
            tied = true;
        }
    }
    if (tied) return std::nullopt;
    return best;
}

}  // namespace rdmi::text
