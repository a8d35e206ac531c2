// How many columns the human output may use: the terminal's, the user's COLUMNS, or a default.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace rdmi {

/// The narrowest and widest width terminal_width() answers: below 40 columns no layout reads
/// (every word on a line of its own), and a COLUMNS of millions is a typo, not a terminal.
inline constexpr std::size_t kNarrowestWidth = 40;
inline constexpr std::size_t kWidestWidth = 1000;

/// The width to lay human text out in. `window_columns` is what TIOCGWINSZ said of the output
/// terminal (nullopt when it is no terminal; 0, a pty nobody sized, counts as no answer), then
/// `columns_env` the COLUMNS variable (used only when it is a whole positive number), else
/// `fallback` (80 for a report, a help text may want more). An answer is clamped to
/// [kNarrowestWidth, kWidestWidth]. Pure: the caller asks the terminal and the environment.
std::size_t terminal_width(std::optional<unsigned> window_columns,
                           std::optional<std::string_view> columns_env, std::size_t fallback = 80);

/// The columns TIOCGWINSZ reports for `fd`; nullopt when `fd` is no terminal or the ioctl fails.
std::optional<unsigned> window_columns(int fd);

}  // namespace rdmi
