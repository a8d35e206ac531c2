// Quoting for the commands the probe suggests: a fix is pasted into a shell, and the paths in it
// come from the probed system, which may name a directory `$(rm -rf ~)`.
#pragma once

#include <string>
#include <string_view>

namespace rdmi {

/// `text` as one POSIX shell word: unchanged when it holds only characters no shell treats
/// specially (letters, digits, `_@%+=:,./-`), else single-quoted (a `'` becomes `'\''`). Pure.
std::string shell_word(std::string_view text);

}  // namespace rdmi
