// The libarchive entry points the bundle code calls, resolved with dlopen from libarchive.so.13
// only when a bundle is written or a tar.gz root is extracted: linking libarchive would make
// every start of the program map it and its dependencies (ICU, libxml2, nettle, lzma, zstd, ...),
// which costs more than the rest of a probe's start-up.
//
// The field types are the real prototypes (decltype of <archive.h>/<archive_entry.h>, headers
// only: nothing is linked), so a changed prototype is a compile error, not a wrong call.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "core/result.hpp"
#include "loader/dynamic_library.hpp"
#include "os/env.hpp"

namespace rdmi::bundle {

/// The soname every libarchive 3.x installs; the one the program asks the loader for.
inline constexpr const char* kLibarchiveSoname = "libarchive.so.13";

// Every function the bundle code calls: one list, so the table and its binding cannot differ.
#define RDMI_LIBARCHIVE_FUNCTIONS(X)           \
    X(archive_errno)                           \
    X(archive_error_string)                    \
    X(archive_filter_code)                     \
    X(archive_read_new)                        \
    X(archive_read_free)                       \
    X(archive_read_support_filter_gzip)        \
    X(archive_read_support_format_tar)         \
    X(archive_read_open_fd)                    \
    X(archive_read_next_header)                \
    X(archive_read_data)                       \
    X(archive_write_new)                       \
    X(archive_write_free)                      \
    X(archive_write_set_format_pax_restricted) \
    X(archive_write_add_filter_gzip)           \
    X(archive_write_set_filter_option)         \
    X(archive_write_set_bytes_in_last_block)   \
    X(archive_write_open)                      \
    X(archive_write_header)                    \
    X(archive_write_data)                      \
    X(archive_write_close)                     \
    X(archive_entry_new)                       \
    X(archive_entry_free)                      \
    X(archive_entry_pathname)                  \
    X(archive_entry_hardlink)                  \
    X(archive_entry_symlink)                   \
    X(archive_entry_filetype)                  \
    X(archive_entry_size)                      \
    X(archive_entry_size_is_set)               \
    X(archive_entry_set_pathname)              \
    X(archive_entry_set_mtime)                 \
    X(archive_entry_set_uid)                   \
    X(archive_entry_set_gid)                   \
    X(archive_entry_set_filetype)              \
    X(archive_entry_set_perm)                  \
    X(archive_entry_set_symlink)               \
    X(archive_entry_set_size)

/// The typed table: every entry is non-null once loaded.
struct LibarchiveApi {
#define RDMI_LIBARCHIVE_FIELD(name) decltype(&::name) name = nullptr;
    RDMI_LIBARCHIVE_FUNCTIONS(RDMI_LIBARCHIVE_FIELD)
#undef RDMI_LIBARCHIVE_FIELD
};

/// A loaded libarchive and its table (the table is valid while this lives).
struct Libarchive {
    DynamicLibrary library;
    LibarchiveApi api;
    std::string path;  ///< the file that was loaded
};

/// Finds libarchive.so.13 as the loader would (LD_LIBRARY_PATH of `env`, /etc/ld.so.cache, the
/// default directories), applies the trusted-library rule to it, its load closure and every
/// directory searched (loader/library_trust.hpp, loader/load_closure.hpp), then dlopens it and
/// binds the table. The Gap's message is one line that starts with the soname and says why
/// (not_installed, untrusted, or error: dlopen failed or a function is missing) and what to
/// install.
Result<Libarchive> load_libarchive(const Env& env);

/// load_libarchive() with the process environment, done once per process: later calls return
/// the same table or the same Gap.
Result<const LibarchiveApi*> libarchive();

}  // namespace rdmi::bundle
