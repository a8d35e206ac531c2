// MD5 (RFC 1321, computed by nettle) as lowercase hex: only to compare a file with the digest
// dpkg recorded for it (info/<pkg>.md5sums), never as a security property of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/deadline.hpp"

namespace rdmi {

/// The MD5 digest of `bytes`, 32 lowercase hex digits; nullopt when `deadline` expired before
/// the whole of it was hashed (checked between 1 MiB pieces: a library is tens of MiB).
std::optional<std::string> md5_hex(std::string_view bytes, const Deadline& deadline);

}  // namespace rdmi
