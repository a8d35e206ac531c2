// Reading a saved JSON document safely: bounded size, bounded nesting, one clear message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "contract/document.hpp"
#include "core/result.hpp"
#include "os/fs.hpp"

namespace rdmi::contract {

/// Largest saved document `diff` reads; a bigger file is refused by its size, before it is
/// read. Real documents are well under 1 MiB; the parsed tree takes several times the text, so
/// this also bounds diff's memory (see docs/reliability.md, "Hostile sizes").
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{16} << 20U;
/// Deepest nesting accepted; real documents nest fewer than 10 levels.
inline constexpr std::size_t kMaxDocumentDepth = 256;

/// Parses JSON text: a Gap (malformed) for empty text, nesting deeper than kMaxDocumentDepth
/// or invalid JSON (with the byte where it broke). Never throws.
Result<Json> parse_document(std::string_view text);

/// Reads and parses `path` through `fs`, at most kMaxDocumentBytes.
Result<Json> read_document(const Fs& fs, std::string_view path);

}  // namespace rdmi::contract
