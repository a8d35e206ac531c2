// Joins the three stability sources DOCA uses (docs/reference/symbol-stability.md).
#include "elf/symbol_audit.hpp"

#include "elf/text_arena.hpp"
#include "os/huge_pages.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_set>
#include <utility>

namespace rdmi {
namespace {

constexpr std::string_view kExperimentalSection = ".text.experimental";
constexpr std::string_view kDeprecatedSection = ".text.deprecated";

// Printable ASCII other than '"' and '\\': text a JSON writer copies as it is
// (SymbolVerdict::plain_text).
bool plain_ascii(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

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

}  // namespace

struct AuditStore {
    TextArena text;
    std::shared_ptr<const TextArena> library_text;  // what exported names view
    std::unordered_set<std::string_view> interned;  // views into `text`
    // Arrays of 100k+ records for a large library: in huge pages (HugeVector).
    HugeVector<Evidence> evidence;
    HugeVector<std::string_view> versions;

    // One copy of a text many verdicts share (a library ref, a version node, a macro).
    std::string_view intern(std::string_view value) {
        if (const auto it = interned.find(value); it != interned.end()) return *it;
        const std::string_view kept = text.copy(value);
        interned.insert(kept);
        return kept;
    }
};

namespace {

// One contribution to a verdict: a `.dynsym` export, an archive definition, a header
// declaration or a runtime observation. Items are added in the order the evidence of one
// verdict is listed in (exports, archive, headers, runtime), and the sort keeps that order
// among equal names.
enum class ItemKind : std::uint8_t { library, archive, header, runtime };

struct Item {
    std::string_view name;
    const void* what = nullptr;
    ItemKind kind = ItemKind::library;
};

struct ArchiveDef {
    const ElfSymbol* symbol;
    std::string_view ref;
};

std::size_t common_prefix(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t i = 0;
    while (i < n && a[i] == b[i]) ++i;
    return i;
}

// The 8 bytes of `name` from `skip` on as one big-endian integer, zero-padded: integers then
// order as the texts do.
std::uint64_t key_at(std::string_view name, std::size_t skip) {
    if (name.size() >= skip + 8) {
        std::uint64_t raw = 0;
        std::memcpy(&raw, name.data() + skip, 8);
        if constexpr (std::endian::native == std::endian::little) raw = __builtin_bswap64(raw);
        return raw;
    }
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 8; ++i) {
        const std::size_t at = skip + i;
        const auto byte = at < name.size() ? static_cast<unsigned char>(name[at]) : 0U;
        key = (key << 8U) | byte;
    }
    return key;
}

// One place in the sorted order: the item, and whether its name differs from the one before.
struct Sorted {
    std::uint32_t at;
    bool new_name;
};

// The order of `items` by name (byte order, as std::string compares), then by arrival. Exported
// names share long prefixes ("doca_rdmi_connection_"): the common prefix of the whole set is
// skipped and the next 8 bytes, as one integer, are radix-sorted (16 bits a pass, stable, so equal
// keys keep their arrival order); only names equal in those bytes are compared as text. A
// comparison sort of 200k such items took 150M instructions, this about a tenth. The same keys
// mark where one name ends and the next begins, so the join compares no text either.
HugeVector<Sorted> sort_items(const HugeVector<Item>& items) {
    if (items.empty()) return {};
    // Each radix pass clears and sums 65,536 counters (a quarter of a megabyte): for the few
    // dozen names of an ordinary library that is most of a static probe's sorting, so a short
    // list is compared as text instead (the same order: bytes, then arrival).
    constexpr std::size_t kRadixFrom = 1024;
    if (items.size() < kRadixFrom) {
        HugeVector<std::uint32_t> by_name(items.size());
        for (std::size_t i = 0; i < by_name.size(); ++i) by_name[i] = static_cast<std::uint32_t>(i);
        std::stable_sort(by_name.begin(), by_name.end(), [&](std::uint32_t x, std::uint32_t y) {
            return items[x].name < items[y].name;
        });
        HugeVector<Sorted> sorted(by_name.size());
        for (std::size_t i = 0; i < by_name.size(); ++i) {
            sorted[i] = {by_name[i],
                         i == 0 || items[by_name[i]].name != items[by_name[i - 1]].name};
        }
        return sorted;
    }
    const std::string_view first = items.front().name;
    std::size_t skip = first.size();
    for (const auto& item : items) {
        // Most names share the whole prefix found so far: one comparison, not a byte loop.
        if (item.name.size() >= skip && std::memcmp(item.name.data(), first.data(), skip) == 0)
            continue;
        skip = common_prefix(first.substr(0, skip), item.name);
    }
    struct Order {
        std::uint64_t key;
        std::uint32_t at;
    };
    HugeVector<Order> order(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        order[i] = {key_at(items[i].name, skip), static_cast<std::uint32_t>(i)};
    }
    constexpr unsigned kDigitBits = 16;
    constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
    HugeVector<Order> spare(order.size());
    std::vector<std::uint32_t> start(kBuckets + 1);
    for (unsigned shift = 0; shift < 64; shift += kDigitBits) {
        std::fill(start.begin(), start.end(), 0U);
        for (const auto& o : order) ++start[((o.key >> shift) & (kBuckets - 1)) + 1];
        // Every key has this digit in common: the pass would move nothing.
        if (std::find(start.begin(), start.end(), order.size()) != start.end()) continue;
        for (std::size_t d = 1; d <= kBuckets; ++d) start[d] += start[d - 1];
        for (const auto& o : order) spare[start[(o.key >> shift) & (kBuckets - 1)]++] = o;
        order.swap(spare);
    }
    spare = {};
    // Names equal in their 8 key bytes and longer than them: by the rest of the name.
    const std::size_t tail = skip + 8;
    const auto rest = [&](const Order& o) {
        const std::string_view name = items[o.at].name;
        return name.substr(std::min(tail, name.size()));
    };
    for (std::size_t i = 0; i < order.size();) {
        std::size_t end = i + 1;
        bool longer = items[order[i].at].name.size() > tail;
        for (; end < order.size() && order[end].key == order[i].key; ++end)
            longer = longer || items[order[end].at].name.size() > tail;
        if (longer && end - i > 1) {
            std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(i),
                             order.begin() + static_cast<std::ptrdiff_t>(end),
                             [&](const Order& x, const Order& y) { return rest(x) < rest(y); });
        }
        i = end;
    }
    // The items stay where they are: an index is a quarter of an item. Every name shares the
    // first `skip` bytes, so equal keys and equal lengths up to `tail` mean equal names.
    HugeVector<Sorted> sorted(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        bool new_name = i == 0 || order[i].key != order[i - 1].key;
        if (!new_name) {
            const std::string_view name = items[order[i].at].name;
            const std::string_view before = items[order[i - 1].at].name;
            new_name = name.size() != before.size() ||
                       (name.size() > tail && rest(order[i]) != rest(order[i - 1]));
        }
        sorted[i] = {order[i].at, new_name};
    }
    return sorted;
}

// The version-node evidence and version entry of one export, computed once per distinct
// (version, hidden) pair: 100k exports use two or three.
struct VersionFacts {
    std::string_view version;  // "@@EXPERIMENTAL"
    Evidence evidence;
    bool plain = false;  // the version and the evidence's texts are plain_ascii()
};

class Builder {
  public:
    explicit Builder(const ClassifyOptions& options) : prefix_(options.prefix) {}

