// Joins the three stability sources DOCA uses (docs/reference/symbol-stability.md).
#include "elf/symbol_audit.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace rdmi {
namespace {

constexpr std::string_view kExperimentalSection = ".text.experimental";
constexpr std::string_view kDeprecatedSection = ".text.deprecated";

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// DPDK's convention, which DOCA's version maps follow: a node literally named EXPERIMENTAL.
Stability node_marks(std::string_view node) {
    if (contains(node, "EXPERIMENTAL")) return Stability::experimental;
    if (contains(node, "DEPRECATED")) return Stability::deprecated;
    return Stability::unknown;
}

Stability section_marks(std::string_view section) {
    if (section == kExperimentalSection || section.starts_with(".text.experimental."))
        return Stability::experimental;
    if (section == kDeprecatedSection || section.starts_with(".text.deprecated."))
        return Stability::deprecated;
    return Stability::unknown;
}

Stability from_annotation(Annotation annotation) {
    switch (annotation) {
        case Annotation::experimental:
            return Stability::experimental;
        case Annotation::stable:
            return Stability::stable;
        case Annotation::deprecated:
            return Stability::deprecated;
        case Annotation::none:
            break;
    }
    return Stability::unknown;
}

bool is_export(const ElfSymbol& symbol) {
    if (!symbol.defined || symbol.name.empty()) return false;
    if (symbol.binding == SymbolBinding::local || symbol.binding == SymbolBinding::other)
        return false;
    if (symbol.visibility == SymbolVisibility::hidden ||
        symbol.visibility == SymbolVisibility::internal)
        return false;
    if (symbol.type == SymbolType::section || symbol.type == SymbolType::file) return false;
    // The absolute symbol GNU ld emits for each version node ("EXPERIMENTAL@@EXPERIMENTAL").
    return !(symbol.section == "*ABS*" && symbol.name == symbol.version);
}

int rank(EvidenceSource source) {
    return static_cast<int>(source);
}

bool compatible(const Evidence& evidence, Stability verdict) {
    if (evidence.says == Stability::unknown || evidence.says == verdict) return true;
    return evidence.says == Stability::stable && verdict == Stability::deprecated &&
           !evidence.can_say_deprecated;
}

void decide(SymbolVerdict& verdict) {
    const Evidence* primary = nullptr;
    for (const auto& e : verdict.evidence) {
        if (e.says != Stability::unknown &&
            (primary == nullptr || rank(e.source) < rank(primary->source)))
            primary = &e;
    }
    if (primary == nullptr) {
        verdict.stability = Stability::unknown;
        verdict.sources_agree = true;
        return;
    }
    verdict.stability = primary->says;
    // A release node cannot say "deprecated"; a header or section that does refines it.
    if (verdict.stability == Stability::stable && !primary->can_say_deprecated) {
        for (const auto& e : verdict.evidence) {
            if (e.says == Stability::deprecated) verdict.stability = Stability::deprecated;
        }
    }
    verdict.sources_agree =
        std::all_of(verdict.evidence.begin(), verdict.evidence.end(),
                    [&](const Evidence& e) { return compatible(e, verdict.stability); });
}

class Builder {
  public:
    Builder(std::string prefix, std::size_t expected) : prefix_(std::move(prefix)) {
        // Rehashing a node-based map of 100k strings dominates otherwise.
        index_.reserve(expected);
        verdicts_.reserve(expected);
    }

    [[nodiscard]] bool wanted(std::string_view name) const {
        return !name.empty() && name.starts_with(prefix_);
    }

    // The index keys view the callers' names (the library's symbols, the archive members', the
    // header declarations', the runtime evidence's), which all outlive the builder: indexing a
    // 100k-symbol library then copies no name.
    SymbolVerdict& at(std::string_view name) {
        auto [it, inserted] = index_.try_emplace(name, verdicts_.size());
        if (inserted) {
            verdicts_.emplace_back();
            verdicts_.back().name = std::string(name);
        }
        return verdicts_[it->second];
    }

    std::vector<SymbolVerdict> take() { return std::move(verdicts_); }

