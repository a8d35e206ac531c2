// Names an application holds as strings in its data: what it may look up with dlsym().
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "elf/elf_image.hpp"

namespace rdmi {

/// The names of `wanted` that occur as NUL-terminated strings in `image`'s allocated data
/// sections (PROGBITS, not executable: `.rodata*`, `.data*`), sorted and unique. `bytes` are
/// the file's (or the archive member's) bytes the image was parsed from. A string counts from
/// any byte, not only after a NUL: linkers merge a string into the tail of a longer one.
/// `prefix` (non-empty) narrows the search to strings that start with it, as every wanted
/// name does.
std::vector<std::string> names_in_data(std::string_view bytes, const ElfImage& image,
                                       const std::unordered_set<std::string_view>& wanted,
                                       std::string_view prefix);

}  // namespace rdmi
