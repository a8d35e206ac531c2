// Headers, shared objects, samples and DPA/DOCA tools of the install.
#include <sys/stat.h>

#include "context/library_lookup.hpp"
#include "context/tool_runner.hpp"
#include "elf/elf_reader.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/symbols/symbols.hpp"
#include "process/process.hpp"
#include "text/text.hpp"

namespace rdmi::install {
namespace {

/// Bound on a library read for its soname; real DOCA libraries are tens of MiB at most.
constexpr std::size_t kMaxLibraryBytes = 1ULL << 30U;

InstalledFile find_module_library(const Fs& fs, const std::string& module,
                                  const std::string& libdir) {
    InstalledFile file;
    file.name = module;
    auto path = find_shared_object(fs, libdir, library_name_of_module(module));
    file.present = path.ok();
    file.path =
        path.ok() ? *path : join_path(libdir, "lib" + library_name_of_module(module) + ".so");
    if (!path) file.gap = path.gap();
    return file;
}

/// The soname of a found library, read from its ELF dynamic section (never by loading it).
void read_soname(const Fs& fs, InstalledFile& lib) {
    auto bytes = fs.map_file(lib.path, kMaxLibraryBytes);
    if (!bytes) {
        lib.gap = bytes.gap();
        return;
    }
    auto image = parse_elf((*bytes)->bytes());
    if (!image) {
        lib.gap = Gap{GapReason::malformed, lib.path + ": " + image.gap().message};
    } else if (image->kind != ElfKind::shared_object) {
        lib.gap = Gap{GapReason::malformed, lib.path + ": not a shared object"};
    } else {
        lib.detail = image->soname;
    }
}

InstalledFile find_tool(const ProbeContext& ctx, const std::string& prefix,
                        const std::string& name) {
    InstalledFile tool;
    tool.name = name;
    std::vector<std::string> candidates{join_path(prefix, "tools/" + name)};
    if (auto path = ctx.env.get("PATH")) {
        std::size_t pos = 0;
        while (pos <= path->size()) {
            const auto end = std::min(path->find(':', pos), path->size());
            if (end > pos && (*path)[pos] == '/')
                candidates.push_back(join_path(path->substr(pos, end - pos), name));
            pos = end + 1;
        }
    }
    for (const auto& candidate : candidates) {
        auto info = ctx.fs.stat(candidate);
        if (info.ok() && info->type == FileType::regular && (info->mode & 0111U) != 0) {
            tool.path = candidate;
            tool.present = true;
            return tool;
        }
    }
    tool.path = candidates.front();
    tool.gap = Gap{GapReason::not_installed,
                   name + ": not in " + join_path(prefix, "tools") + " nor on PATH"};
    return tool;
}

}  // namespace

void probe_files(const ProbeContext& ctx, InstallFacts& facts) {
    const std::string& prefix = *facts.prefix.value;
    const ModuleFacts& common = facts.stack[0];
    const ModuleFacts& rdmi = facts.stack[3];
    if (!rdmi.includedir.empty()) {
        facts.include_dir = rdmi.includedir;
    } else if (!common.includedir.empty()) {
        facts.include_dir = common.includedir;
    } else {
        facts.include_dir = join_path(
            prefix, facts.layout == DocaLayout::legacy ? "infrastructure/include" : "include");
    }
    for (const char* header : kRdmiHeaders) {
        InstalledFile file;
        file.name = header;
        file.path = join_path(facts.include_dir, header);
        auto info = ctx.fs.stat(file.path);
        file.present = info.ok() && info->type == FileType::regular;
        if (!file.present) {
            file.gap = info.ok() ? Gap{GapReason::malformed, file.path + ": not a regular file"}
                                 : info.gap();
        } else if (info->size > kMaxHeaderBytes) {
            // Present but beyond what the symbols audit reads: not a header we can vouch for.
            file.gap =
                Gap{GapReason::malformed,
                    file.path + ": " + std::to_string(info->size) + " bytes, over the " +
                        std::to_string(kMaxHeaderBytes >> 20U) + " MiB header cap; not read"};
        }
        facts.headers.push_back(std::move(file));
    }
    for (const auto& module : facts.stack) {
        if (!module.found || module.libdir.empty()) continue;
        InstalledFile lib = find_module_library(ctx.fs, module.name, module.libdir);
        if (lib.present) {
            read_soname(ctx.fs, lib);
            // The file the symlink chain ends at carries the release (libdoca_dpa.so.3.2.1025).
            if (auto real = ctx.fs.real_path(lib.path)) lib.resolved = *real;
        }
        facts.libraries.push_back(std::move(lib));
    }
    facts.samples.name = "samples/doca_rdmi";
    facts.samples.path = join_path(prefix, "samples/doca_rdmi");
    auto samples = ctx.fs.stat(facts.samples.path);
    facts.samples.present = samples.ok() && samples->type == FileType::directory;
    if (!facts.samples.present) {
        facts.samples.gap =
            samples.ok() ? Gap{GapReason::malformed, facts.samples.path + ": not a directory"}
                         : samples.gap();
    }

    facts.doca_caps = find_tool(ctx, prefix, "doca_caps");
    facts.dpacc = find_tool(ctx, prefix, "dpacc");
}

void read_dpacc_version(InstalledFile& dpacc, const Result<std::string>& out) {
    if (!out.ok()) {
        dpacc.gap = out.gap();
        return;
    }
    for (const auto line : split_lines(*out)) {
        if (line.starts_with("dpacc version ")) dpacc.detail = line.substr(14);
    }
    if (dpacc.detail.empty()) {
        dpacc.gap = Gap{GapReason::malformed, dpacc.path + " --version: no 'dpacc version' line"};
    }
}

}  // namespace rdmi::install
