// TIOCGWINSZ, then COLUMNS: what ls, man and git do, so output fits where they fit.
#include "os/terminal_width.hpp"

#include <sys/ioctl.h>

#include <charconv>
#include <cstdlib>

namespace rdmi {

namespace {
constexpr std::size_t kWidest = 10000;
}  // namespace

std::optional<std::size_t> terminal_columns(int fd) {
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return std::nullopt;
    return static_cast<std::size_t>(size.ws_col);
}

std::optional<std::size_t> columns_variable(std::string_view value) {
    std::size_t columns = 0;
    const char* end = value.data() + value.size();
    const auto [stop, error] = std::from_chars(value.data(), end, columns);
    if (value.empty() || error != std::errc{} || stop != end || columns == 0 || columns > kWidest)
        return std::nullopt;
    return columns;
}

std::size_t terminal_width(int fd, std::size_t fallback) {
    std::optional<std::size_t> width = terminal_columns(fd);
    if (!width) {
        // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread starts
        if (const char* columns = std::getenv("COLUMNS")) width = columns_variable(columns);
    }
    return width.value_or(fallback);
}

}  // namespace rdmi