    [[nodiscard]] bool wanted(std::string_view name) const {
        return !name.empty() && name.starts_with(prefix_);
    }
    void add(std::string_view name, ItemKind kind, const void* what) {
        items_.push_back({name, what, kind});
    }
    void reserve(std::size_t n) { items_.reserve(n); }
    HugeVector<Item>& items() { return items_; }

  private:
    std::string_view prefix_;
    HugeVector<Item> items_;
};

bool deprecated_node_in(const ElfImage& library) {
    return std::any_of(library.version_defs.begin(), library.version_defs.end(),
                       [](const VersionDef& def) {
                           return !def.is_base && node_marks(def.name) == Stability::deprecated;
                       });
}

class VersionCache {
  public:
    VersionCache(AuditStore& store, std::string_view library_ref, bool nodes_mark,
                 bool deprecated_node)
        : store_(store),
          library_ref_(library_ref),
          nodes_mark_(nodes_mark),
          deprecated_node_(deprecated_node) {}

    const VersionFacts& of(const ElfSymbol& symbol) {
        // The image's symbols view one copy of each version name: the address decides first.
        for (const auto& [version, first_seen, hidden, facts] : seen_) {
            if (hidden == symbol.version_hidden && first_seen.data() == symbol.version.data() &&
                first_seen.size() == symbol.version.size())
                return facts;
        }
        for (const auto& [version, first_seen, hidden, facts] : seen_) {
            if (hidden == symbol.version_hidden && version == symbol.version) return facts;
        }
        VersionFacts facts;
        facts.version = store_.intern(std::string(symbol.version_hidden ? "@" : "@@") +
                                      std::string(symbol.version));
        Evidence e{EvidenceSource::version_node,
                   node_marks(symbol.version),
                   {},
                   library_ref_,
                   deprecated_node_};
        std::string detail(symbol.version);
        if (symbol.version_hidden) {
            // A non-default version only serves binaries linked against an older release.
            e.says = Stability::unknown;
            detail += " (non-default @, for binaries linked earlier)";
        } else if (e.says == Stability::unknown && nodes_mark_) {
            e.says = Stability::stable;
        } else if (e.says == Stability::unknown) {
            detail += " (the library has no EXPERIMENTAL node: says nothing)";
        }
        e.detail = store_.intern(detail);
        facts.evidence = e;
        facts.plain = plain_ascii(facts.version) && plain_ascii(e.detail) && plain_ascii(e.ref);
        seen_.push_back(
            {std::string(symbol.version), symbol.version, symbol.version_hidden, facts});
        return seen_.back().facts;
    }

