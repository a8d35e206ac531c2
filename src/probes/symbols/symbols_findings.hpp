// The symbol audit's catalog entries: the report's (rdmi-*, the audit of doca-rdmi, which the
// symbols probe's row lists) and the `symbols` command's (any module, library or application;
// the gate's --app and --forbid-experimental judge the same application checks).
#pragma once

#include "core/finding_catalog.hpp"

namespace rdmi {

namespace finding {

inline constexpr FindingInfo rdmi_symbols_exported{
    "rdmi-symbols-exported", "report (symbols probe)",
    "Every doca_rdmi_* function the headers declare is exported by libdoca_rdmi "
    "(skip: the module or its library is absent).",
    "The headers and the library come from different DOCA releases: reinstall the "
    "doca-rdmi packages at one version.",
    Purposes::build};
inline constexpr FindingInfo rdmi_symbols_stability{
    "rdmi-symbols-stability", "report (symbols probe)",
    "Information: how many doca_rdmi_* symbols are experimental, stable, deprecated "
    "or unknown.",
    "", Purposes::build};
inline constexpr FindingInfo rdmi_symbols_agreement{
    "rdmi-symbols-agreement", "report (symbols probe)",
    "The headers, symbol version nodes, sections and the loader agree on each "
    "symbol's stability.",
    "Reinstall the doca-rdmi packages at one version; see `rdmi-probe symbols` for "
    "the symbols concerned.",
    Purposes::build};
inline constexpr FindingInfo rdmi_loader_path{
    "rdmi-loader-path", "report (symbols probe)",
    "The dynamic loader would map the same libdoca_rdmi that pkg-config's libdir "
    "names.",
    "Fix LD_LIBRARY_PATH or the ld.so.conf.d entries (then run ldconfig) so that "
    "both name the same libdir.",
    Purposes::run};
inline constexpr FindingInfo rdmi_symbols_runtime{
    "rdmi-symbols-runtime", "report (symbols probe)",
    "libdoca_rdmi loads in a child process and every exported name resolves with "
    "dlsym/dlvsym.",
    "An application loading this library would fail the same way: repair the DOCA "
    "install (missing dependencies, a damaged file).",
    Purposes::run};

}  // namespace finding

/// The report's symbol audit entries, in catalog order (the symbols row lists them).
inline constexpr const FindingInfo* kSymbolsFindings[] = {
    &finding::rdmi_symbols_exported, &finding::rdmi_symbols_stability,
    &finding::rdmi_symbols_agreement, &finding::rdmi_loader_path, &finding::rdmi_symbols_runtime};

// The `symbols` command's own: the audit of what the user names.
namespace finding {

inline constexpr FindingInfo symbols_exported{
    "symbols-exported", "symbols",
    "Every declaration with the audited prefix is exported by the library.",
    "The headers and the library come from different releases: reinstall the "
    "module's packages at one version.",
    Purposes::build};
inline constexpr FindingInfo symbols_stability{
    "symbols-stability", "symbols",
    "Information: how many audited symbols are experimental, stable, deprecated or "
    "unknown.",
    "", Purposes::build};
inline constexpr FindingInfo symbols_agreement{
    "symbols-agreement", "symbols",
    "The headers, version nodes, sections and the loader agree on each symbol's "
    "stability.",
    "Reinstall the module's packages at one version.", Purposes::build};
inline constexpr FindingInfo loader_path{
    "loader-path", "symbols", "The dynamic loader would map the audited library file.",
    "Fix LD_LIBRARY_PATH or the ld.so.conf.d entries (then run ldconfig) so that "
    "both name the same libdir.",
    Purposes::run};
inline constexpr FindingInfo symbols_runtime{
    "symbols-runtime", "symbols",
    "The library loads in a child process and every exported name resolves.",
    "An application loading this library would fail the same way: repair the "
    "install.",
    Purposes::run};
inline constexpr FindingInfo app_resolves{
    "app-resolves", "symbols --check; check --app",
    "Every doca_* symbol and version node the application needs is provided by the "
    "installed library, and the loader would find that library for it (skip when the "
    "root has no ld.so.cache to say).",
    "Build against the installed headers, or install the DOCA release the "
    "application was built for.",
    Purposes::run};
inline constexpr FindingInfo app_experimental{
    "app-experimental", "symbols --check; check --forbid-experimental",
    "The application calls no experimental symbol outside the accepted list.",
    "Review the calls and add the accepted ones to --allow-experimental (names or "
    "@FILE).",
    Purposes::run};

}  // namespace finding

/// The `symbols` command's entries, in catalog order (it has no row: check_catalog() lists
/// them after the report's).
inline constexpr const FindingInfo* kSymbolsCommandFindings[] = {
    &finding::symbols_exported, &finding::symbols_stability, &finding::symbols_agreement,
    &finding::loader_path,      &finding::symbols_runtime,   &finding::app_resolves,
    &finding::app_experimental};

}  // namespace rdmi
