// Word wrapping for help text: lines no wider than the terminal, words never split.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi::text {

/// `text`'s words (split at spaces) joined into lines of at most `width` columns; a word wider
/// than `width` stands alone on its line, whole (a path or an option cut in two could not be
/// copied). Runs of spaces become one; "" gives no lines. Columns are bytes: help is ASCII.
[[nodiscard]] std::vector<std::string> wrap_words(std::string_view text, std::size_t width);

/// A hanging block: `head` at column 2, then `body` wrapped from column `column` to `width`,
/// every continuation line indented to `column`. A head that reaches `column - 2` puts the body
/// on the next line (as CLI11 and GNU tools print an option with a long name). Ends in '\n'.
[[nodiscard]] std::string hanging(std::string_view head, std::string_view body, std::size_t column,
                                  std::size_t width);

}  // namespace rdmi::text
