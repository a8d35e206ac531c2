// The two "four-way matches" (docs/reference/install-layout.md#four-way-matches): the RDMI
// stack's and the contract's.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "context/tool_runner.hpp"
#include "loader/dynamic_library.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi::install {
namespace {

VersionSource source_of(std::string name, Sourced<std::string> raw, bool free_text = false) {
    VersionSource src{std::move(name), std::move(raw), std::nullopt};
    if (src.raw.value) {
        src.version =
            free_text ? find_doca_version(*src.raw.value) : parse_doca_version(*src.raw.value);
        if (!src.version) {
            src.raw.gap = Gap{GapReason::malformed, src.raw.source.ref + ": not a DOCA version: '" +
                                                        src.raw.value->substr(0, 80) + "'"};
        }
    }
    return src;
}

// In the worker child: dlopen the library at `path` and ask it.
std::string runtime_version_in_child(std::string_view path) {
    auto handle = DynamicLibrary::open(std::string(path));
    if (!handle) throw std::runtime_error(handle.gap().message);
    using VersionFn = const char* (*)();
    auto fn = handle->function<VersionFn>("doca_version_runtime");
    if (fn == nullptr) throw std::runtime_error("does not export doca_version_runtime");
    const char* version = fn();
    if (version == nullptr) throw std::runtime_error("doca_version_runtime() returned NULL");
    return version;
}

/// doca_version_runtime() from the libdoca_common the install ships, loaded in a child process
/// (its constructors run there, not here) and only from a trusted path.
Sourced<std::string> runtime_version(const ProbeContext& ctx, const InstallFacts& facts) {
    Provenance from{"api", "doca_version_runtime()"};
    if (!ctx.live()) {
        return Sourced<std::string>::missing(
            {GapReason::not_applicable, "libraries are not loaded under --root"}, from);
    }
    const InstalledFile* lib = nullptr;
    for (const auto& file : facts.libraries) {
        if (file.name == "doca-common" && file.present) lib = &file;
    }
    if (lib == nullptr) {
        return Sourced<std::string>::missing({GapReason::not_installed, "libdoca_common not found"},
                                             from);
    }
    from.ref = "doca_version_runtime() in " + lib->path;
    auto loadable = ctx.loadable(lib->path);
    if (!loadable) return Sourced<std::string>::missing(loadable.gap(), from);
    const std::string path = *loadable;
    from.kind = ctx.answers.kind(from.kind);
    auto result = ctx.answers.answer("doca_version_runtime() via " + path, [&]() {
        return ctx.isolated(&runtime_version_in_child, path, "dlopen " + path);
    });
    return Sourced<std::string>::from(std::move(result), from);
}

Sourced<std::string> read_first_line(const Fs& fs, const std::string& path, Provenance from) {
    auto text = fs.read_file(path, 4096);
    if (!text) return Sourced<std::string>::missing(text.gap(), std::move(from));
    std::string line = text->substr(0, text->find('\n'));
    return Sourced<std::string>::of(line, std::move(from));
}

}  // namespace

VersionMatch match_versions(std::vector<VersionSource> sources) {
    VersionMatch match;
    // The majority's version is "the" version; ties go to the first source listed.
    std::vector<std::pair<DocaVersion, int>> groups;
    for (const auto& src : sources) {
        if (!src.version) continue;
        bool placed = false;
        for (auto& [version, count] : groups) {
            if (same_doca_version(version, *src.version)) {
                ++count;
                if (!version.build) version.build = src.version->build;
                placed = true;
                break;
            }
        }
        if (!placed) groups.emplace_back(*src.version, 1);
    }
    const std::pair<DocaVersion, int>* best = nullptr;
    for (const auto& group : groups) {
        if (best == nullptr || group.second > best->second) best = &group;
    }
    for (const auto& src : sources) {
        // Absent, unreadable and unparseable are kept apart; not applicable here (under --root,
        // not a BlueField) is none of them.
        switch (source_state(src)) {
            case SourceState::present:
                if (!same_doca_version(best->first, *src.version))
                    match.disagreeing.push_back(src.name);
                break;
            case SourceState::absent:
                match.absent.push_back(src.name);
                break;
            case SourceState::unreadable:
                match.unreadable.push_back(src.name);
                break;
            case SourceState::unparseable:
                match.unparseable.push_back(src.name);
                break;
            case SourceState::not_applicable:
                break;
        }
    }
    if (best != nullptr) match.agreed = best->first;
    match.sources = std::move(sources);
    match.consistent = match_state(match) == MatchState::agree;
    return match;
}

void probe_versions(const ProbeContext& ctx, InstallFacts& facts) {
    // Both tools start before the runtime library's child, so that the three run side by side.
    std::optional<StartedTool> dpacc;
    if (facts.dpacc.present) dpacc.emplace(start_tool(ctx, facts.dpacc.path, {"--version"}));
    std::optional<StartedTool> doca_caps;
    if (facts.doca_caps.present)
        doca_caps.emplace(start_tool(ctx, facts.doca_caps.path, {"--version"}));
    std::vector<VersionSource> stack;
    for (const auto& module : facts.stack) {
        Provenance from{"pkg-config", module.pc_path.empty() ? module.name : module.pc_path};
        auto raw =
            module.found
                ? Sourced<std::string>::of(module.version, from)
                : Sourced<std::string>::missing(
                      module.gap.value_or(Gap{GapReason::not_found, module.name + ": not found"}),
                      from);
        stack.push_back(source_of(module.name + ".pc", raw));
    }
    auto runtime = runtime_version(ctx, facts);
    stack.push_back(source_of("runtime", runtime));
    facts.stack_versions = match_versions(std::move(stack));

    const std::string& prefix = *facts.prefix.value;
    std::vector<VersionSource> contract;
    contract.push_back(facts.stack_versions.sources[0]);
    const std::string top_file = join_path(prefix, "VERSION");
    facts.version_file =
        source_of("VERSION", read_first_line(ctx.fs, top_file, {"file", top_file}));
    const std::string version_file = join_path(prefix, "applications/VERSION");
    contract.push_back(source_of("applications/VERSION",
                                 read_first_line(ctx.fs, version_file, {"file", version_file})));
    Provenance caps_from{"command", facts.doca_caps.path + " --version"};
    if (dpacc) read_dpacc_version(facts.dpacc, finish_tool(*dpacc));
    if (doca_caps) {
        caps_from.kind = ctx.answers.kind(caps_from.kind);
        auto out = finish_tool(*doca_caps);
        auto raw = out.ok() ? Sourced<std::string>::of(
                                  out->substr(0, out->find_last_not_of('\n') + 1), caps_from)
                            : Sourced<std::string>::missing(out.gap(), caps_from);
        contract.push_back(source_of("doca_caps --version", raw, true));
    } else {
        contract.push_back(source_of(
            "doca_caps --version", Sourced<std::string>::missing(*facts.doca_caps.gap, caps_from)));
    }
    auto bfb = read_first_line(ctx.fs, "/etc/mlnx-release", {"file", "/etc/mlnx-release"});
    if (bfb.gap && bfb.gap->reason == GapReason::not_found) {
        // Only a BlueField's Arm side has a BFB; elsewhere its absence is not a gap.
        bfb.gap = Gap{GapReason::not_applicable,
                      "/etc/mlnx-release: absent (not a BlueField Arm system)"};
    }
    contract.push_back(source_of("bfb", bfb, true));
    facts.contract_versions = match_versions(std::move(contract));
}

}  // namespace rdmi::install
