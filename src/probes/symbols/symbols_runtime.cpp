// Loader prediction and runtime resolution for the symbols probe (docs/safety.md: trusted
// libraries only; docs/reference/symbol-stability.md#version-nodes: dlvsym(EXPERIMENTAL) is the
// authoritative runtime signal).
#include <elf.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "elf/elf_reader.hpp"
#include "probes/symbols/symbols_parts.hpp"
#include "text/text.hpp"

namespace rdmi::symbols {
namespace {

bool names_node(const std::vector<std::string>& nodes, std::string_view word) {
    return std::any_of(nodes.begin(), nodes.end(), [word](const std::string& node) {
        return node.find(word) != std::string::npos;
    });
}

std::string first_naming(const std::vector<std::string>& nodes, std::string_view word) {
    for (const auto& node : nodes) {
        if (node.find(word) != std::string::npos) return node;
    }
    return {};
}

// The version nodes of the file that will really be loaded, when it is not the audited one.
std::vector<std::string> loaded_file_nodes(const ProbeContext& ctx, const std::string& path,
                                           const ElfImage& audited, const SymbolsFacts& facts) {
    if (ctx.fs.real_path(path).value_or(path) == facts.library.real_path)
        return stability_nodes(audited);
    auto bytes = ctx.fs.read_file(path, kMaxElfBytes);
    if (!bytes) return stability_nodes(audited);
    auto image = parse_elf(*bytes);
    return image ? stability_nodes(*image) : stability_nodes(audited);
}

}  // namespace

std::uint16_t host_machine() {
#if defined(__x86_64__)
    return EM_X86_64;
#elif defined(__aarch64__)
    return EM_AARCH64;
#elif defined(__i386__)
    return EM_386;
#elif defined(__powerpc64__)
    return EM_PPC64;
#elif defined(__s390x__)
    return EM_S390;
#elif defined(__riscv)
    return EM_RISCV;
#else
    return EM_NONE;
#endif
}

std::vector<std::string> stability_nodes(const ElfImage& image) {
    std::vector<std::string> nodes;
    for (const auto& def : image.version_defs) {
        if (!def.is_base && (def.name.find("EXPERIMENTAL") != std::string::npos ||
                             def.name.find("DEPRECATED") != std::string::npos))
            nodes.push_back(def.name);
    }
    return nodes;
}

void predict_loader(const ProbeContext& ctx, const ElfImage& library, SymbolsFacts& facts) {
    LoaderQuery query;
    query.soname =
        library.soname.empty() ? std::string(base_name(facts.library.path)) : library.soname;
    query.machine = library.machine;
    query.elf_class = library.elf_class;
    LoaderFacts loader;
    // The host's environment says nothing about how programs on a mounted root are started.
    if (ctx.live()) {
        query.ld_library_path = ctx.env.get("LD_LIBRARY_PATH");
        loader.ld_library_path_used = query.ld_library_path.has_value();
    }
    loader.prediction = predict_loader_path(ctx.fs, query);
    if (loader.prediction.path) {
        loader.predicted_real_path =
            ctx.fs.real_path(*loader.prediction.path).value_or(*loader.prediction.path);
        loader.other_file = loader.predicted_real_path != facts.library.real_path;
    }
    facts.loader = std::move(loader);
}

std::vector<SymbolEvidence> runtime_evidence(const RuntimeResolution& resolution,
                                             const std::vector<std::string>& nodes) {
    std::vector<SymbolEvidence> out;
    out.reserve(resolution.symbols.size());
    const bool has_experimental = names_node(nodes, "EXPERIMENTAL");
    const bool has_deprecated = names_node(nodes, "DEPRECATED");
    for (const auto& symbol : resolution.symbols) {
        SymbolEvidence::Owned e{EvidenceSource::runtime, Stability::unknown, "",
                                resolution.loaded_path, has_deprecated};
        if (!symbol.found) {
            e.detail = "dlsym: not found";
        } else if (auto node = first_naming(symbol.default_in, "EXPERIMENTAL"); !node.empty()) {
            e.says = Stability::experimental;
            e.detail = "dlvsym(" + node + ")";
        } else if (auto old = first_naming(symbol.default_in, "DEPRECATED"); !old.empty()) {
            e.says = Stability::deprecated;
            e.detail = "dlvsym(" + old + ")";
        } else if (has_experimental) {
            e.says = Stability::stable;
            e.detail = "dlsym: default version outside " + join(nodes, ", ");
            if (!symbol.also_in.empty())
                e.detail += " (also in " + join(symbol.also_in, ", ") + " for older binaries)";
        } else {
            e.detail = "dlsym: found (no EXPERIMENTAL node to ask dlvsym: says nothing)";
        }
        out.push_back({symbol.name, std::move(e)});
    }
    return out;
}

std::vector<SymbolEvidence> resolve_runtime(const ProbeContext& ctx, const ElfImage& library,
                                            SymbolsFacts& facts) {
    RuntimeFacts& rt = facts.runtime;
    if (!ctx.live()) {
        rt.gap = Gap{GapReason::not_applicable,
                     "nothing is loaded under --root: the audit is static (ELF and headers)"};
        return {};
    }
    if (library.machine != host_machine()) {
        rt.gap = Gap{GapReason::not_applicable,
                     "an " + library.machine_name() +
                         " library cannot be loaded here: the audit is static (ELF and headers)"};
        return {};
    }
    // Modules: the file an application would get by soname; --lib: the file named.
    std::string path = facts.library.path;
    if (!facts.module.empty() && facts.loader && facts.loader->prediction.path)
        path = *facts.loader->prediction.path;
    rt.path = path;
    auto loadable = ctx.loadable(path);
    if (!loadable) {
        rt.gap = Gap{loadable.gap().reason,
                     loadable.gap().message + ": the audit is static (ELF and headers)"};
        return {};
    }
    RuntimeQuery query;
    query.path = *loadable;
    query.versions = loaded_file_nodes(ctx, path, library, facts);
    for (const auto& verdict : facts.audit.symbols) query.names.emplace_back(verdict.name);
    auto resolution = resolve_runtime_symbols(query, *ctx.worker, ctx.call_deadline(), ctx.answers);
    if (!resolution) {
        rt.gap = resolution.gap();
        return {};
    }
    rt.loaded = true;
    rt.loaded_path = resolution->loaded_path;
    for (const auto& symbol : resolution->symbols) {
        if (symbol.found) {
            ++rt.resolved;
            if (!symbol.file.empty() && symbol.file != resolution->loaded_path)
                rt.foreign.push_back(symbol.name + " in " + symbol.file);
        } else if (const auto* verdict = facts.audit.find(symbol.name);
                   verdict != nullptr && verdict->exported) {
            rt.unresolved.push_back(symbol.name);
        }
    }
    return runtime_evidence(*resolution, query.versions);
}

}  // namespace rdmi::symbols
