// How many columns human output may use: the terminal's width, as the tools beside it find it.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace rdmi {

/// The width a terminal reports for `fd` (TIOCGWINSZ), or nullopt when `fd` is no terminal or
/// reports 0 columns (a serial console that was never sized).
[[nodiscard]] std::optional<std::size_t> terminal_columns(int fd);

/// The columns `COLUMNS` names: a whole number from 1 to 10000, nothing else (a shell that
/// exported it stale or empty must not make output one column wide).
[[nodiscard]] std::optional<std::size_t> columns_variable(std::string_view value);

/// The width of human output written to `fd`: the terminal's, then the COLUMNS variable, else
/// `fallback` (help uses 100, the text report 80). A caller with a floor (help's 40) applies it.
[[nodiscard]] std::size_t terminal_width(int fd, std::size_t fallback);

}  // namespace rdmi