  private:
    struct Seen {
        std::string version;
        std::string_view first_seen;  // the symbol's own view, valid while classify() runs
        bool hidden;
        VersionFacts facts;
    };
    AuditStore& store_;
    std::string_view library_ref_;
    bool nodes_mark_;
    bool deprecated_node_;
    std::deque<Seen> seen_;  // stable addresses for the references handed out
};

// The version nodes the library defines, and whether any of them marks a stability.
void note_version_nodes(const ElfImage& library, LibraryAudit& audit) {
    for (const auto& def : library.version_defs) {
        if (def.is_base) continue;
        audit.version_nodes.push_back(def.name);
        audit.version_nodes_mark_stability =
            audit.version_nodes_mark_stability || node_marks(def.name) != Stability::unknown;
    }
}

// Whether the archive's sections mark stability at all (then an unmarked definition is
// stable); returns whether any marks one deprecated (then a section can say so).
bool note_archive_sections(std::span<const ArchiveMember> archive, LibraryAudit& audit) {
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
    return deprecated_section;
}

// The four sources classify() joins.
struct Sources {
    const ElfImage& library;
    std::span<const ArchiveMember> archive;
    std::span<const HeaderDecl> headers;
    std::span<const SymbolEvidence> runtime;
};

// Every wanted name of every source as an item, in the order one verdict lists its evidence.
// `archive_defs` must outlive the items: the archive's point at its elements.
void gather_items(Builder& builder, std::vector<ArchiveDef>& archive_defs, const Sources& from,
                  const ClassifyOptions& options, AuditStore& store) {
    builder.reserve(from.library.dynamic_symbols.size() + from.headers.size() +
                    from.runtime.size());
    for (const auto& symbol : from.library.dynamic_symbols) {
        if (is_export(symbol) && builder.wanted(symbol.name))
            builder.add(symbol.name, ItemKind::library, &symbol);
    }
    for (const auto& member : from.archive) {
        if (!member.image) continue;
        const std::string_view ref = store.intern(options.archive_ref + "(" + member.name + ")");
        for (const auto& symbol : member.image->static_symbols) {
            if (!symbol.defined || symbol.binding == SymbolBinding::local ||
                symbol.type == SymbolType::section || symbol.type == SymbolType::file ||
                !builder.wanted(symbol.name))
                continue;
            archive_defs.push_back({&symbol, ref});
        }
    }
    // After the vector has stopped growing: items point at its elements.
    for (const auto& def : archive_defs) builder.add(def.symbol->name, ItemKind::archive, &def);
    for (const auto& decl : from.headers) {
        if (builder.wanted(decl.name)) builder.add(decl.name, ItemKind::header, &decl);
    }
    for (const auto& item : from.runtime) {
        if (builder.wanted(item.symbol)) builder.add(item.symbol, ItemKind::runtime, &item);
    }
}

// Reserved to their bounds, so that the spans the verdicts take stay valid and no vector of
// 100k entries is ever held twice while it grows.
void reserve_results(const HugeVector<Item>& items, const HugeVector<Sorted>& sorted,
                     LibraryAudit& audit, AuditStore& store) {
    std::size_t names = 0, exports = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        names += sorted[i].new_name ? 1 : 0;
        exports += items[sorted[i].at].kind == ItemKind::library ? 1 : 0;
    }
    audit.symbols.reserve(names);
    store.evidence.reserve(items.size() + exports);  // an export gives at most two
    store.versions.reserve(exports);
    advise_huge_pages(audit.symbols);
}

// What the whole library says, which each item's evidence depends on.
struct LibraryMarks {
    std::string_view library_ref;  // interned
    bool version_nodes_mark = false;
    bool deprecated_node = false;
    bool archive_sections_mark = false;
    bool deprecated_section = false;
};

