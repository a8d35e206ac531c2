// Which file a mapped address belongs to, for a SIGBUS handler: a file that shrinks while it is
// mapped turns the next read past its new end into SIGBUS, and the run should then say which file.
#pragma once

#include <cstddef>

namespace rdmi {

/// Records that [base, base + size) maps the file `path` until forget_mapping(base). `path` must
/// stay valid (and unchanged) until then. Silently does nothing when every slot is taken.
void remember_mapping(const void* base, std::size_t size, const char* path) noexcept;

/// Undoes remember_mapping(base).
void forget_mapping(const void* base) noexcept;

/// The path of the remembered mapping that holds `address`, or nullptr. Async-signal-safe.
const char* mapped_path_at(const void* address) noexcept;

}  // namespace rdmi
