// Human text laid out within a terminal's width: the last step of every human document.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rdmi::text {

/// The columns `line` takes on a terminal: SGR colour sequences ("\033[1;31m") take none, a
/// UTF-8 sequence one (what the human output holds: escaped controls, names, no wide glyphs).
std::size_t display_columns(std::string_view line);

/// `text` with every line longer than `width` columns broken at spaces. A continuation line
/// hangs under the value of a "label: value" or "N. action" line or under a row's second column
/// (what follows two spaces), else four columns deeper than the line it continues, so it never
/// reads as a line of its own. A word no continuation line could hold (a long path, a command's
/// argument) is never broken and stays after the word before it (`export NAME=/long/path` stays
/// one command): only such a word may pass the width. Lines that fit, and their inner spacing
/// (columns), are left exactly as they were.
std::string fit_to_width(std::string_view text, std::size_t width);

}  // namespace rdmi::text