// Joins the items of each name, in sorted order, into that name's verdict (its evidence, its
// versions, whether its texts are plain), before decide(). What lets 100k items share a few
// texts (version facts, header macros, file names) is kept here, from one name to the next.
class EvidenceJoin {
  public:
    EvidenceJoin(AuditStore& store, const HugeVector<Item>& items, const HugeVector<Sorted>& sorted,
                 const LibraryMarks& marks)
        : store_(store),
          items_(items),
          sorted_(sorted),
          marks_(marks),
          library_ref_plain_(plain_ascii(marks.library_ref)),
          versions_(store, marks.library_ref, marks.version_nodes_mark, marks.deprecated_node) {}

    // The verdict of the name at sorted place `i`; `i` moves past that name's items.
    // Always inlined into classify()'s loop, like the steps below: as calls, with the vectors
    // reached through members, the join took 30% longer (bench/elf_bench, classify/100k).
    [[gnu::always_inline]] SymbolVerdict next(std::size_t& i) {
        // Local views: a store into the evidence cannot move them, so they stay in registers.
        const std::span<const Item> items = items_;
        const std::span<const Sorted> sorted = sorted_;
        SymbolVerdict verdict;
        const Item& first = item_at(items, sorted, i);
        verdict.name = first.kind == ItemKind::library && store_.library_text != nullptr
                           ? first.name
                           : store_.text.copy(first.name);
        const std::size_t evidence_at = store_.evidence.size();
        const std::size_t versions_at = store_.versions.size();
        Texts texts;
        for (const std::size_t group = i; i < items.size() && (i == group || !sorted[i].new_name);
             ++i) {
            fetch_ahead(items, sorted, i);
            const Item& item = item_at(items, sorted, i);
            switch (item.kind) {
                case ItemKind::library:
                    add_export(*static_cast<const ElfSymbol*>(item.what), verdict, texts);
                    break;
                case ItemKind::archive:
                    add_archive_def(*static_cast<const ArchiveDef*>(item.what), texts);
                    break;
                case ItemKind::header:
                    add_declaration(*static_cast<const HeaderDecl*>(item.what), verdict, texts);
                    break;
                case ItemKind::runtime:
                    add_observation(static_cast<const SymbolEvidence*>(item.what)->evidence, texts);
                    break;
            }
        }
        verdict.evidence = std::span(store_.evidence).subspan(evidence_at);
        verdict.versions = std::span(store_.versions).subspan(versions_at);
        // Equal names: one lexed as an identifier makes them all one.
        verdict.plain_text = texts.plain && (texts.name_identifier || plain_ascii(verdict.name));
        return verdict;
    }

  private:
    // What one name's items have said of its texts so far.
    struct Texts {
        bool plain = true;             // every text of the evidence so far is plain_ascii()
        bool name_identifier = false;  // some header lexed the name as an identifier
    };
    // A header macro interned, by address: a header's declarations view a few constants.
    struct Macro {
        std::string_view seen, kept;
        bool plain = false;
    };

    [[gnu::always_inline]] static const Item& item_at(std::span<const Item> items,
                                                      std::span<const Sorted> sorted,
                                                      std::size_t i) {
        return items[sorted[i].at];
    }

    // The sorted order visits items, and the symbols and declarations they point at, in no
    // order of memory: fetched ahead, they are in the cache when their turn comes (each was a
    // cache miss, a third of the audit's time at 100k symbols).
    [[gnu::always_inline]] static void fetch_ahead(std::span<const Item> items,
                                                   std::span<const Sorted> sorted, std::size_t i) {
        constexpr std::size_t kFetchAhead = 8;
        constexpr std::size_t kCacheLine = 64;
        if (i + 2 * kFetchAhead < items.size())
            __builtin_prefetch(&item_at(items, sorted, i + 2 * kFetchAhead));
        if (i + kFetchAhead < items.size()) {
            const auto* ahead =
                static_cast<const char*>(item_at(items, sorted, i + kFetchAhead).what);
            __builtin_prefetch(ahead);
            __builtin_prefetch(ahead + kCacheLine);
        }
    }

    [[gnu::always_inline]] void add_export(const ElfSymbol& symbol, SymbolVerdict& verdict,
                                           Texts& texts) {
        verdict.exported = true;
        verdict.type = symbol.type;
        if (symbol.version.empty()) {
            store_.versions.emplace_back();
        } else {
            const VersionFacts& facts = versions_.of(symbol);
            store_.versions.push_back(facts.version);
            store_.evidence.push_back(facts.evidence);
            texts.plain = texts.plain && facts.plain;
        }
        // Normally merged into .text by the linker (docs/reference/symbol-stability.md#sections);
        // a further signal if kept.
        const Stability in_section = section_marks(symbol.section);
        if (in_section != Stability::unknown) {
            store_.evidence.push_back({EvidenceSource::section, in_section,
                                       store_.intern(symbol.section), marks_.library_ref});
            texts.plain = texts.plain && library_ref_plain_ && plain_ascii(symbol.section);
        }
    }

