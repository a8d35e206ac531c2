// Finding DOCA: the prefix and its layout
// (docs/reference/install-layout.md#prefix-and-directories).
#include <array>

#include "probes/install/install_parts.hpp"

namespace rdmi::install {
namespace {

constexpr const char* kDefaultPrefix = "/opt/mellanox/doca";

bool is_dir(const Fs& fs, const std::string& path) {
    auto info = fs.stat(path);
    return info.ok() && info->type == FileType::directory;
}

/// DOCA 3.x DEB installs keep .pc files in lib/<triplet>/pkgconfig; prefer the triplet that has
/// doca-common.pc, then any.
std::string find_multiarch_pc_dir(const Fs& fs, const std::string& prefix) {
    auto entries = fs.list_dir(join_path(prefix, "lib"));
    if (!entries) return {};
    std::string any;
    for (const auto& entry : *entries) {
        if (entry.name.find("-linux-gnu") == std::string::npos) continue;
        std::string dir = join_path(prefix, "lib/" + entry.name + "/pkgconfig");
        if (!is_dir(fs, dir)) continue;
        if (fs.exists(join_path(dir, "doca-common.pc"))) return dir;
        if (any.empty()) any = dir;
    }
    return any;
}

}  // namespace

void locate_prefix(const ProbeContext& ctx, const pkgconfig::PkgConfig& pc, InstallFacts& facts) {
    if (ctx.doca_prefix) {
        facts.prefix = Sourced<std::string>::of(*ctx.doca_prefix, {"option", "--doca-prefix"});
    } else if (auto common = pc.find("doca-common");
               common.ok() && common->variables.count("prefix") != 0) {
        facts.prefix = Sourced<std::string>::of(
            common->variables.at("prefix"),
            {"pkg-config", "doca-common prefix (" + common->pc_path + ")"});
    } else {
        facts.prefix = Sourced<std::string>::of(kDefaultPrefix, {"derived", "default DOCA prefix"});
    }
    const std::string& prefix = *facts.prefix.value;
    facts.prefix_exists = is_dir(ctx.fs, prefix);
    if (!facts.prefix_exists) return;

    if (auto dir = find_multiarch_pc_dir(ctx.fs, prefix); !dir.empty()) {
        facts.layout = DocaLayout::multiarch;
        facts.pc_dir = dir;
    } else if (is_dir(ctx.fs, join_path(prefix, "lib64/pkgconfig"))) {
        facts.layout = DocaLayout::lib64;
        facts.pc_dir = join_path(prefix, "lib64/pkgconfig");
    } else if (is_dir(ctx.fs, join_path(prefix, "infrastructure/lib/pkgconfig"))) {
        facts.layout = DocaLayout::legacy;
        facts.pc_dir = join_path(prefix, "infrastructure/lib/pkgconfig");
    }
}

}  // namespace rdmi::install