  private:
    std::string prefix_;
    std::unordered_map<std::string_view, std::size_t> index_;
    std::vector<SymbolVerdict> verdicts_;
};

void add_library_evidence(const ElfImage& library, const ClassifyOptions& options,
                          LibraryAudit& audit, Builder& builder) {
    bool deprecated_node = false;
    for (const auto& def : library.version_defs) {
        if (def.is_base) continue;
        audit.version_nodes.push_back(def.name);
        const Stability marks = node_marks(def.name);
        audit.version_nodes_mark_stability =
            audit.version_nodes_mark_stability || marks != Stability::unknown;
        deprecated_node = deprecated_node || marks == Stability::deprecated;
    }
    for (const auto& symbol : library.dynamic_symbols) {
        if (!is_export(symbol) || !builder.wanted(symbol.name)) continue;
        auto& verdict = builder.at(symbol.name);
        verdict.exported = true;
        verdict.type = symbol.type;
        verdict.versions.push_back(symbol.version.empty()
                                       ? std::string()
                                       : (symbol.version_hidden ? "@" : "@@") + symbol.version);
        if (!symbol.version.empty()) {
            Evidence e{EvidenceSource::version_node, node_marks(symbol.version), symbol.version,
                       options.library_ref, deprecated_node};
            if (symbol.version_hidden) {
                // A non-default version only serves binaries linked against an older release.
                e.says = Stability::unknown;
                e.detail += " (non-default @, for binaries linked earlier)";
            } else if (e.says == Stability::unknown && audit.version_nodes_mark_stability) {
                e.says = Stability::stable;
            } else if (e.says == Stability::unknown) {
                e.detail += " (the library has no EXPERIMENTAL node: says nothing)";
            }
            verdict.evidence.push_back(std::move(e));
        }
        // Normally merged into .text by the linker (docs/reference/symbol-stability.md#sections);
        // a further signal if kept.
        const Stability in_section = section_marks(symbol.section);
        if (in_section != Stability::unknown) {
            verdict.evidence.push_back(
                {EvidenceSource::section, in_section, symbol.section, options.library_ref});
        }
    }
}

void add_archive_evidence(std::span<const ArchiveMember> archive, const ClassifyOptions& options,
                          LibraryAudit& audit, Builder& builder) {
    bool deprecated_section = false;
    for (const auto& member : archive) {
        if (!member.image) continue;
        for (const auto& symbol : member.image->static_symbols) {
            const Stability marks = section_marks(symbol.section);
            audit.archive_sections_mark_stability =
                audit.archive_sections_mark_stability || marks != Stability::unknown;
            deprecated_section = deprecated_section || marks == Stability::deprecated;
        }
    }
    for (const auto& member : archive) {
        if (!member.image) continue;
        const std::string ref = options.archive_ref + "(" + member.name + ")";
        for (const auto& symbol : member.image->static_symbols) {
            if (!symbol.defined || symbol.binding == SymbolBinding::local ||
                symbol.type == SymbolType::section || symbol.type == SymbolType::file ||
                !builder.wanted(symbol.name))
                continue;
            Evidence e{EvidenceSource::section, section_marks(symbol.section), symbol.section, ref,
                       deprecated_section};
            if (e.says == Stability::unknown && audit.archive_sections_mark_stability)
                e.says = Stability::stable;
            builder.at(symbol.name).evidence.push_back(std::move(e));
        }
    }
}

void add_header_evidence(std::span<const HeaderDecl> headers, Builder& builder) {
    for (const auto& decl : headers) {
        if (!builder.wanted(decl.name)) continue;
        auto& verdict = builder.at(decl.name);
        verdict.declared = true;
        verdict.evidence.push_back({EvidenceSource::header, from_annotation(decl.annotation),
                                    decl.macro.empty() ? "no stability macro" : decl.macro,
                                    decl.file + ":" + std::to_string(decl.line)});
    }
}

// Sorting an index and moving each verdict once: swapping the verdicts themselves (strings and
// vectors) cost more than the rest of classify for a 100k-symbol library.
std::vector<SymbolVerdict> sorted_by_name(std::vector<SymbolVerdict> verdicts) {
    std::vector<std::size_t> order(verdicts.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&verdicts](std::size_t a, std::size_t b) {
        return verdicts[a].name < verdicts[b].name;
    });
    std::vector<SymbolVerdict> sorted;
    sorted.reserve(verdicts.size());
    for (const std::size_t i : order) sorted.push_back(std::move(verdicts[i]));
    return sorted;
}

}  // namespace

std::string_view to_string(Stability stability) {
    switch (stability) {
        case Stability::experimental:
            return "experimental";
        case Stability::stable:
            return "stable";
        case Stability::deprecated:
            return "deprecated";
        case Stability::unknown:
            break;
    }
    return "unknown";
}

std::string_view to_string(EvidenceSource source) {
    switch (source) {
        case EvidenceSource::runtime:
            return "runtime";
        case EvidenceSource::version_node:
            return "version-node";
        case EvidenceSource::section:
            return "section";
        case EvidenceSource::header:
            break;
    }
    return "header";
}

const SymbolVerdict* LibraryAudit::find(std::string_view name) const {
    const auto it =
        std::lower_bound(symbols.begin(), symbols.end(), name,
                         [](const SymbolVerdict& v, std::string_view n) { return v.name < n; });
    return it != symbols.end() && it->name == name ? &*it : nullptr;
}

LibraryAudit classify(const ElfImage& library, std::span<const ArchiveMember> archive,
                      std::span<const HeaderDecl> headers, std::span<const SymbolEvidence> runtime,
                      const ClassifyOptions& options) {
    LibraryAudit audit;
    audit.prefix = options.prefix;
    audit.library_ref = options.library_ref;
    audit.headers_scanned = !headers.empty();
    Builder builder(options.prefix, library.dynamic_symbols.size() + headers.size());
    add_library_evidence(library, options, audit, builder);
    add_archive_evidence(archive, options, audit, builder);
    add_header_evidence(headers, builder);
    for (const auto& item : runtime) {
        if (builder.wanted(item.symbol)) builder.at(item.symbol).evidence.push_back(item.evidence);
    }
    audit.symbols = sorted_by_name(builder.take());
    for (auto& verdict : audit.symbols) {
        decide(verdict);
        if (verdict.declared && !verdict.exported)
            audit.declared_not_exported.push_back(verdict.name);
        if (audit.headers_scanned && verdict.exported && !verdict.declared)
            audit.exported_not_declared.push_back(verdict.name);
        if (!verdict.sources_agree) audit.disagreements.push_back(verdict.name);
        switch (verdict.stability) {
            case Stability::experimental:
                ++audit.counts.experimental;
                break;
            case Stability::stable:
                ++audit.counts.stable;
                break;
            case Stability::deprecated:
                ++audit.counts.deprecated;
                break;
            case Stability::unknown:
                ++audit.counts.unknown;
                break;
        }
    }
    return audit;
}

}  // namespace rdmi
