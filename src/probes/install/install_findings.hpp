// The install probe's catalog entries: what each of its check ids means and how to fix it.
// `module-<name>` is also the gate's (check --require-module), which judges a module's version.
#pragma once

#include "core/finding_catalog.hpp"

namespace rdmi {

namespace finding {

inline constexpr FindingInfo doca_prefix{
    "doca-prefix", "report (install probe)",
    "Where DOCA is installed (--doca-prefix, else doca-common's pkg-config prefix, "
    "else /opt/mellanox/doca) and its layout: multiarch, lib64 or legacy.",
    "Install the DOCA SDK, or pass --doca-prefix DIR where it is installed; a prefix "
    "without lib/<triplet>/pkgconfig, lib64/pkgconfig or infrastructure/lib/pkgconfig "
    "needs DOCA reinstalled.",
    Purposes::both};
inline constexpr FindingInfo module{
    "module-<name>", "report (install probe); check --require-module",
    "The pkg-config module is installed and on the pkg-config search path (report: "
    "each module of the RDMI stack); for check, its version satisfies the "
    "requirement.",
    "Install the DOCA development package that ships <name>.pc; when it is only in "
    "DOCA's own pc dir, run the `export PKG_CONFIG_PATH=...` line the check prints; "
    "for a version requirement, install a DOCA release that satisfies it.",
    Purposes::build};
inline constexpr FindingInfo module_requires{
    "module-<name>-requires", "report (install probe)",
    "Every Requires of the module resolves (a module missing, a version not "
    "satisfied, a cycle).",
    "Install or fix the required modules until `pkg-config --cflags --libs <name>` "
    "succeeds.",
    Purposes::build};
inline constexpr FindingInfo rdmi_stack_versions{
    "rdmi-stack-versions", "report (install probe)",
    "doca-common, doca-verbs, doca-dpa, doca-rdmi and the runtime library agree on "
    "one DOCA version; names the odd one out.",
    "Install one DOCA version throughout: reinstall the packages of the odd ones "
    "out.",
    Purposes::both};
inline constexpr FindingInfo contract_versions{
    "contract-versions", "report (install probe)",
    "The DOCA version sources agree: doca-common.pc, applications/VERSION, "
    "doca_caps --version and, on a BlueField, the BFB release.",
    "Reinstall DOCA from one release (and the BFB matching it on a DPU); install "
    "or repair the sources reported absent.",
    Purposes::both};
inline constexpr FindingInfo doca_version_files{
    "doca-version-files", "report (install probe)",
    "<prefix>/VERSION (the version DOCA's samples and applications build read) and "
    "applications/VERSION name the same DOCA release; outside the contract's four-way "
    "match.",
    "Reinstall DOCA from one release, so that the file another release left is "
    "rewritten.",
    Purposes::both};
inline constexpr FindingInfo rdmi_headers{
    "rdmi-headers", "report (install probe)",
    "The five DOCA RDMI headers are in DOCA's include directory.",
    "A partial install: reinstall the package the check names (the one whose file list "
    "has the header, from the dpkg database), else the DOCA RDMI development package.",
    Purposes::build};
inline constexpr FindingInfo library{
    "library-<module>", "report (install probe)",
    "The shared object behind the module is there and is a readable ELF file (its "
    "soname is reported).",
    "Reinstall the package the check names (the one whose file list has the library), "
    "else the runtime package of the module: its .pc file resolves but the library is "
    "missing or damaged.",
    Purposes::both};
inline constexpr FindingInfo rdmi_samples{
    "rdmi-samples", "report (install probe)",
    "Information: where DOCA's RDMI samples are, if installed.",
    "Install the DOCA samples package to get them.", Purposes::build};
inline constexpr FindingInfo dpacc{
    "dpacc", "report (install probe)", "The DPA compiler is installed, and its version.",
    "Install the DOCA package that ships dpacc (reinstall the one the check names when "
    "the dpkg database still lists it); it is needed to build DPA kernels.",
    Purposes::build};
inline constexpr FindingInfo doca_caps{
    "doca-caps", "report (install probe)",
    "Information: doca_caps is installed (one of the contract's version sources).",
    "Install the DOCA package that ships doca_caps.", Purposes::run};

}  // namespace finding

/// The install probe's entries, in catalog order (its row lists them).
inline constexpr const FindingInfo* kInstallFindings[] = {
    &finding::doca_prefix,       &finding::module,
    &finding::module_requires,   &finding::rdmi_stack_versions,
    &finding::contract_versions, &finding::doca_version_files,
    &finding::rdmi_headers,      &finding::library,
    &finding::rdmi_samples,      &finding::dpacc,
    &finding::doca_caps};

}  // namespace rdmi
