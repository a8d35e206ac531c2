// Stability audit of a library's symbols: header annotations, version nodes and sections joined.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "doca_headers/header_scanner.hpp"
#include "elf/elf_image.hpp"

namespace rdmi {

/// What a symbol's stability is, as far as the evidence shows. `unknown` is never a guess.
enum class Stability : std::uint8_t { experimental, stable, deprecated, unknown };

/// "experimental", "stable", "deprecated", "unknown".
std::string_view to_string(Stability stability);

/// Where a piece of evidence comes from, strongest last-resort first: runtime > version_node >
/// section > header.
enum class EvidenceSource : std::uint8_t { runtime, version_node, section, header };

/// "runtime", "version-node", "section", "header".
std::string_view to_string(EvidenceSource source);

/// One observation about one symbol. `says == unknown` records a fact that decides nothing.
/// `Text` is std::string_view in an audit (Evidence) and std::string where the observation is
/// made outside it (SymbolEvidence::Owned).
template <class Text>
struct BasicEvidence {
    EvidenceSource source = EvidenceSource::header;
    Stability says = Stability::unknown;
    /// The fact itself: "DOCA_EXPERIMENTAL", "EXPERIMENTAL", "DOCA_3.3", ".text.experimental",
    /// "dlvsym(EXPERIMENTAL)", plus a short qualifier where it matters.
    Text detail;
    /// Where it was seen: "doca_rdmi_poster.h:40", "libdoca_rdmi.so.3",
    /// "libdoca_rdmi.a(doca_rdmi.o)".
    Text ref;
    /// False when this source has no way to express "deprecated" (a release version node in a
    /// library without a DEPRECATED node): its "stable" then does not contradict a deprecation.
    bool can_say_deprecated = true;
};

/// Evidence in an audit: its texts view storage owned by the LibraryAudit that holds it (or
/// string literals): a 100k-symbol audit then holds each shared text ("libdoca_rdmi.so.3",
/// "DOCA_EXPERIMENTAL") once instead of once per symbol.
using Evidence = BasicEvidence<std::string_view>;

/// Evidence produced outside this module (e.g. by the dynamic-loader probe) for one symbol; it
/// owns its texts, classify() copies them into the audit.
struct SymbolEvidence {
    /// Every producer names its source (normally EvidenceSource::runtime).
    using Owned = BasicEvidence<std::string>;
    std::string symbol;
    Owned evidence;  ///< normally source == EvidenceSource::runtime
};

/// The verdict on one symbol. The name and the spans view the storage of the LibraryAudit that
/// holds the verdict: copy the audit (which shares that storage), not a verdict alone, to keep
/// them beyond its life.
struct SymbolVerdict {
    std::string_view name;
    Stability stability = Stability::unknown;
    bool exported = false;  ///< defined, global/weak, default/protected visibility in `.dynsym`
    bool declared = false;  ///< declared in a scanned header
    SymbolType type = SymbolType::notype;  ///< from `.dynsym` when exported
    /// "@@EXPERIMENTAL", "@EXPERIMENTAL", "" (unversioned)
    std::span<const std::string_view> versions;
    std::span<const Evidence> evidence;  ///< every observation, decisive or not
    bool sources_agree = true;           ///< every decisive observation fits `stability`
    /// Every text of the verdict (name, versions, evidence) is known to be printable ASCII
    /// without '"' or '\\': names lexed as C identifiers, shared texts checked once. A JSON
    /// writer then copies them as they are instead of checking each again. False says nothing.
    bool plain_text = false;
};

/// What the verdicts of one audit view: their texts, evidence and version lists (symbol_audit.cpp).
struct AuditStore;

/// Tallies by stability.
struct StabilityCounts {
    int experimental = 0;
    int stable = 0;
    int deprecated = 0;
    int unknown = 0;
};

/// The audit of one library (with its optional static archive and headers).
struct LibraryAudit {
    std::string prefix;                         ///< only names starting with it were audited
    std::string library_ref;                    ///< as given in ClassifyOptions
    std::vector<std::string> version_nodes;     ///< non-base `.gnu.version_d` names
    bool version_nodes_mark_stability = false;  ///< some node is named *EXPERIMENTAL*/*DEPRECATED*
    bool archive_sections_mark_stability =
        false;  ///< the archive has .text.experimental/.deprecated
    bool headers_scanned = false;
    std::vector<SymbolVerdict> symbols;  ///< exported ∪ declared ∪ archive-defined, by name
    /// What `symbols` view; shared by copies of the audit, immutable once classify() returns.
    std::shared_ptr<const AuditStore> store;
    std::vector<std::string> declared_not_exported;
    std::vector<std::string> exported_not_declared;  ///< empty unless headers were scanned
    std::vector<std::string> disagreements;          ///< names whose sources do not agree
    StabilityCounts counts;

    /// The verdict for `name`, or nullptr.
    [[nodiscard]] const SymbolVerdict* find(std::string_view name) const;
};

/// Inputs that are not symbol lists.
struct ClassifyOptions {
    std::string prefix;       ///< e.g. "doca_rdmi_"; empty audits every name
    std::string library_ref;  ///< how evidence names the shared object ("libdoca_rdmi.so.3")
    std::string archive_ref;  ///< how evidence names the static archive ("libdoca_rdmi.a")
};

/// Classifies every symbol. Precedence when sources disagree: runtime, version node, section,
/// header; the disagreement is reported, not hidden. With no decisive evidence the answer is
/// `unknown`. A release version node says "stable" only when the library also has an
/// EXPERIMENTAL (or DEPRECATED) node; an untagged archive section only when the archive tags
/// some other symbol's section.
LibraryAudit classify(const ElfImage& library, std::span<const ArchiveMember> archive,
                      std::span<const HeaderDecl> headers, std::span<const SymbolEvidence> runtime,
                      const ClassifyOptions& options);

}  // namespace rdmi
