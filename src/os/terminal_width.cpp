// The output width: TIOCGWINSZ, then COLUMNS, then a default (what ls and most GNU tools do).
#include "os/terminal_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>

namespace rdmi {
namespace {

std::size_t clamped(std::size_t columns) {
    return std::clamp(columns, kNarrowestWidth, kWidestWidth);
}

// COLUMNS as a shell leaves it: digits only. "80x", "-1", "0" or 20 digits say nothing usable.
std::optional<std::size_t> columns_number(std::string_view text) {
    std::size_t value = 0;
    const auto* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || value == 0) return std::nullopt;
    return value;
}

}  // namespace

std::size_t terminal_width(std::optional<unsigned> window_columns,
                           std::optional<std::string_view> columns_env, std::size_t fallback) {
    if (window_columns && *window_columns > 0) return clamped(*window_columns);
    if (columns_env) {
        if (const auto number = columns_number(*columns_env)) return clamped(*number);
    }
    return fallback;
}

std::optional<unsigned> window_columns(int fd) {
    if (::isatty(fd) != 1) return std::nullopt;
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) != 0) return std::nullopt;
    return size.ws_col;
}

}  // namespace rdmi
