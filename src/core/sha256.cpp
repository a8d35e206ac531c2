// SHA-256 through nettle (a small library with no dependencies of its own, linked statically in
// the release build): a well-reviewed implementation rather than a hand-written one.
#include "core/sha256.hpp"

#include <nettle/sha2.h>

#include <array>
#include <cstdint>

namespace rdmi {

std::string sha256_hex(std::string_view bytes) {
    sha256_ctx ctx{};
    sha256_init(&ctx);
    // nettle takes a length and a pointer; a string_view of any size fits one call.
    sha256_update(&ctx, bytes.size(),
                  reinterpret_cast<const std::uint8_t*>(bytes.data()));  // NOLINT
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    sha256_digest(&ctx, digest.size(), digest.data());
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(digest.size() * 2);
    for (const std::uint8_t byte : digest) {
        out += kHex[byte >> 4U];
        out += kHex[byte & 0x0fU];
    }
    return out;
}

}  // namespace rdmi
