// ResourceExhausted and the errno values that mean exhaustion.
#include "core/exhaustion.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <new>
#include <utility>

namespace rdmi {

ResourceExhausted::ResourceExhausted(std::string_view what, int err)
    : message_(std::string(what) + ": " + std::strerror(err) +  // NOLINT(concurrency-mt-unsafe)
               " (" + errno_name(err) + ")"),
      error_(err) {}

ResourceExhausted ResourceExhausted::relayed(std::string message, int err) {
    ResourceExhausted out;
    out.message_ = std::move(message);
    out.error_ = err;
    return out;
}

std::string exhaustion_to_wire(const ResourceExhausted& e) {
    return std::to_string(e.error()) + " " + e.message();
}

ResourceExhausted exhaustion_from_wire(std::string_view text) {
    const auto space = text.find(' ');
    int err = 0;
    const std::string_view number = text.substr(0, space);
    const auto parsed = std::from_chars(number.data(), number.data() + number.size(), err);
    if (space == std::string_view::npos || parsed.ec != std::errc() || err <= 0) err = ENOMEM;
    const std::string_view message =
        space == std::string_view::npos ? text : text.substr(space + 1);
    return ResourceExhausted::relayed(std::string(message), err);
}

bool is_exhaustion(int err) {
    return err == EMFILE || err == ENFILE || err == ENOMEM || err == ENOBUFS;
}

void throw_if_exhausted(std::string_view what, int err) {
    if (is_exhaustion(err)) throw ResourceExhausted(what, err);
}

std::string errno_name(int err) {
    // Only the values a message of this program names; glibc's strerrorname_np is 2.32+.
    switch (err) {
        case EMFILE:
            return "EMFILE";
        case ENFILE:
            return "ENFILE";
        case ENOMEM:
            return "ENOMEM";
        case ENOBUFS:
            return "ENOBUFS";
        case EAGAIN:
            return "EAGAIN";
        case EFBIG:
            return "EFBIG";
        case ENOSPC:
            return "ENOSPC";
        case EDQUOT:
            return "EDQUOT";
        default:
            return "errno " + std::to_string(err);
    }
}

}  // namespace rdmi
