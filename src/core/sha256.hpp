// SHA-256 (FIPS 180-4, computed by nettle) of a byte string, as lowercase hex: the bundle
// manifest's file digests.
#pragma once

#include <string>
#include <string_view>

namespace rdmi {

/// The SHA-256 digest of `bytes`, 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace rdmi