    [[gnu::always_inline]] void add_archive_def(const ArchiveDef& def, Texts& texts) {
        Evidence e{EvidenceSource::section, section_marks(def.symbol->section),
                   store_.intern(def.symbol->section), def.ref, marks_.deprecated_section};
        if (e.says == Stability::unknown && marks_.archive_sections_mark)
            e.says = Stability::stable;
        store_.evidence.push_back(e);
        texts.plain = texts.plain && plain_ascii(e.detail) && plain_ascii(e.ref);
    }

    [[gnu::always_inline]] void add_declaration(const HeaderDecl& decl, SymbolVerdict& verdict,
                                                Texts& texts) {
        verdict.declared = true;
        line_ = decl.file;
        line_ += ':';
        std::array<char, 24> digits{};
        const auto written = std::to_chars(digits.data(), digits.data() + digits.size(), decl.line);
        line_.append(digits.data(), written.ptr);
        const std::string_view macro = decl.macro.empty() ? "no stability macro" : decl.macro;
        Macro& seen = macros_[static_cast<std::size_t>(decl.annotation) % macros_.size()];
        if (macro.data() != seen.seen.data() || macro.size() != seen.seen.size()) {
            seen = {macro, store_.intern(macro), plain_ascii(macro)};
        }
        if (decl.file.data() != file_seen_.data() || decl.file.size() != file_seen_.size()) {
            file_seen_ = decl.file;
            file_plain_ = plain_ascii(decl.file);
        }
        store_.evidence.push_back({EvidenceSource::header, from_annotation(decl.annotation),
                                   seen.kept, store_.text.copy(line_)});
        texts.plain = texts.plain && seen.plain && file_plain_;
        texts.name_identifier = texts.name_identifier || decl.identifier;
    }

    [[gnu::always_inline]] void add_observation(const SymbolEvidence::Owned& e, Texts& texts) {
        store_.evidence.push_back({e.source, e.says, store_.intern(e.detail), store_.intern(e.ref),
                                   e.can_say_deprecated});
        texts.plain = texts.plain && plain_ascii(e.detail) && plain_ascii(e.ref);
    }

    AuditStore& store_;
    std::span<const Item> items_;
    std::span<const Sorted> sorted_;
    LibraryMarks marks_;
    bool library_ref_plain_;
    VersionCache versions_;
    std::array<Macro, 4> macros_{};
    // The file of the last header declaration seen, by address, and whether it is
    // plain_ascii(): a header ref is that file name, a colon and digits.
    std::string_view file_seen_;
    bool file_plain_ = false;
    std::string line_;  // the header ref being built, its buffer kept from one to the next
};

// The verdict's place in the audit's lists and counts.
void tally(const SymbolVerdict& verdict, LibraryAudit& audit) {
    if (verdict.declared && !verdict.exported)
        audit.declared_not_exported.emplace_back(verdict.name);
    if (audit.headers_scanned && verdict.exported && !verdict.declared)
        audit.exported_not_declared.emplace_back(verdict.name);
    if (!verdict.sources_agree) audit.disagreements.emplace_back(verdict.name);
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
    audit.symbols.push_back(verdict);
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
    auto store = std::make_shared<AuditStore>();

    note_version_nodes(library, audit);
    const bool deprecated_section = note_archive_sections(archive, audit);
    Builder builder(options);
    std::vector<ArchiveDef> archive_defs;  // what the archive's items point at
    gather_items(builder, archive_defs, {library, archive, headers, runtime}, options, *store);
    const auto& items = builder.items();
    const HugeVector<Sorted> sorted = sort_items(items);
    reserve_results(items, sorted, audit, *store);
    // Exported names view the library's own text, which the store keeps: not copied again.
    store->library_text = library.strings;

    const std::string_view library_ref = store->intern(options.library_ref);
    EvidenceJoin join(*store, items, sorted,
                      {library_ref, audit.version_nodes_mark_stability, deprecated_node_in(library),
                       audit.archive_sections_mark_stability, deprecated_section});
    for (std::size_t i = 0; i < items.size();) {
        SymbolVerdict verdict = join.next(i);
        decide(verdict);
        tally(verdict, audit);
    }
    audit.store = std::move(store);
    return audit;
}

}  // namespace rdmi
