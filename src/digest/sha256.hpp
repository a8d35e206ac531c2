// SHA-256 (FIPS 180-4, computed by nettle) of a byte string, as lowercase hex: the bundle
// manifest's file digests.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/deadline.hpp"

namespace rdmi {

/// The SHA-256 digest of `bytes`, 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

/// The same, bounded: nullopt when `deadline` expired before the whole of it was hashed
/// (checked between 1 MiB pieces; an installed library is tens of MiB).
std::optional<std::string> sha256_hex(std::string_view bytes, const Deadline& deadline);

}  // namespace rdmi
