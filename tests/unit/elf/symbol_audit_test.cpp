// Tests for classify(): every combination of the three stability sources over real fixtures.
#include "elf/symbol_audit.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "unit/elf/fixture_audit.hpp"

namespace rdmi {
namespace {

const SymbolVerdict& verdict(const LibraryAudit& audit, std::string_view name) {
    const auto* v = audit.find(name);
    REQUIRE_MESSAGE(v != nullptr, name);
    return *v;
}

const Evidence* evidence_from(const SymbolVerdict& v, EvidenceSource source) {
    for (const auto& e : v.evidence) {
        if (e.source == source) return &e;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("classify: versioned library and headers agree on every symbol") {
    const auto library = test::fixture_image(fixture::kVersionedLib);
    const auto audit = test::classify_fixture(library, {}, test::fixture_header_decls());
    CHECK(audit.prefix == "doca_rdmi_");
    CHECK(audit.version_nodes_mark_stability);
    CHECK(audit.version_nodes == std::vector<std::string>{"DOCA_3.3", "EXPERIMENTAL"});
    CHECK(audit.headers_scanned);
    CHECK(audit.symbols.size() == 24);
    CHECK(audit.counts.experimental == 19);
    CHECK(audit.counts.stable == 4);
    CHECK(audit.counts.deprecated == 1);
    CHECK(audit.counts.unknown == 0);
    CHECK(audit.disagreements.empty());
    CHECK(audit.declared_not_exported.empty());
    CHECK(audit.exported_not_declared.empty());
    CHECK(std::is_sorted(audit.symbols.begin(), audit.symbols.end(),
                         [](const auto& a, const auto& b) { return a.name < b.name; }));

    const auto& create = verdict(audit, "doca_rdmi_connection_create");
    CHECK(create.stability == Stability::experimental);
    CHECK(create.exported);
    CHECK(create.declared);
    CHECK(create.sources_agree);
    CHECK(create.type == SymbolType::func);
    CHECK(std::vector<std::string_view>(create.versions.begin(), create.versions.end()) ==
          std::vector<std::string_view>{"@@EXPERIMENTAL"});
    const auto* header = evidence_from(create, EvidenceSource::header);
    REQUIRE(header != nullptr);
    CHECK(header->ref == "doca_rdmi_connection.h:42");
    CHECK(header->detail == "DOCA_EXPERIMENTAL");
    const auto* node = evidence_from(create, EvidenceSource::version_node);
    REQUIRE(node != nullptr);
    CHECK(node->detail == "EXPERIMENTAL");
    CHECK(node->ref == "libdoca_rdmi.so.3");
    CHECK(node->says == Stability::experimental);

    CHECK(verdict(audit, "doca_rdmi_connection_destroy").stability == Stability::stable);
    CHECK(verdict(audit, "doca_rdmi_poster_destroy").stability == Stability::stable);
    const auto& data = verdict(audit, "doca_rdmi_abi_version");
    CHECK(data.stability == Stability::stable);
    CHECK(data.type == SymbolType::object);
    // A release node cannot say "deprecated"; the header's DOCA_DEPRECATED refines it.
    const auto& old = verdict(audit, "doca_rdmi_poster_get_max_num_cqe");
    CHECK(old.stability == Stability::deprecated);
    CHECK(old.sources_agree);
    CHECK(evidence_from(old, EvidenceSource::version_node)->says == Stability::stable);
    CHECK(audit.find("rdmi_fixture_internal_helper") == nullptr);
    CHECK(audit.find("doca_rdmi_nonexistent") == nullptr);
}

TEST_CASE("classify: the binary alone, without headers, still knows experimental from stable") {
    const auto library = test::fixture_image(fixture::kVersionedLib);
    const auto audit = test::classify_fixture(library, {}, {});
    CHECK_FALSE(audit.headers_scanned);
    CHECK(audit.exported_not_declared.empty());  // meaningless without headers
    CHECK(audit.counts.experimental == 19);
    CHECK(audit.counts.stable == 5);  // the deprecated one is "stable" to the binary
    CHECK(verdict(audit, "doca_rdmi_poster_get_max_num_cqe").stability == Stability::stable);
}

TEST_CASE("classify: header and binary disagree; lists of undeclared and unexported names") {
    const auto library = test::fixture_image(fixture::kMismatchLib);
    const auto audit = test::classify_fixture(library, {}, test::fixture_header_decls());
    CHECK(audit.disagreements ==
          std::vector<std::string>{"doca_rdmi_connection_recv_ack", "doca_rdmi_poster_destroy"});
    CHECK(audit.declared_not_exported == std::vector<std::string>{"doca_rdmi_poster_post"});
    CHECK(audit.exported_not_declared ==
          std::vector<std::string>{"doca_rdmi_connection_debug_dump"});
    // The version node (the loader's own signal) wins; the disagreement stays visible.
    const auto& ack = verdict(audit, "doca_rdmi_connection_recv_ack");
    CHECK(ack.stability == Stability::stable);
    CHECK_FALSE(ack.sources_agree);
    CHECK(evidence_from(ack, EvidenceSource::header)->says == Stability::experimental);
    const auto& destroy = verdict(audit, "doca_rdmi_poster_destroy");
    CHECK(destroy.stability == Stability::experimental);
    CHECK_FALSE(destroy.sources_agree);
    // Declared, not exported: the header alone decides, and it is listed.
    const auto& post = verdict(audit, "doca_rdmi_poster_post");
    CHECK_FALSE(post.exported);
    CHECK(post.stability == Stability::experimental);
    const auto& dump = verdict(audit, "doca_rdmi_connection_debug_dump");
    CHECK(dump.stability == Stability::experimental);
    CHECK_FALSE(dump.declared);
}

TEST_CASE("classify: no version script, so stability comes from headers or is unknown") {
    const auto library = test::fixture_image(fixture::kUnversionedLib);
    const auto with_headers = test::classify_fixture(library, {}, test::fixture_header_decls());
    CHECK(with_headers.version_nodes.empty());
    CHECK_FALSE(with_headers.version_nodes_mark_stability);
    CHECK(with_headers.counts.experimental == 19);
    CHECK(with_headers.counts.stable == 4);
    CHECK(with_headers.counts.deprecated == 1);
    CHECK(with_headers.disagreements.empty());
    const auto& create = verdict(with_headers, "doca_rdmi_connection_create");
    CHECK(std::vector<std::string_view>(create.versions.begin(), create.versions.end()) ==
          std::vector<std::string_view>{""});
    CHECK(evidence_from(create, EvidenceSource::version_node) == nullptr);

    const auto bare = test::classify_fixture(library, {}, {});
    CHECK(bare.counts.unknown == 24);
    CHECK(bare.counts.experimental + bare.counts.stable + bare.counts.deprecated == 0);
    for (const auto& v : bare.symbols) CHECK(v.evidence.empty());
}

TEST_CASE("classify: a release-only version map says nothing about stability") {
    // The older fixture read as if it lacked EXPERIMENTAL: strip that node from the image.
    auto library = test::fixture_image(fixture::kOlderLib);
    std::erase_if(library.version_defs,
                  [](const VersionDef& d) { return d.name == "EXPERIMENTAL"; });
    for (auto& s : library.dynamic_symbols) {
        if (s.version == "EXPERIMENTAL") s.version = "DOCA_3.2";
    }
    const auto audit = test::classify_fixture(library, {}, {});
    CHECK_FALSE(audit.version_nodes_mark_stability);
    CHECK(audit.counts.unknown == static_cast<int>(audit.symbols.size()));
    const auto* node =
        evidence_from(verdict(audit, "doca_rdmi_connection_create"), EvidenceSource::version_node);
    REQUIRE(node != nullptr);
    CHECK(node->says == Stability::unknown);
    CHECK(node->detail.find("says nothing") != std::string::npos);
}

TEST_CASE("classify: static archive sections are evidence of their own") {
    const auto archive = test::fixture_archive();
    const auto audit = test::classify_fixture(ElfImage{}, archive, {});
    CHECK(audit.archive_sections_mark_stability);
    CHECK(audit.counts.experimental == 19);
    CHECK(audit.counts.deprecated == 1);
    CHECK(audit.counts.stable == 4);
    const auto& create = verdict(audit, "doca_rdmi_connection_create");
    CHECK_FALSE(create.exported);
    const auto* section = evidence_from(create, EvidenceSource::section);
    REQUIRE(section != nullptr);
    CHECK(section->detail == ".text.experimental");
    CHECK(section->ref == "libdoca_rdmi.a(doca_rdmi.c.o)");
    CHECK(evidence_from(verdict(audit, "doca_rdmi_poster_get_max_num_cqe"), EvidenceSource::section)
              ->detail == ".text.deprecated");

    // All three sources together agree on the consistent fixture.
    const auto library = test::fixture_image(fixture::kUnversionedLib);
    const auto all = test::classify_fixture(library, archive, test::fixture_header_decls());
    CHECK(all.disagreements.empty());
    CHECK(all.counts.experimental == 19);
    CHECK(verdict(all, "doca_rdmi_connection_create").evidence.size() == 2);
}

TEST_CASE("classify: runtime evidence outranks everything and a disagreement shows") {
    const auto library = test::fixture_image(fixture::kVersionedLib);
    const std::vector<SymbolEvidence> runtime = {
        {"doca_rdmi_connection_destroy",
         {EvidenceSource::runtime, Stability::experimental, "dlvsym(EXPERIMENTAL)",
          "/opt/mellanox/doca/lib/libdoca_rdmi.so.3"}},
        {"other_prefix_symbol", {EvidenceSource::runtime, Stability::stable, "dlsym", "x"}}};
    const auto audit = test::classify_fixture(library, {}, test::fixture_header_decls(), runtime);
    const auto& destroy = verdict(audit, "doca_rdmi_connection_destroy");
    CHECK(destroy.stability == Stability::experimental);
    CHECK_FALSE(destroy.sources_agree);
    CHECK(audit.disagreements == std::vector<std::string>{"doca_rdmi_connection_destroy"});
    CHECK(audit.find("other_prefix_symbol") == nullptr);
}

TEST_CASE("classify: a symbol moved out of EXPERIMENTAL keeps a hidden old version") {
    if (!fixture::kHaveAarch64) return;
    const auto library = test::fixture_image(fixture::kAarch64Lib);
    const auto audit = test::classify_fixture(library, {}, {});
    const auto& ctx = verdict(audit, "doca_rdmi_connection_as_ctx");
    CHECK(ctx.stability == Stability::stable);
    CHECK(ctx.sources_agree);
    REQUIRE(ctx.versions.size() == 2);
    CHECK(std::find(ctx.versions.begin(), ctx.versions.end(), "@EXPERIMENTAL") !=
          ctx.versions.end());
    CHECK(std::find(ctx.versions.begin(), ctx.versions.end(), "@@DOCA_3.3") != ctx.versions.end());
    bool saw_hidden = false;
    for (const auto& e : ctx.evidence)
        saw_hidden = saw_hidden || e.detail.find("non-default") != std::string::npos;
    CHECK(saw_hidden);
    CHECK(verdict(audit, "doca_rdmi_poster_post").stability == Stability::experimental);
}

TEST_CASE("classify: a hidden or internal symbol in .dynsym is no export") {
    // The linker localises STV_HIDDEN and STV_INTERNAL symbols, so a normal .so never has them
    // in .dynsym; a file that does (hand-made, or a broken link) still offers them to nobody.
    auto defined = [](const char* name, SymbolVisibility visibility) {
        ElfSymbol s;
        s.name = name;
        s.type = SymbolType::func;
        s.binding = SymbolBinding::global;
        s.visibility = visibility;
        s.defined = true;
        s.section = ".text";
        return s;
    };
    ElfImage library;
    library.kind = ElfKind::shared_object;
    library.dynamic_symbols = {defined("doca_x_hidden", SymbolVisibility::hidden),
                               defined("doca_x_internal", SymbolVisibility::internal),
                               defined("doca_x_protected", SymbolVisibility::protected_),
                               defined("doca_x_default", SymbolVisibility::default_)};
    const auto audit = classify(library, {}, {}, {}, ClassifyOptions{"doca_x_", "", ""});
    CHECK(audit.find("doca_x_hidden") == nullptr);
    CHECK(audit.find("doca_x_internal") == nullptr);
    CHECK(verdict(audit, "doca_x_protected").exported);
    CHECK(verdict(audit, "doca_x_default").exported);
    CHECK(audit.symbols.size() == 2);
}

TEST_CASE("classify: the prefix filter and empty inputs") {
    const auto library = test::fixture_image(fixture::kVersionedLib);
    const auto posters =
        classify(library, {}, {}, {}, ClassifyOptions{"doca_rdmi_poster_", "", ""});
    CHECK(posters.symbols.size() == 9);
    const auto everything = classify(library, {}, {}, {}, ClassifyOptions{});
    // Everything exported, node marker symbols excluded.
    CHECK(everything.symbols.size() == 24);
    const auto nothing = classify(ElfImage{}, {}, {}, {}, ClassifyOptions{"doca_", "", ""});
    CHECK(nothing.symbols.empty());
    CHECK(to_string(Stability::unknown) == "unknown");
    CHECK(to_string(EvidenceSource::version_node) == "version-node");
}

}  // namespace rdmi
