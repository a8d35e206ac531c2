// The ELF adapter: reads shared objects, objects and static archives from bytes, through libelf.
#pragma once

#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "elf/elf_image.hpp"

namespace rdmi {

/// Parses one ELF file (any class, any byte order) held in memory. Never does I/O: the caller
/// reads the file through `Fs`. A malformed, truncated or non-ELF input is a Gap
/// (GapReason::malformed) whose one-line message names the problem but not the file.
Result<ElfImage> parse_elf(std::string_view bytes);

/// Parses every member of a static archive (`ar` format) held in memory. A member that is not a
/// readable ELF object is kept with its own Gap; a broken archive as a whole is a Gap.
Result<std::vector<ArchiveMember>> parse_archive(std::string_view bytes);

/// True when the bytes start with the `ar` archive magic ("!<arch>\n" or "!<thin>\n").
bool looks_like_archive(std::string_view bytes);

}  // namespace rdmi
