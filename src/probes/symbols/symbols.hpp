// The symbols probe: which of a library's symbols are experimental, stable or deprecated, whether
// the loader would pick the same file, and what an application needs from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "elf/app_audit.hpp"
#include "elf/elf_image.hpp"
#include "elf/symbol_audit.hpp"
#include "loader/loader_path.hpp"
#include "probes/install/install.hpp"
#include "probes/symbols/symbols_findings.hpp"

namespace rdmi {

/// Largest ELF file (library, archive, application) read whole through Fs.
inline constexpr std::size_t kMaxElfBytes = std::size_t{256} << 20U;
/// Largest header read.
inline constexpr std::size_t kMaxHeaderBytes = std::size_t{16} << 20U;
/// The module audited when neither --module nor --lib is given.
inline constexpr const char* kDefaultSymbolsModule = "doca-rdmi";

/// The ids of a symbols audit's checks: the `symbols` subcommand's own, or the report's, which
/// audits doca-rdmi and names its checks after it (rdmi-symbols-exported, ...). Both sets are
/// catalog entries, each with the wording that fits where it is emitted.
struct SymbolsCheckIds {
    const FindingInfo* exported;
    const FindingInfo* stability;
    const FindingInfo* agreement;
    const FindingInfo* loader_path;
    const FindingInfo* runtime;
};
inline constexpr SymbolsCheckIds kSymbolsCheckIds{
    &finding::symbols_exported, &finding::symbols_stability, &finding::symbols_agreement,
    &finding::loader_path, &finding::symbols_runtime};
inline constexpr SymbolsCheckIds kRdmiSymbolsCheckIds{
    &finding::rdmi_symbols_exported, &finding::rdmi_symbols_stability,
    &finding::rdmi_symbols_agreement, &finding::rdmi_loader_path, &finding::rdmi_symbols_runtime};

/// What to audit (the `symbols` subcommand's options).
struct SymbolsRequest {
    std::string module;                 ///< pkg-config module; default doca-rdmi
    std::string library;                ///< --lib PATH (a path on user_fs); overrides module
    std::optional<std::string> prefix;  ///< --prefix; default the module's own ("doca_rdmi_")
    std::string headers_dir;            ///< --headers DIR (on user_fs); default the includedir
    std::string application;            ///< --check APP (on user_fs)
    std::vector<std::string> accepted_experimental;  ///< --allow-experimental names
    /// Where the paths the user named (library, headers_dir, application) are read: this
    /// machine's file system, even under --root; only what the probe discovers is in the root.
    /// nullptr: the probe context's file system.
    const Fs* user_fs = nullptr;
    /// The ids its checks carry.
    SymbolsCheckIds check_ids = kSymbolsCheckIds;
};

/// One header scanned (or skipped).
struct ScannedHeader {
    std::string path;
    int declarations = 0;            ///< declarations with the audited prefix
    std::vector<std::string> notes;  ///< the scanner's notes
    std::optional<Gap> gap;          ///< why it was not read
};

/// The library's identity as read from its ELF file.
struct LibraryIdentity {
    std::string path;       ///< in-root path as found (libdir/lib<x>.so or --lib)
    std::string real_path;  ///< after following links
    std::string soname;
    std::string machine;  ///< "x86_64", "aarch64"
    unsigned elf_class = 0;
    ElfEndian endian = ElfEndian::little;
    std::vector<std::string> needed;
};

/// Where the loader would find the library by its soname, against where pkg-config says it is.
struct LoaderFacts {
    LoaderPrediction prediction;
    std::string predicted_real_path;    ///< prediction.path after following links
    bool ld_library_path_used = false;  ///< LD_LIBRARY_PATH was honoured (live runs only)
    /// True when the loader would map a file other than the audited one (the finding).
    bool other_file = false;
};

/// The runtime resolution (live, trusted paths only).
struct RuntimeFacts {
    bool loaded = false;
    std::string path;         ///< the file loaded (the loader's predicted choice, or --lib)
    std::string loaded_path;  ///< what the link map says was mapped
    int resolved = 0;
    std::vector<std::string> unresolved;  ///< names dlsym did not find
    /// Names dlsym found in another object than `loaded_path` ("name in /x/libdoca_common.so.3").
    std::vector<std::string> foreign;
    std::optional<Gap> gap;  ///< why nothing was loaded (not_applicable, untrusted, error, ...)
};

/// Where the loader would find one library an application needs from the audited install.
struct AppLibraryLookup {
    std::string soname;
    std::optional<std::string> path;  ///< the file it would map; nullopt: not found
    std::string via;  ///< "DT_RPATH", "DT_RUNPATH", "LD_LIBRARY_PATH", "ld.so.cache", ...
    std::vector<std::string> searched;  ///< every candidate looked at, in order
    /// Why /etc/ld.so.cache was not consulted; empty when it was. Not found without a cache is
    /// no prediction: ldconfig would write one from the root's ld.so.conf.
    std::string cache_unread;
    std::string would_find;  ///< when not found: what would make the loader find it
};

/// What decides whether a dynamically linked application loads, besides its symbols.
struct AppLoadFacts {
    std::string rpath;    ///< DT_RPATH, unexpanded ("" when absent)
    std::string runpath;  ///< DT_RUNPATH, unexpanded
    bool has_runpath = false;
    bool bind_now = false;  ///< bound at load (-z now): a missing symbol stops it before main
    std::vector<AppLibraryLookup> libraries;  ///< its DT_NEEDED entries naming the library
    std::vector<std::string> notes;           ///< search path entries not followed
};

/// "yes", "no" or "unknown": whether an application will load against the install.
enum class LoadVerdict { yes, no, unknown };

/// "yes", "no", "unknown".
std::string_view to_string(LoadVerdict verdict);

/// The verdict and each reason for it.
struct AppLoadVerdict {
    LoadVerdict verdict = LoadVerdict::unknown;
    std::vector<std::string> reasons;  ///< empty for yes
};

/// Everything the symbols probe learned about one library.
struct SymbolsFacts {
    std::string module;  ///< empty with --lib
    std::string module_version;
    std::string pc_path;
    std::string libdir;
    LibraryIdentity library;
    std::vector<std::string> version_defs;  ///< non-base version nodes, in file order
    std::string archive_path;               ///< lib<x>.a read beside the library; empty if none
    std::optional<Gap> archive_gap;         ///< why a present archive could not be read
    std::string headers_dir;
    std::vector<ScannedHeader> headers;
    std::vector<std::string> skipped_headers;  ///< DPA device-side headers (never in a host .so)
    LibraryAudit audit;
    std::optional<LoaderFacts> loader;
    RuntimeFacts runtime;
    std::optional<std::string> application;  ///< --check path
    std::optional<AppAudit> app;
    std::optional<AppLoadFacts> app_load;  ///< for a dynamically linked application
    std::vector<std::string> accepted_experimental;
    std::vector<Check> checks;
};

/// Audits a pkg-config module's library, or a library file. A Gap (naming the file) when the
/// module, the library or the application cannot be found or read as ELF.
Result<SymbolsFacts> probe_symbols(const ProbeContext& ctx, const SymbolsRequest& request);

/// An application file's bytes, read at most kMaxElfBytes, when it is an ELF object, an `ar`
/// archive whose structure reads (a member that does not read is reported by the audit, not
/// here) or LLVM bitcode (which the audit reports as unreadable). Otherwise a Gap "PATH: <reason>":
/// not a regular file, larger than the cap, permission denied, "not an ELF object or archive
/// (...)", or the ELF reader's reason.
Result<std::string> read_application(const Fs& fs, const std::string& path);

/// Audits the doca-rdmi module the install probe found (for the full report; its checks carry
/// kRdmiSymbolsCheckIds). nullopt when the module or its library is not there (the install
/// probe reports that).
std::optional<Result<SymbolsFacts>> probe_rdmi_symbols(const ProbeContext& ctx,
                                                       const InstallFacts& install);

/// The library stem a module's Libs name: "doca_rdmi" for doca-rdmi ("-ldoca_rdmi").
std::string module_library_name(const ModuleFacts& module);

/// The default symbol prefix for a library name: "doca_rdmi_" for "doca_rdmi"; empty (every
/// name) for a library outside DOCA.
std::string default_symbol_prefix(std::string_view library_name);

/// Whether the audited application loads: no exactly when its app-resolves check fails,
/// unknown when it skips, yes otherwise; with each reason (a symbol or version node not
/// provided, the library the loader would not find and what would find it, what was not read).
/// nullopt without an application.
std::optional<AppLoadVerdict> app_load_verdict(const SymbolsFacts& facts);

/// The checks of a symbols audit: exported, stability, loader path, runtime, application.
std::vector<Check> symbols_checks(const SymbolsFacts& facts,
                                  const SymbolsCheckIds& ids = kSymbolsCheckIds);

}  // namespace rdmi
