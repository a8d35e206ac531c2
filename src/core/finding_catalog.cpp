// The finding catalog's entries. docs/checks.md is generated from them
// (scripts/gen_docs.py docs), through `rdmi-probe check --list-checks --json`.
#include "core/finding_catalog.hpp"

#include <array>
#include <stdexcept>

#include "core/consistency_rule.hpp"

namespace rdmi {
namespace {

using F = Finding;
using P = Purposes;

// An entry of enum Finding: the order is asserted below, so finding_info is an index.
struct Row {
    Finding finding;
    FindingInfo info;
};

constexpr std::array kRows{
    Row{F::doca_prefix,
        {"doca-prefix", "report (install probe)",
         "Where DOCA is installed (--doca-prefix, else doca-common's pkg-config prefix, "
         "else /opt/mellanox/doca) and its layout: multiarch, lib64 or legacy.",
         "Install the DOCA SDK, or pass --doca-prefix DIR where it is installed; a prefix "
         "without lib/<triplet>/pkgconfig, lib64/pkgconfig or infrastructure/lib/pkgconfig "
         "needs DOCA reinstalled.",
         P::both}},
    Row{F::module,
        {"module-<name>", "report (install probe); check --require-module",
         "The pkg-config module is installed and on the pkg-config search path (report: "
         "each module of the RDMI stack); for check, its version satisfies the "
         "requirement.",
         "Install the DOCA development package that ships <name>.pc; when it is only in "
         "DOCA's own pc dir, run the `export PKG_CONFIG_PATH=...` line the check prints; "
         "for a version requirement, install a DOCA release that satisfies it.",
         P::build}},
    Row{F::module_requires,
        {"module-<name>-requires", "report (install probe)",
         "Every Requires of the module resolves (a module missing, a version not "
         "satisfied, a cycle).",
         "Install or fix the required modules until `pkg-config --cflags --libs <name>` "
         "succeeds.",
         P::build}},
    Row{F::rdmi_stack_versions,
        {"rdmi-stack-versions", "report (install probe)",
         "doca-common, doca-verbs, doca-dpa, doca-rdmi and the runtime library agree on "
         "one DOCA version; names the odd one out.",
         "Install one DOCA version throughout: reinstall the packages of the odd ones "
         "out.",
         P::both}},
    Row{F::contract_versions,
        {"contract-versions", "report (install probe)",
         "The DOCA version sources agree: doca-common.pc, applications/VERSION, "
         "doca_caps --version and, on a BlueField, the BFB release.",
         "Reinstall DOCA from one release (and the BFB matching it on a DPU); install "
         "or repair the sources reported absent.",
         P::both}},
    Row{F::doca_version_files,
        {"doca-version-files", "report (install probe)",
         "<prefix>/VERSION (the version DOCA's samples and applications build read) and "
         "applications/VERSION name the same DOCA release; outside the contract's four-way "
         "match.",
         "Reinstall DOCA from one release, so that the file another release left is "
         "rewritten.",
         P::both}},
    Row{F::rdmi_headers,
        {"rdmi-headers", "report (install probe)",
         "The five DOCA RDMI headers are in DOCA's include directory.",
         "A partial install: reinstall the package the check names (the one whose file list "
         "has the header, from the dpkg database), else the DOCA RDMI development package.",
         P::build}},
    Row{F::library,
        {"library-<module>", "report (install probe)",
         "The shared object behind the module is there and is a readable ELF file (its "
         "soname is reported).",
         "Reinstall the package the check names (the one whose file list has the library), "
         "else the runtime package of the module: its .pc file resolves but the library is "
         "missing or damaged.",
         P::both}},
    Row{F::rdmi_samples,
        {"rdmi-samples", "report (install probe)",
         "Information: where DOCA's RDMI samples are, if installed.",
         "Install the DOCA samples package to get them.", P::build}},
    Row{F::dpacc,
        {"dpacc", "report (install probe)", "The DPA compiler is installed, and its version.",
         "Install the DOCA package that ships dpacc (reinstall the one the check names when "
         "the dpkg database still lists it); it is needed to build DPA kernels.",
         P::build}},
    Row{F::doca_caps,
        {"doca-caps", "report (install probe)",
         "Information: doca_caps is installed (one of the contract's version sources).",
         "Install the DOCA package that ships doca_caps.", P::run}},
    Row{F::rdmi_dpa_device,
        {"rdmi-dpa-device", "report (devices probe)",
         "Which devices can run RDMI on the DPA, or why none can (no NVIDIA device, no "
         "DPA-capable one, no driver, no RDMA device, port down).",
         "Run on a host with a {dpa-devices} (the devices with a DPA), or on the BlueField's "
         "Arm side; load mlx5_core and mlx5_ib; a port physically up but not ACTIVE needs a "
         "subnet manager (InfiniBand: sminfo, opensm) or its netdev up (Ethernet: ip link set "
         "NETDEV up).",
         P::run}},
    Row{F::driver_mlx5_core,
        {"driver-mlx5-core", "report (devices probe)",
         "The mlx5_core kernel module is loaded (built in or as a module).",
         "modprobe mlx5_core (as root).", P::run}},
    Row{F::driver_mlx5_ib,
        {"driver-mlx5-ib", "report (devices probe)",
         "The mlx5_ib kernel module is loaded, so the devices have RDMA ports.",
         "modprobe mlx5_ib (as root).", P::run}},
    Row{F::uverbs_access,
        {"uverbs-access", "report (devices probe)",
         "The /dev/infiniband character devices exist and this user can open them.",
         "modprobe ib_uverbs; in a container, pass --device /dev/infiniband; add the user "
         "to the group owning /dev/infiniband/uverbs* (often rdma) or fix the udev rule.",
         P::run}},
    Row{F::verbs_devices,
        {"verbs-devices", "report (devices probe)",
         "What libibverbs lists and reports for each device (live system only).",
         "Install libibverbs1 and rdma-core's provider package (ibverbs-providers); in a "
         "container, pass --device /dev/infiniband.",
         P::run}},
    Row{F::doca_devices,
        {"doca-devices", "report (devices probe)",
         "What DOCA lists (doca_devinfo_create_list) and which devices it says have a "
         "DPA (live system only).",
         "Install DOCA, and check that the DOCA libraries can be loaded (see "
         "rdmi-symbols-runtime).",
         P::run}},
    Row{F::hugepages,
        {"hugepages", "report (devices probe)",
         "Information: the 2M and 1G hugepage pools and the hugetlbfs mounts.", "", P::run}},
    Row{F::rdmi_symbols_exported,
        {"rdmi-symbols-exported", "report (symbols probe)",
         "Every doca_rdmi_* function the headers declare is exported by libdoca_rdmi "
         "(skip: the module or its library is absent).",
         "The headers and the library come from different DOCA releases: reinstall the "
         "doca-rdmi packages at one version.",
         P::build}},
    Row{F::rdmi_symbols_stability,
        {"rdmi-symbols-stability", "report (symbols probe)",
         "Information: how many doca_rdmi_* symbols are experimental, stable, deprecated "
         "or unknown.",
         "", P::build}},
    Row{F::rdmi_symbols_agreement,
        {"rdmi-symbols-agreement", "report (symbols probe)",
         "The headers, symbol version nodes, sections and the loader agree on each "
         "symbol's stability.",
         "Reinstall the doca-rdmi packages at one version; see `rdmi-probe symbols` for "
         "the symbols concerned.",
         P::build}},
    Row{F::rdmi_loader_path,
        {"rdmi-loader-path", "report (symbols probe)",
         "The dynamic loader would map the same libdoca_rdmi that pkg-config's libdir "
         "names.",
         "Fix LD_LIBRARY_PATH or the ld.so.conf.d entries (then run ldconfig) so that "
         "both name the same libdir.",
         P::run}},
    Row{F::rdmi_symbols_runtime,
        {"rdmi-symbols-runtime", "report (symbols probe)",
         "libdoca_rdmi loads in a child process and every exported name resolves with "
         "dlsym/dlvsym.",
         "An application loading this library would fail the same way: repair the DOCA "
         "install (missing dependencies, a damaged file).",
         P::run}},
    Row{F::version_matrix,
        {"version-matrix", "report (version-matrix probe)",
         "<prefix>/share/version-matrix.json is valid, and which capabilities this DOCA "
         "version has.",
         "Reinstall the DOCA package that ships share/version-matrix.json when it is "
         "malformed.",
         P::both}},
    Row{F::env_ld_preload,
        {"env-ld-preload", "report (environment probe)",
         "LD_PRELOAD is not set: nothing is loaded into every application before DOCA.",
         "Unset LD_PRELOAD unless the preload is intended (a profiler, for instance).", P::run}},
    Row{F::env_ld_library_path,
        {"env-ld-library-path", "report (environment probe)",
         "Information: LD_LIBRARY_PATH, which the loader searches before ld.so.cache.", "",
         P::run}},
    Row{F::probe_error,
        {"<probe>-probe", "report (any probe)",
         "A probe stopped with an internal error; the other probes still ran.",
         "Report it as a bug in rdmi-probe, with the command line.", P::both}},
    Row{F::symbols_exported,
        {"symbols-exported", "symbols",
         "Every declaration with the audited prefix is exported by the library.",
         "The headers and the library come from different releases: reinstall the "
         "module's packages at one version.",
         P::build}},
    Row{F::symbols_stability,
        {"symbols-stability", "symbols",
         "Information: how many audited symbols are experimental, stable, deprecated or "
         "unknown.",
         "", P::build}},
    Row{F::symbols_agreement,
        {"symbols-agreement", "symbols",
         "The headers, version nodes, sections and the loader agree on each symbol's "
         "stability.",
         "Reinstall the module's packages at one version.", P::build}},
    Row{F::loader_path,
        {"loader-path", "symbols", "The dynamic loader would map the audited library file.",
         "Fix LD_LIBRARY_PATH or the ld.so.conf.d entries (then run ldconfig) so that "
         "both name the same libdir.",
         P::run}},
    Row{F::symbols_runtime,
        {"symbols-runtime", "symbols",
         "The library loads in a child process and every exported name resolves.",
         "An application loading this library would fail the same way: repair the "
         "install.",
         P::run}},
    Row{F::app_resolves,
        {"app-resolves", "symbols --check; check --app",
         "Every doca_* symbol and version node the application needs is provided by the "
         "installed library, and the loader would find that library for it (skip when the "
         "root has no ld.so.cache to say).",
         "Build against the installed headers, or install the DOCA release the "
         "application was built for.",
         P::run}},
    Row{F::app_experimental,
        {"app-experimental", "symbols --check; check --forbid-experimental",
         "The application calls no experimental symbol outside the accepted list.",
         "Review the calls and add the accepted ones to --allow-experimental (names or "
         "@FILE).",
         P::run}},
    Row{F::dpa_loopback,
        {"dpa-loopback", "loopback",
         "A DPA kernel's loopback RDMA write landed and was verified, up to the requested "
         "level.",
         "Follow the first action the failure names (it gives the DOCA error and the "
         "layer: install, version, driver, verbs, DPA or RDMI).",
         P::run}},
    Row{F::min_version,
        {"min-version", "check --min-version",
         "The RDMI stack's matched version is at least the required one.",
         "Upgrade DOCA to the required version or newer.", P::both}},
    Row{F::max_version,
        {"max-version", "check --max-version",
         "The RDMI stack's matched version is at most the required one.",
         "Install the required DOCA version or an older one.", P::both}},
    Row{F::exact_version,
        {"exact-version", "check --exact-version",
         "The RDMI stack's matched version is exactly the required one.",
         "Install the required DOCA version.", P::both}},
    Row{F::consistent_versions,
        {"consistent-versions", "check --require-consistent", kConsistencyRule, kConsistencyFix,
         P::both}},
    Row{F::symbol,
        {"symbol-<name>", "check --require-symbol", "libdoca_rdmi exports the symbol.",
         "Install a DOCA release that provides it, or stop using it.", P::both}},
    Row{F::stable,
        {"stable-<name>", "check --require-stable",
         "libdoca_rdmi exports the symbol and it is neither experimental nor deprecated.",
         "Use a stable replacement or wait for the release that stabilises it; a skip "
         "means nothing marks its stability: install DOCA's headers.",
         P::build}},
    Row{F::device,
        {"device", "check --require-device",
         "An NVIDIA RDMA/BlueField device (or the named one) is present.",
         "Run on a host with the device, or check that mlx5_core is loaded.", P::run}},
    Row{F::dpa,
        {"dpa", "check --require-dpa", "The required device has a DPA.",
         "DOCA RDMI needs a DPA, which only a {dpa-devices} has; a skip means rerun on the "
         "live host with DOCA installed.",
         P::run}},
    Row{F::port_active,
        {"port-active", "check --require-port-active", "The required device has an ACTIVE port.",
         "Load mlx5_ib. A port physically up (phys_state LinkUp) but not ACTIVE waits for "
         "configuration: on InfiniBand a subnet manager (sminfo; opensm), on Ethernet its "
         "netdev (ip link set NETDEV up); only a port physically down needs its cable and "
         "link checked (mlxlink -d PCI).",
         P::run}},
};

constexpr bool catalog_in_enum_order() {
    for (std::size_t i = 0; i < kRows.size(); ++i) {
        if (static_cast<std::size_t>(kRows[i].finding) != i) return false;
    }
    return true;
}
static_assert(catalog_in_enum_order(), "kRows must follow the order of enum Finding");
static_assert(kRows.back().finding == Finding::port_active, "every Finding has a row");

// finding_catalog()'s view: the entries alone, by address.
constexpr auto kCatalog = [] {
    std::array<const FindingInfo*, kRows.size()> out{};
    for (std::size_t i = 0; i < kRows.size(); ++i) out[i] = &kRows[i].info;
    return out;
}();

struct Pattern {
    std::string_view prefix;
    std::string_view suffix;
};

Pattern split(std::string_view id) {
    const auto open = id.find('<');
    const auto close = id.find('>');
    return {id.substr(0, open), id.substr(close + 1)};
}

}  // namespace

std::span<const FindingInfo* const> finding_catalog() {
    return kCatalog;
}

const FindingInfo& finding_info(Finding finding) {
    return kRows.at(static_cast<std::size_t>(finding)).info;
}

bool is_pattern(const FindingInfo& info) {
    return info.id.find('<') != std::string_view::npos;
}

const FindingInfo* find_finding(std::span<const FindingInfo* const> catalog, std::string_view id) {
    const FindingInfo* best = nullptr;
    std::size_t best_literal = 0;
    for (const FindingInfo* info : catalog) {
        if (!is_pattern(*info)) {
            if (info->id == id) return info;
            continue;
        }
        const auto [prefix, suffix] = split(info->id);
        const std::size_t literal = prefix.size() + suffix.size();
        if (id.size() > literal && id.starts_with(prefix) && id.ends_with(suffix) &&
            (best == nullptr || literal > best_literal)) {
            best = info;
            best_literal = literal;
        }
    }
    return best;
}

FindingId::FindingId(const FindingInfo& info) : info_(&info) {
    if (is_pattern(info))
        throw std::logic_error("finding " + std::string(info.id) + " needs its parameter");
    text_ = info.id;
}

FindingId::FindingId(Finding finding) : FindingId(finding_info(finding)) {}

FindingId::FindingId(const FindingInfo& info, std::string_view parameter) : info_(&info) {
    if (!is_pattern(info))
        throw std::logic_error("finding " + std::string(info.id) + " takes no parameter");
    if (parameter.empty())
        throw std::logic_error("finding " + std::string(info.id) + " with an empty parameter");
    const auto [prefix, suffix] = split(info.id);
    text_ = std::string(prefix) + std::string(parameter) + std::string(suffix);
}

FindingId::FindingId(Finding finding, std::string_view parameter)
    : FindingId(finding_info(finding), parameter) {}

}  // namespace rdmi
