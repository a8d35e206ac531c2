// What an application binary needs from audited DOCA libraries, and whether they provide it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "elf/elf_image.hpp"
#include "elf/symbol_audit.hpp"

namespace rdmi {

/// One audited library the application may resolve against.
struct AuditedLibrary {
    const ElfImage* image = nullptr;      ///< its parsed `.so`
    const LibraryAudit* audit = nullptr;  ///< its classification (may use a narrower prefix)
};

/// How one needed symbol resolves.
enum class Resolution {
    provided,         ///< an audited library defines it (in the required version, if any)
    missing_symbol,   ///< no audited library defines the name: link or load failure predicted
    missing_version,  ///< the name exists, not in the required version: load failure predicted
    not_audited,      ///< it is needed from a file that is not among the audited libraries
};

/// "provided", "missing-symbol", "missing-version", "not-audited".
std::string_view to_string(Resolution resolution);

/// One symbol the application needs.
struct AppDependency {
    std::string name;
    std::string version;       ///< required version node; empty when unversioned (.o/.a)
    std::string version_file;  ///< the file `.gnu.version_r` expects it from
    std::string member;        ///< archive member needing it (first one), for .a input
    Resolution resolution = Resolution::not_audited;
    std::string provider;  ///< soname of the library that provides it
    Stability stability = Stability::unknown;
    bool accepted = false;  ///< on the allow-list of accepted experimental names
};

/// One version node the application requires from an audited library.
struct AppVersionNeed {
    std::string file;
    std::string version;
    bool provided = false;
};

/// Everything audit_application() found.
struct AppAudit {
    ElfKind kind = ElfKind::other;
    bool is_archive = false;
    std::vector<AppDependency> dependencies;    ///< by name
    std::vector<AppVersionNeed> version_needs;  ///< only files among the audited libraries
    std::vector<std::string> missing;           ///< names not provided (symbol or version)
    std::vector<std::string> missing_versions;  ///< "libdoca_rdmi.so.3:DOCA_3.3"
    std::vector<std::string> experimental;      ///< experimental dependencies, accepted or not
    std::vector<std::string> unaccepted_experimental;
    /// Archive members that could not be read completely, as "member: reason". Their needs are
    /// unknown, so no verdict over the archive may pass while this is not empty.
    std::vector<std::string> unread;
    /// Why the file as a whole says nothing of its needs (a GCC slim LTO object, LLVM bitcode):
    /// no verdict over it may pass.
    std::optional<std::string> unreadable;
    /// True when what was not read (`unread`, `unreadable`) is compiler bytecode, whose fix is
    /// another build, not another file.
    bool bytecode = false;
    /// The file's (or each member's, "member: ...") machine, class and byte order when they
    /// are not the audited libraries' ("aarch64, ELF64, big-endian"): the loader would never
    /// map one for the other.
    std::vector<std::string> foreign;
    /// Experimental exports of the audited libraries that the application does not import but
    /// holds as a NUL-terminated string in its data: a dlsym() route the imports do not show.
    /// Sorted; names on the allow-list are left out.
    std::vector<std::string> named_in_data;
};

/// Options of the application audit.
struct AppAuditOptions {
    std::string prefix = "doca_";                    ///< which undefined names matter
    std::vector<std::string> accepted_experimental;  ///< experimental names the user accepts
};

/// Audits an executable, shared object or object file.
AppAudit audit_application(const ElfImage& app, std::span<const AuditedLibrary> libraries,
                           const AppAuditOptions& options);

/// Audits a static archive of objects (undefined symbols of every member, deduplicated).
AppAudit audit_application(std::span<const ArchiveMember> app,
                           std::span<const AuditedLibrary> libraries,
                           const AppAuditOptions& options);

/// Parses `bytes` (ELF or `ar` archive) and audits it, and looks for the audited libraries'
/// experimental names among its data strings (AppAudit::named_in_data). LLVM bitcode is an
/// audit whose `unreadable` says so; anything else that cannot be parsed is a Gap.
Result<AppAudit> audit_application_bytes(std::string_view bytes,
                                         std::span<const AuditedLibrary> libraries,
                                         const AppAuditOptions& options);

}  // namespace rdmi
