// MD5 through nettle, the library the SHA-256 of bundles already uses: a reviewed
// implementation rather than a hand-written one.
#include "digest/md5.hpp"

#include <nettle/md5.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "text/text.hpp"

namespace rdmi {

std::optional<std::string> md5_hex(std::string_view bytes, const Deadline& deadline) {
    constexpr std::size_t kPiece = 1U << 20U;
    md5_ctx ctx{};
    md5_init(&ctx);
    for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
        if (deadline.expired()) return std::nullopt;
        const std::size_t length = std::min(kPiece, bytes.size() - at);
        md5_update(&ctx, length,
                   reinterpret_cast<const std::uint8_t*>(bytes.data() + at));  // NOLINT
    }
    std::array<std::uint8_t, MD5_DIGEST_SIZE> digest{};
    md5_digest(&ctx, digest.size(), digest.data());
    return lower_hex(
        std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));  // NOLINT
}

}  // namespace rdmi
