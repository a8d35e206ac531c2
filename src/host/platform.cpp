// scan_platform(): kernel release, mlx5 modules, hugepages, uverbs nodes, BlueField markers.
#include "host/platform.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

#include "host/proc_modules.hpp"
#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"

namespace rdmi::host {

// The sysfs layer's device model and parsers, used here by their short names.
using sysfs::AttrDir;
using sysfs::parse_first_line;
using sysfs::parse_line;
using sysfs::parse_unsigned;
namespace {

constexpr std::string_view kProcModules = "/proc/modules";
constexpr std::string_view kSysModule = "/sys/module";
constexpr std::string_view kDevInfiniband = "/dev/infiniband";
constexpr std::string_view kPlatformDevices = "/sys/bus/platform/devices";

// The uname machine name of an ELF file's header, for the architectures DOCA ships for: 64-bit
// little-endian only (a big-endian aarch64 is aarch64_be, a 32-bit x86_64 file is x32: other
// ABIs, other library directories).
std::optional<std::string> machine_name(unsigned char elf_class, unsigned char elf_data,
                                        std::uint16_t e_machine) {
    constexpr unsigned char kElfClass64 = 2;
    constexpr unsigned char kElfDataLsb = 1;
    constexpr std::uint16_t kEmX8664 = 62;
    constexpr std::uint16_t kEmAarch64 = 183;
    if (elf_class != kElfClass64 || elf_data != kElfDataLsb) return std::nullopt;
    if (e_machine == kEmX8664) return "x86_64";
    if (e_machine == kEmAarch64) return "aarch64";
    return std::nullopt;
}

// A uname machine name: "x86_64", "aarch64", "riscv64", ... It goes into the pkg-config
// directories searched under the root ("/usr/lib/<machine>-linux-gnu"), so a root's file that
// says "../../etc" or "x86 64" is no machine.
bool is_machine_name(std::string_view text) {
    constexpr std::size_t kLongest = 32;
    if (text.empty() || text.size() > kLongest) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// The architecture of a root without /proc: the first of its shells that is an ELF file says it
// by its header (EI_CLASS at byte 4, EI_DATA at 5, e_machine at 18-19). A later one does not
// overrule it: a root whose shell is for another machine is that machine's.
Sourced<std::string> shell_machine(const Fs& fs) {
    constexpr std::size_t kHeader = 20;
    for (const char* path : {"/bin/sh", "/usr/bin/sh", "/bin/bash", "/usr/bin/env"}) {
        auto mapped = fs.map_file(path, std::size_t{64} << 20U);  // mapped: only 20 bytes read
        if (!mapped) continue;
        const std::string_view bytes = (*mapped)->bytes();
        if (bytes.size() < kHeader || bytes.substr(0, 4) !=
                                          "\x7f"
                                          "ELF")
            continue;
        const auto elf_class = static_cast<unsigned char>(bytes[4]);
        const auto elf_data = static_cast<unsigned char>(bytes[5]);
        const auto lo = static_cast<unsigned char>(bytes[18]);
        const auto hi = static_cast<unsigned char>(bytes[19]);
        const auto e_machine =
            static_cast<std::uint16_t>(elf_data == 2 ? (lo << 8U) | hi : (hi << 8U) | lo);
        const Provenance from{"file", std::string(path) + " (ELF e_machine)"};
        if (auto name = machine_name(elf_class, elf_data, e_machine))
            return Sourced<std::string>::of(*name, from);
        return Sourced<std::string>::missing(
            Gap{GapReason::not_applicable,
                std::string(path) + ": ELF file for machine " + std::to_string(e_machine) +
                    (elf_class == 2 ? ", 64-bit" : ", not 64-bit") +
                    (elf_data == 1 ? ", little-endian" : ", not little-endian") +
                    ": not x86_64 or aarch64"},
            from);
    }
    return Sourced<std::string>::missing(
        Gap{GapReason::not_found, "no ELF shell (/bin/sh, /usr/bin/sh, /bin/bash, /usr/bin/env)"},
        Provenance{"file", "/bin/sh (ELF e_machine)"});
}

// A partial root (no /proc, no shell: a copied /usr and /opt) still says it by its multiarch
// library directory, when it has the directory of one machine only.
Sourced<std::string> multiarch_machine(const Fs& fs) {
    std::optional<std::string> found;
    for (const char* machine : {"x86_64", "aarch64"}) {
        auto info = fs.stat(std::string("/usr/lib/") + machine + "-linux-gnu");
        if (!info || info->type != FileType::directory) continue;
        if (found) {
            return Sourced<std::string>::missing(
                Gap{GapReason::not_found,
                    "both /usr/lib/x86_64-linux-gnu and /usr/lib/aarch64-linux-gnu (multiarch)"},
                Provenance{"derived", "/usr/lib/<machine>-linux-gnu"});
        }
        found = machine;
    }
    if (!found) {
        return Sourced<std::string>::missing(
            Gap{GapReason::not_found,
                "no /usr/lib/x86_64-linux-gnu or /usr/lib/aarch64-linux-gnu directory"},
            Provenance{"derived", "/usr/lib/<machine>-linux-gnu"});
    }
    return Sourced<std::string>::of(
        *found, Provenance{"derived", "/usr/lib/" + *found +
                                          "-linux-gnu (the root's only multiarch directory)"});
}

// The machine of a root: its /proc copy, else its shell, else its multiarch directory. When none
// says, the /proc gap with why each other route said nothing.
Sourced<std::string> root_architecture(const Fs& fs) {
    const AttrDir kernel(fs, "/proc/sys/kernel");
    auto arch = kernel.get<std::string>("arch", parse_line);
    if (arch.ok() && !is_machine_name(*arch.value)) {
        arch = Sourced<std::string>::missing(
            Gap{GapReason::malformed, "/proc/sys/kernel/arch: not a machine name: " +
                                          sysfs::quote_for_message(*arch.value)},
            arch.source);
    }
    if (arch.ok()) return arch;
    // A captured or mounted root usually has no /proc: its own executables say what it runs on.
    auto shell = shell_machine(fs);
    if (shell.ok()) return shell;
    auto multiarch = multiarch_machine(fs);
    if (multiarch.ok()) return multiarch;
    Gap why = arch.gap.value_or(Gap{GapReason::not_found, "/proc/sys/kernel/arch"});
    if (shell.gap) why.message += "; " + shell.gap->message;
    if (multiarch.gap) why.message += "; " + multiarch.gap->message;
    return Sourced<std::string>::missing(std::move(why), arch.source);
}

Sourced<std::string> uname_field(const std::optional<LiveHost>& live, bool machine, const Fs& fs) {
    if (live) {
        return Sourced<std::string>::of(
            machine ? live->machine : live->release,
            Provenance{"api", machine ? "uname(2) machine" : "uname(2) release"});
    }
    // Under --root, uname would describe the probing machine; the root's procfs copy does not.
    if (machine) return root_architecture(fs);
    const AttrDir kernel(fs, "/proc/sys/kernel");
    return kernel.get<std::string>("osrelease", parse_line);
}

}  // namespace

std::optional<std::string> root_machine_name(const Fs& fs) {
    auto arch = root_architecture(fs);
    if (arch.ok()) return *arch.value;
    return std::nullopt;
}

namespace {

ModuleState module_state(const Fs& fs, std::string_view name,
                         const Result<std::vector<std::string>>& loaded) {
    const Provenance proc = provenance_of(kProcModules);
    if (loaded && std::find(loaded->begin(), loaded->end(), name) != loaded->end())
        return ModuleState{Sourced<bool>::of(true, proc), "loaded"};
    const std::string sys = join_path(kSysModule, name);
    if (fs.exists(sys)) {
        // /sys/module/<name> without a /proc/modules line: compiled into the kernel.
        return ModuleState{Sourced<bool>::of(true, provenance_of(sys)),
                           loaded ? "built-in" : "loaded or built-in"};
    }
    if (loaded) return ModuleState{Sourced<bool>::of(false, proc), ""};
    return ModuleState{Sourced<bool>::missing(loaded.gap(), proc), ""};
}

Sourced<std::vector<std::string>> mlx5_modules(const Fs& fs,
                                               const Result<std::vector<std::string>>& loaded) {
    std::set<std::string> names;
    if (loaded) {
        for (const auto& name : *loaded) {
            if (name.rfind("mlx5_", 0) == 0) names.insert(name);
        }
    }
    bool builtin = false;
    auto sys = fs.list_dir(kSysModule);
    if (sys) {
        for (const auto& entry : *sys) {
            if (entry.name.rfind("mlx5_", 0) == 0 && names.insert(entry.name).second)
                builtin = true;
        }
    }
    if (!loaded && !sys) {
        return Sourced<std::vector<std::string>>::missing(loaded.gap(),
                                                          provenance_of(kProcModules));
    }
    Provenance from = provenance_of(loaded ? kProcModules : kSysModule);
    if (loaded && builtin) from.ref += " + /sys/module (built-in)";
    return Sourced<std::vector<std::string>>::of(
        std::vector<std::string>(names.begin(), names.end()), from);
}

HugepagePool hugepage_pool(const Fs& fs, std::string_view size) {
    const AttrDir dir(fs, "/sys/kernel/mm/hugepages/hugepages-" + std::string(size));
    return HugepagePool{dir.get<std::uint64_t>("nr_hugepages", parse_unsigned),
                        dir.get<std::uint64_t>("free_hugepages", parse_unsigned)};
}

bool may_open_rw(const FileInfo& info, const LiveHost& who) {
    // Root passes DAC checks (CAP_DAC_OVERRIDE); others need both bits in the applicable class.
    if (who.uid == 0) return true;
    std::uint32_t bits = info.mode & 07U;
    if (info.uid == who.uid) {
        bits = (info.mode >> 6U) & 07U;
    } else if (info.gid == who.gid ||
               std::find(who.groups.begin(), who.groups.end(), info.gid) != who.groups.end()) {
        bits = (info.mode >> 3U) & 07U;
    }
    return (bits & 06U) == 06U;
}

Sourced<std::vector<UverbsNode>> uverbs_nodes(const Fs& fs, const std::optional<LiveHost>& live) {
    const Provenance from = provenance_of(kDevInfiniband);
    auto entries = fs.list_dir(kDevInfiniband);
    if (!entries) return Sourced<std::vector<UverbsNode>>::missing(entries.gap(), from);
    std::vector<UverbsNode> nodes;
    for (const auto& entry : *entries) {
        if (entry.name.rfind("uverbs", 0) != 0) continue;
        UverbsNode node;
        node.path = join_path(kDevInfiniband, entry.name);
        const Provenance here = provenance_of(node.path);
        auto info = fs.stat(node.path);
        if (!info) {
            node.accessible = Sourced<bool>::missing(info.gap(), here);
        } else {
            node.info = *info;
            if (live) {
                node.accessible = Sourced<bool>::of(may_open_rw(*info, *live), here);
            } else {
                node.accessible = Sourced<bool>::missing(
                    Gap{GapReason::not_applicable,
                        node.path + ": access is not judged under --root (the invoking user's "
                                    "credentials do not apply there)"},
                    here);
            }
        }
        nodes.push_back(std::move(node));
    }
    return Sourced<std::vector<UverbsNode>>::of(std::move(nodes), from);
}

Sourced<std::vector<std::string>> platform_devices(const Fs& fs) {
    const Provenance from = provenance_of(kPlatformDevices);
    auto entries = fs.list_dir(kPlatformDevices);
    if (!entries) return Sourced<std::vector<std::string>>::missing(entries.gap(), from);
    std::vector<std::string> names;
    for (const auto& entry : *entries) {
        if (entry.name.rfind("MLNXBF", 0) == 0) names.push_back(entry.name);
    }
    return Sourced<std::vector<std::string>>::of(std::move(names), from);
}

}  // namespace

PlatformFacts scan_platform(const Fs& fs, const std::optional<LiveHost>& live) {
    PlatformFacts facts;
    facts.live = live.has_value();
    facts.architecture = uname_field(live, true, fs);
    facts.architecture_from_layout =
        !live && facts.architecture.ok() &&
        facts.architecture.source.kind == "derived";  // that route only
    facts.kernel_release = uname_field(live, false, fs);
    auto modules_text = fs.read_file(kProcModules);
    const Result<std::vector<std::string>> loaded =
        modules_text ? parse_proc_modules(*modules_text)
                     : Result<std::vector<std::string>>(modules_text.gap());
    const Result<std::vector<std::string>> located =
        loaded ? loaded
               : Result<std::vector<std::string>>(
                     AttrDir(fs, "/proc").located("modules", loaded.gap()));
    facts.mlx5_core = module_state(fs, "mlx5_core", located);
    facts.mlx5_ib = module_state(fs, "mlx5_ib", located);
    facts.mlx5_modules = mlx5_modules(fs, located);
    facts.hugepages_2m = hugepage_pool(fs, "2048kB");
    facts.hugepages_1g = hugepage_pool(fs, "1048576kB");
    const AttrDir proc(fs, "/proc");
    auto mounts = fs.read_file("/proc/mounts");
    if (!mounts) {
        facts.hugetlbfs_mounts =
            Sourced<std::vector<HugetlbfsMount>>::missing(mounts.gap(), proc.source("mounts"));
    } else {
        auto parsed = parse_hugetlbfs_mounts(*mounts);
        facts.hugetlbfs_mounts =
            parsed ? Sourced<std::vector<HugetlbfsMount>>::of(std::move(parsed).value(),
                                                              proc.source("mounts"))
                   : Sourced<std::vector<HugetlbfsMount>>::missing(
                         proc.located("mounts", parsed.gap()), proc.source("mounts"));
    }
    facts.uverbs = uverbs_nodes(fs, live);
    facts.bfb = AttrDir(fs, "/etc").get<std::string>("mlnx-release", parse_first_line);
    facts.bluefield_platform_devices = platform_devices(fs);
    return facts;
}

PlatformFacts scan_platform(const Fs& fs) {
    return scan_platform(fs, query_live_host(fs));
}

}  // namespace rdmi::host
