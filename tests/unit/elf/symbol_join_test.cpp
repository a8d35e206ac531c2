// classify()'s join of exports, declarations and runtime evidence by name: the order of the
// verdicts, the order of each verdict's evidence, and the life of the texts the verdicts view.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "elf/symbol_audit.hpp"
#include "fixture_libs.hpp"
#include "unit/elf/fixture_audit.hpp"

namespace rdmi {
namespace {

using test::exported_function;

// The declaration views `name` and `file`, as one from scan_header() views the header.
HeaderDecl declared(std::string_view name, std::string_view file, std::size_t line,
                    Annotation annotation = Annotation::experimental) {
    HeaderDecl d;
    d.name = name;
    d.annotation = annotation;
    d.macro = annotation == Annotation::experimental ? "DOCA_EXPERIMENTAL" : "DOCA_STABLE";
    d.file = file;
    d.line = line;
    return d;
}

ElfImage library_with(std::vector<ElfSymbol> symbols) {
    ElfImage image;
    image.kind = ElfKind::shared_object;
    image.version_defs = {{1, "libdoca_t.so.1", true, false, {}},
                          {2, "DOCA_1.0", false, false, {}},
                          {3, "EXPERIMENTAL", false, false, {}}};
    image.dynamic_symbols = std::move(symbols);
    return image;
}

const ClassifyOptions kOptions{"doca_t_", "libdoca_t.so.1", ""};

std::vector<std::string> names_of(const LibraryAudit& audit) {
    std::vector<std::string> names;
    for (const auto& v : audit.symbols) names.emplace_back(v.name);
    return names;
}

}  // namespace

TEST_CASE("classify orders verdicts as std::string does, whatever prefix the names share") {
    // Names equal for 8 bytes after their common prefix and longer, one name the prefix of
    // another, bytes above 0x7f (compared unsigned), and more than one digit per key pass.
    const std::vector<std::string> names = {
        "doca_t_connection_create_with_attributes_b",
        "doca_t_connection_create_with_attributes_a",
        "doca_t_connection_create",
        "doca_t_connection",
        "doca_t_connectio",
        "doca_t_z",
        "doca_t_\xc3\xa9t\xc3\xa9",
        "doca_t_A",
        "doca_t_",
        "doca_t_connection_create_with_attributes",
        "doca_t_poster_post_1",
        "doca_t_poster_post_10",
        "doca_t_poster_post_2",
    };
    std::vector<ElfSymbol> symbols;
    for (const auto& n : names) symbols.push_back(exported_function(n, "DOCA_1.0"));
    // Declared in reverse: the join does not depend on the order of either side.
    std::vector<HeaderDecl> decls;
    for (auto it = names.rbegin(); it != names.rend(); ++it)
        decls.push_back(declared(*it, "t.h", 1, Annotation::stable));
    const auto audit = classify(library_with(symbols), {}, decls, {}, kOptions);

    const std::set<std::string> expected(names.begin(), names.end());
    CHECK(names_of(audit) == std::vector<std::string>(expected.begin(), expected.end()));
    for (const auto& v : audit.symbols) {
        CHECK_MESSAGE(v.exported, v.name);
        CHECK_MESSAGE(v.declared, v.name);
        CHECK(v.evidence.size() == 2);
    }
    CHECK(audit.exported_not_declared.empty());
    CHECK(audit.declared_not_exported.empty());
}

TEST_CASE("classify orders a short and a long list alike (comparison sort, radix sort)") {
    // Below 1,024 items the names are compared as text; from there they are radix-sorted on a
    // key. The same awkward names, alone and among 1,100 others, come out in std::string order.
    const std::vector<std::string> awkward = {"doca_t_b_10", "doca_t_b_1", "doca_t_\xff",
                                              "doca_t_b",    "doca_t_",    "doca_t_b_2",
                                              "doca_t_b_1x", "doca_t_B"};
    for (const std::size_t padding : {std::size_t{0}, std::size_t{1100}}) {
        CAPTURE(padding);
        std::vector<std::string> names = awkward;
        for (std::size_t i = 0; i < padding; ++i)
            names.push_back("doca_t_pad_" + std::to_string((i * 7919) % 100003));
        std::vector<ElfSymbol> symbols;
        for (const auto& n : names) symbols.push_back(exported_function(n, "DOCA_1.0"));
        const auto audit = classify(library_with(symbols), {}, {}, {}, kOptions);
        const std::set<std::string> expected(names.begin(), names.end());
        CHECK(names_of(audit) == std::vector<std::string>(expected.begin(), expected.end()));
    }
}

TEST_CASE("classify keeps one verdict per name, its versions and evidence in source order") {
    // doca_t_a in two version nodes (the default EXPERIMENTAL, the older DOCA_1.0 kept for old
    // binaries), declared in two headers; doca_t_b unversioned and undeclared; doca_t_c only
    // declared; doca_u_x outside the prefix.
    const auto image =
        library_with({exported_function("doca_t_b"), exported_function("doca_t_a", "EXPERIMENTAL"),
                      exported_function("doca_u_x", "DOCA_1.0"),
                      exported_function("doca_t_a", "DOCA_1.0", true)});
    const std::vector<HeaderDecl> decls = {declared("doca_t_c", "c.h", 2),
                                           declared("doca_t_a", "a.h", 3),
                                           declared("doca_t_a", "b.h", 7, Annotation::stable)};
    const auto audit = classify(image, {}, decls, {}, kOptions);

    CHECK(names_of(audit) == std::vector<std::string>{"doca_t_a", "doca_t_b", "doca_t_c"});
    const auto& a = *audit.find("doca_t_a");
    CHECK(std::vector<std::string_view>(a.versions.begin(), a.versions.end()) ==
          std::vector<std::string_view>{"@@EXPERIMENTAL", "@DOCA_1.0"});
    REQUIRE(a.evidence.size() == 4);
    CHECK(a.evidence[0].source == EvidenceSource::version_node);
    CHECK(a.evidence[0].says == Stability::experimental);
    CHECK(a.evidence[0].detail == "EXPERIMENTAL");
    CHECK(a.evidence[0].ref == "libdoca_t.so.1");
    CHECK(a.evidence[1].says == Stability::unknown);
    CHECK(a.evidence[1].detail == "DOCA_1.0 (non-default @, for binaries linked earlier)");
    CHECK(a.evidence[2].ref == "a.h:3");
    CHECK(a.evidence[3].ref == "b.h:7");
    CHECK(a.evidence[3].detail == "DOCA_STABLE");
    CHECK(a.stability == Stability::experimental);
    CHECK_FALSE(a.sources_agree);  // b.h says stable

    const auto& b = *audit.find("doca_t_b");
    CHECK(b.exported);
    CHECK_FALSE(b.declared);
    CHECK(std::vector<std::string_view>(b.versions.begin(), b.versions.end()) ==
          std::vector<std::string_view>{""});
    CHECK(b.evidence.empty());
    CHECK(b.stability == Stability::unknown);

    const auto& c = *audit.find("doca_t_c");
    CHECK_FALSE(c.exported);
    CHECK(c.versions.empty());
    CHECK(c.stability == Stability::experimental);

    CHECK(audit.declared_not_exported == std::vector<std::string>{"doca_t_c"});
    CHECK(audit.exported_not_declared == std::vector<std::string>{"doca_t_b"});
    CHECK(audit.disagreements == std::vector<std::string>{"doca_t_a"});
    CHECK(audit.counts.experimental == 2);
    CHECK(audit.counts.unknown == 1);
}

TEST_CASE("classify copies runtime evidence: the verdicts outlive the observations") {
    const auto image = library_with({exported_function("doca_t_a", "EXPERIMENTAL")});
    std::optional<std::vector<SymbolEvidence>> runtime;
    runtime.emplace();
    runtime->push_back({"doca_t_a",
                        {EvidenceSource::runtime, Stability::experimental,
                         std::string("dlvsym(EXPERIMENTAL)"), std::string("/lib/libdoca_t.so.1")}});
    const auto audit = classify(image, {}, {}, *runtime, kOptions);
    runtime.reset();
    const auto& a = *audit.find("doca_t_a");
    REQUIRE(a.evidence.size() == 2);
    CHECK(a.evidence[0].source == EvidenceSource::version_node);
    CHECK(a.evidence[1].source == EvidenceSource::runtime);
    CHECK(a.evidence[1].detail == "dlvsym(EXPERIMENTAL)");
    CHECK(a.evidence[1].ref == "/lib/libdoca_t.so.1");
}

TEST_CASE("a copied image and a copied audit keep their texts after the originals are gone") {
    std::optional<ElfImage> original(test::fixture_image(fixture::kVersionedLib));
    const ElfImage image = *original;
    const std::string first(original->dynamic_symbols.front().name);
    original.reset();
    CHECK(image.dynamic_symbols.front().name == first);

    std::optional<LibraryAudit> audit_original(
        test::classify_fixture(image, {}, test::fixture_header_decls()));
    const LibraryAudit audit = *audit_original;
    const std::string name(audit_original->symbols.front().name);
    const std::string ref(audit_original->symbols.front().evidence.front().ref);
    audit_original.reset();
    REQUIRE(audit.find(name) != nullptr);
    CHECK(audit.find(name)->evidence.front().ref == ref);
}

TEST_CASE("an audit keeps the names it views after the image and the headers are gone") {
    // Exported names view the image's text (the audit keeps it), declared-only names the
    // header's (the audit copies them), header refs neither.
    std::optional<ElfImage> image(test::fixture_image(fixture::kVersionedLib));
    std::optional<std::string> header(
        "DOCA_STABLE int doca_rdmi_header_only(void);\nDOCA_STABLE int "
        "doca_rdmi_connection_create(void);\n");
    std::optional<std::string> file("late.h");
    const auto scan = scan_header(*header, *file);
    REQUIRE(scan.decls.size() == 2);
    const LibraryAudit audit = test::classify_fixture(*image, {}, scan.decls);
    std::vector<std::string> names;
    for (const auto& v : audit.symbols) names.emplace_back(v.name);
    image.reset();
    header.reset();
    file.reset();
    REQUIRE(names.size() == audit.symbols.size());
    for (std::size_t i = 0; i < names.size(); ++i) CHECK(audit.symbols[i].name == names[i]);
    const auto* only = audit.find("doca_rdmi_header_only");
    REQUIRE(only != nullptr);
    CHECK_FALSE(only->exported);
    CHECK(only->evidence.front().ref == "late.h:1");
    const auto* both = audit.find("doca_rdmi_connection_create");
    REQUIRE(both != nullptr);
    CHECK(both->exported);
    CHECK(both->declared);
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("classify marks a verdict plain_text only when every text of it needs no escaping") {
    // doca_t_a: an identifier in plain texts; doca_t_"q: exported only, a quote in its name;
    // doca_t_v: in a version node whose name holds a backslash; doca_t_f: declared in a header
    // whose file name holds a control byte; doca_t_n: a hand-made declaration (not lexed)
    // whose name holds a quote.
    ElfImage image = library_with({exported_function("doca_t_a", "EXPERIMENTAL"),
                                   exported_function("doca_t_\"q", "EXPERIMENTAL"),
                                   exported_function("doca_t_v", "NODE\\1")});
    const std::string bad_file = std::string("f\x01.h");
    std::vector<HeaderDecl> decls = {declared("doca_t_a", "a.h", 3),
                                     declared("doca_t_f", bad_file, 4),
                                     declared("doca_t_n\"", "a.h", 5)};
    decls[0].identifier = true;
    decls[1].identifier = true;
    const auto audit = classify(image, {}, decls, {}, kOptions);
    CHECK(audit.find("doca_t_a")->plain_text);
    CHECK_FALSE(audit.find("doca_t_\"q")->plain_text);
    CHECK_FALSE(audit.find("doca_t_v")->plain_text);
    CHECK_FALSE(audit.find("doca_t_f")->plain_text);
    CHECK_FALSE(audit.find("doca_t_n\"")->plain_text);
    SUBCASE("an exported name without a declaration is checked by itself") {
        const auto exported_only =
            classify(library_with({exported_function("doca_t_b")}), {}, {}, {}, kOptions);
        CHECK(exported_only.find("doca_t_b")->plain_text);
    }
}

}  // namespace rdmi
