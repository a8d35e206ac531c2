// SHA-256 through nettle (a small library with no dependencies of its own, linked statically in
// the release build): a well-reviewed implementation rather than a hand-written one.
#include "digest/sha256.hpp"

#include <nettle/sha2.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "text/text.hpp"

namespace rdmi {
namespace {

std::string hex_of(sha256_ctx& ctx) {
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    sha256_digest(&ctx, digest.size(), digest.data());
    return lower_hex(
        std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));  // NOLINT
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
    sha256_ctx ctx{};
    sha256_init(&ctx);
    // nettle takes a length and a pointer; a string_view of any size fits one call.
    sha256_update(&ctx, bytes.size(),
                  reinterpret_cast<const std::uint8_t*>(bytes.data()));  // NOLINT
    return hex_of(ctx);
}

std::optional<std::string> sha256_hex(std::string_view bytes, const Deadline& deadline) {
    constexpr std::size_t kPiece = 1U << 20U;
    sha256_ctx ctx{};
    sha256_init(&ctx);
    for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
        if (deadline.expired()) return std::nullopt;
        const std::size_t length = std::min(kPiece, bytes.size() - at);
        sha256_update(&ctx, length,
                      reinterpret_cast<const std::uint8_t*>(bytes.data() + at));  // NOLINT
    }
    return hex_of(ctx);
}

}  // namespace rdmi
