// Tests for the symbols probe on fixture roots, prefixes and libraries: static audit, loader
// prediction against the libdir, runtime evidence, trust refusal, malformed input, --check.
#include "probes/symbols/symbols.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "fixture_libs.hpp"
#include "os/rooted_fs.hpp"
#include "probes/symbols/symbols_parts.hpp"
#include "support/native_arch.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

std::string fixture_dir(const std::string& kind, const std::string& scenario) {
    return std::string(RDMI_TEST_FIXTURES_DIR) + "/" + kind + "/" + scenario;
}

spdlog::logger& null_logger() {
    static spdlog::logger logger("test", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

struct Audit {
    RootedFs fs;
    MapEnv env;
    Result<SymbolsFacts> facts = Gap{};

    explicit Audit(const std::string& root, const SymbolsRequest& request,
                   std::optional<std::string> prefix = std::nullopt, MapEnv environment = {})
        : fs(RootedFs::open(root).value()), env(std::move(environment)) {
        ProbeContext ctx{fs, env, null_logger(), Deadline(20s), 10s, std::move(prefix), false};
        facts = probe_symbols(ctx, request);
    }

    [[nodiscard]] const SymbolsFacts& ok() const {
        REQUIRE_MESSAGE(facts.ok(), (facts.ok() ? "" : facts.gap().message));
        return *facts;
    }
};

const Check& check(const SymbolsFacts& facts, const std::string& id) {
    for (const auto& c : facts.checks) {
        if (c.id == id) return c;
    }
    FAIL("no check " << id);
    throw std::logic_error("unreachable");
}

SymbolsRequest lib_request(const std::string& path, const std::string& headers = {}) {
    SymbolsRequest request;
    request.library = path;
    request.headers_dir = headers;
    return request;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

TEST_CASE("default audit of doca-rdmi on a complete root is static and complete") {
    Audit audit(fixture_dir("roots", "complete-3.3"), {});
    const auto& facts = audit.ok();
    CHECK(facts.module == "doca-rdmi");
    CHECK(facts.module_version == "3.3.0105");
    CHECK(facts.library.path == "/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so");
    CHECK(facts.library.real_path ==
          "/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3.3.0105");
    CHECK(facts.library.soname == "libdoca_rdmi.so.3");
    CHECK(facts.audit.prefix == "doca_rdmi_");
    CHECK(facts.audit.counts.experimental == 17);
    CHECK(facts.audit.counts.unknown == 0);
    CHECK(facts.audit.declared_not_exported.empty());
    CHECK(facts.audit.disagreements.empty());
    CHECK(facts.skipped_headers.size() == 3);
    CHECK_FALSE(facts.runtime.loaded);
    REQUIRE(facts.runtime.gap);
    CHECK(facts.runtime.gap->reason == GapReason::not_applicable);
    REQUIRE(facts.loader);
    CHECK_FALSE(facts.loader->ld_library_path_used);
    CHECK_FALSE(facts.loader->prediction.path);
    CHECK(check(facts, "symbols-exported").status == Status::pass);
    CHECK(check(facts, "loader-path").status == Status::info);
    CHECK(check(facts, "symbols-runtime").status == Status::info);
}

TEST_CASE("a library outside any DOCA prefix default: headers-only stability when unversioned") {
    Audit bare(fixture_dir("libs", "unversioned"), lib_request("/libdoca_rdmi.so"));
    CHECK(bare.ok().audit.counts.unknown == bare.ok().audit.symbols.size());
    Audit headed("/", lib_request(fixture::kUnversionedLib, fixture::kHeadersDir));
    const auto& facts = headed.ok();
    CHECK(facts.audit.counts.experimental == 19);
    CHECK(facts.audit.counts.deprecated == 1);
    CHECK(facts.audit.counts.unknown == 0);
}

TEST_CASE("the mismatch fixture lists what will not link, the undeclared and the disagreements") {
    Audit audit("/", lib_request(fixture::kMismatchLib, fixture::kHeadersDir));
    const auto& facts = audit.ok();
    CHECK(facts.audit.declared_not_exported == std::vector<std::string>{"doca_rdmi_poster_post"});
    CHECK(facts.audit.exported_not_declared ==
          std::vector<std::string>{"doca_rdmi_connection_debug_dump"});
    CHECK(facts.audit.disagreements.size() == 2);
    CHECK(check(facts, "symbols-exported").status == Status::fail);
    CHECK(check(facts, "symbols-exported").message.find("doca_rdmi_poster_post") !=
          std::string::npos);
    CHECK(check(facts, "symbols-agreement").status == Status::info);
}

TEST_CASE("live: the runtime evidence joins the static one and agrees") {
    Audit audit("/", lib_request(fixture::kVersionedLib, fixture::kHeadersDir));
    const auto& facts = audit.ok();
    REQUIRE(facts.runtime.loaded);
    CHECK(facts.runtime.resolved == 24);
    CHECK(facts.runtime.unresolved.empty());
    const auto* create = facts.audit.find("doca_rdmi_connection_create");
    REQUIRE(create != nullptr);
    CHECK(create->stability == Stability::experimental);
    CHECK(create->sources_agree);
    CHECK(std::any_of(create->evidence.begin(), create->evidence.end(), [](const Evidence& e) {
        return e.source == EvidenceSource::runtime && e.detail == "dlvsym(EXPERIMENTAL)";
    }));
    CHECK(check(facts, "symbols-runtime").status == Status::pass);
}

TEST_CASE("built against 3.3, runs against 3.2: the loader-vs-libdir finding names both files") {
    // Prefixes with libraries of the machine this test runs as: the 3.2 one is really loaded.
    const std::string old_libdir = fixture_dir("native-prefixes", "complete-3.2") + "/lib/" +
                                   std::string(test::kNativeTriplet);
    MapEnv env({{"LD_LIBRARY_PATH", old_libdir}});
    Audit audit("/", {}, fixture_dir("native-prefixes", "complete-3.3"), env);
    const auto& facts = audit.ok();
    REQUIRE(facts.loader);
    CHECK(facts.loader->ld_library_path_used);
    CHECK(facts.loader->other_file);
    CHECK(facts.loader->prediction.source == LoaderSource::ld_library_path);
    CHECK(facts.loader->predicted_real_path == old_libdir + "/libdoca_rdmi.so.3.2.1025");
    const Check& loader = check(facts, "loader-path");
    CHECK(loader.status == Status::fail);
    CHECK(loader.message.find(old_libdir + "/libdoca_rdmi.so.3.2.1025") != std::string::npos);
    CHECK(loader.message.find(facts.library.real_path) != std::string::npos);
    REQUIRE(facts.runtime.loaded);
    CHECK(facts.runtime.loaded_path.find("complete-3.2") != std::string::npos);

    SUBCASE("the same LD_LIBRARY_PATH on the 3.2 install itself is no finding") {
        Audit same("/", {}, fixture_dir("native-prefixes", "complete-3.2"), env);
        CHECK_FALSE(same.ok().loader->other_file);
        CHECK(check(same.ok(), "loader-path").status == Status::pass);
    }
    SUBCASE("under --root the host's LD_LIBRARY_PATH is ignored") {
        Audit rooted(fixture_dir("roots", "complete-3.3"), {}, std::nullopt, env);
        CHECK_FALSE(rooted.ok().loader->ld_library_path_used);
        CHECK_FALSE(rooted.ok().loader->other_file);
    }
}

TEST_CASE("a library in a group-writable directory is audited statically, never loaded") {
    test::TempTree tree;
    tree.mkdir("/shared", 0775);
    std::filesystem::copy_file(fixture::kVersionedLib, tree.host("/shared/libdoca_rdmi.so.3"));
    Audit audit("/", lib_request(tree.host("/shared/libdoca_rdmi.so.3")));
    const auto& facts = audit.ok();
    CHECK_FALSE(facts.runtime.loaded);
    REQUIRE(facts.runtime.gap);
    CHECK(facts.runtime.gap->reason == GapReason::untrusted);
    CHECK(facts.runtime.gap->message.find("writable by its group") != std::string::npos);
    CHECK(facts.audit.counts.experimental == 19);
    CHECK(check(facts, "symbols-runtime").status == Status::info);
}

TEST_CASE("unreadable input is a gap naming the file") {
    test::TempTree tree;
    const std::string bytes = [] {
        auto fs = RootedFs::open("/");
        return fs->read_file(fixture::kVersionedLib, kMaxElfBytes).value();
    }();
    tree.write("/cut/libdoca_rdmi.so", bytes.substr(0, 200));
    tree.write("/empty/libdoca_rdmi.so", "");
    tree.mkdir("/dir/libdoca_rdmi.so");
    tree.write("/obj/libdoca_rdmi.so", [] {
        auto fs = RootedFs::open("/");
        return fs->read_file(fixture::kAppObject, kMaxElfBytes).value();
    }());
    for (const char* path : {"/cut/libdoca_rdmi.so", "/empty/libdoca_rdmi.so",
                             "/dir/libdoca_rdmi.so", "/obj/libdoca_rdmi.so", "/none.so"}) {
        CAPTURE(path);
        Audit audit(tree.root(), lib_request(path));
        REQUIRE_FALSE(audit.facts.ok());
        CHECK(audit.facts.gap().message.rfind(path, 0) == 0);
    }
    SUBCASE("an unreadable application too") {
        SymbolsRequest request = lib_request(fixture::kVersionedLib);
        request.application = tree.host("/cut/libdoca_rdmi.so");
        Audit audit("/", request);
        REQUIRE_FALSE(audit.facts.ok());
        CHECK(audit.facts.gap().reason == GapReason::malformed);
    }
    SUBCASE("an explicit --headers dir that does not exist") {
        Audit audit("/", lib_request(fixture::kVersionedLib, tree.host("/no-headers")));
        REQUIRE_FALSE(audit.facts.ok());
        CHECK(audit.facts.gap().reason == GapReason::not_found);
    }
    SUBCASE("a missing module") {
        SymbolsRequest request;
        request.module = "doca-nothing";
        Audit audit(fixture_dir("roots", "complete-3.3"), request);
        REQUIRE_FALSE(audit.facts.ok());
        CHECK(audit.facts.gap().message.find("doca-nothing") != std::string::npos);
    }
}

TEST_CASE("--check: allow-list, missing symbols against the older library") {
    SymbolsRequest request = lib_request(fixture::kVersionedLib);
    request.application = fixture::kAppExecutable;
    SUBCASE("nothing accepted: the experimental calls fail the gate") {
        Audit audit("/", request);
        const auto& facts = audit.ok();
        REQUIRE(facts.app);
        CHECK(facts.app->unaccepted_experimental.size() == 4);
        CHECK(check(facts, "app-experimental").status == Status::fail);
        CHECK(check(facts, "app-resolves").status == Status::pass);
    }
    SUBCASE("all accepted") {
        request.accepted_experimental = {"doca_rdmi_connection_create",
                                         "doca_rdmi_connection_get_app_rq_info",
                                         "doca_rdmi_poster_create", "doca_rdmi_poster_post"};
        Audit audit("/", request);
        CHECK(check(audit.ok(), "app-experimental").status == Status::pass);
    }
    SUBCASE("the older library lacks a call and the DOCA_3.3 node") {
        request.library = fixture::kOlderLib;
        Audit audit("/", request);
        const auto& facts = audit.ok();
        CHECK(contains(facts.app->missing, "doca_rdmi_connection_get_app_rq_info"));
        CHECK(facts.app->missing_versions ==
              std::vector<std::string>{"libdoca_rdmi.so.3:DOCA_3.3"});
        CHECK(check(facts, "app-resolves").status == Status::fail);
    }
}

TEST_CASE("--check: names whose stability nothing marks leave app-experimental unjudged") {
    // An unversioned library and no headers: the archive's six doca_* needs all resolve, but
    // any of them may be experimental.
    SymbolsRequest request = lib_request(fixture::kUnversionedLib);
    request.application = fixture::kAppArchive;
    SUBCASE("no evidence: skip, naming the names") {
        Audit audit("/", request);
        const Check experimental = check(audit.ok(), "app-experimental");
        CHECK(check(audit.ok(), "app-resolves").status == Status::pass);
        CHECK(experimental.status == Status::skip);
        CHECK(experimental.message.rfind("cannot be checked: 6 dependencies with no stability "
                                         "evidence (no version nodes, sections or header "
                                         "annotations): doca_rdmi_abi_version, ",
                                         0) == 0);
        CHECK(experimental.remediation.find("headers") != std::string::npos);
    }
    SUBCASE("no evidence, but the allow-list accepts them all: pass") {
        request.accepted_experimental = {
            "doca_rdmi_abi_version",        "doca_rdmi_connection_create",
            "doca_rdmi_connection_destroy", "doca_rdmi_connection_get_app_rq_info",
            "doca_rdmi_poster_create",      "doca_rdmi_poster_post"};
        Audit audit("/", request);
        const Check experimental = check(audit.ok(), "app-experimental");
        CHECK(experimental.status == Status::pass);
        CHECK(experimental.message ==
              "0 experimental dependencies, all accepted; 6 with no stability evidence, "
              "accepted by the allow-list");
    }
    SUBCASE("no evidence, some accepted: skip, naming only the others") {
        request.accepted_experimental = {"doca_rdmi_abi_version", "doca_rdmi_poster_post"};
        Audit audit("/", request);
        const Check experimental = check(audit.ok(), "app-experimental");
        CHECK(experimental.status == Status::skip);
        CHECK(experimental.message ==
              "cannot be checked: 4 dependencies with no stability evidence (no version nodes, "
              "sections or header annotations): doca_rdmi_connection_create, "
              "doca_rdmi_connection_destroy, doca_rdmi_connection_get_app_rq_info, "
              "doca_rdmi_poster_create");
    }
    SUBCASE("the headers mark them: judged, and the experimental calls fail") {
        request.headers_dir = fixture::kHeadersDir;
        Audit audit("/", request);
        CHECK(check(audit.ok(), "app-experimental").status == Status::fail);
    }
    SUBCASE("the headers mark them and every experimental call is accepted: pass") {
        request.headers_dir = fixture::kHeadersDir;
        request.accepted_experimental = {"doca_rdmi_connection_create",
                                         "doca_rdmi_connection_get_app_rq_info",
                                         "doca_rdmi_poster_create", "doca_rdmi_poster_post"};
        Audit audit("/", request);
        CHECK(check(audit.ok(), "app-experimental").status == Status::pass);
    }
}

TEST_CASE("runtime evidence: dlvsym(EXPERIMENTAL) decides, a default outside it says stable") {
    RuntimeResolution resolution;
    resolution.loaded_path = "/lib/libx.so.3";
    resolution.symbols = {{"exp", true, {"EXPERIMENTAL"}, {}, "/lib/libx.so.3"},
                          {"promoted", true, {}, {"EXPERIMENTAL"}, "/lib/libx.so.3"},
                          {"old", true, {"DEPRECATED"}, {}, "/lib/libx.so.3"},
                          {"gone", false, {}, {}, ""}};
    auto evidence = symbols::runtime_evidence(resolution, {"EXPERIMENTAL", "DEPRECATED"});
    REQUIRE(evidence.size() == 4);
    CHECK(evidence[0].evidence.says == Stability::experimental);
    CHECK(evidence[0].evidence.ref == "/lib/libx.so.3");
    CHECK(evidence[1].evidence.says == Stability::stable);
    CHECK(evidence[1].evidence.detail.find("also in EXPERIMENTAL") != std::string::npos);
    CHECK(evidence[2].evidence.says == Stability::deprecated);
    CHECK(evidence[3].evidence.says == Stability::unknown);
    CHECK(evidence[3].evidence.detail == "dlsym: not found");

    SUBCASE("a library without an EXPERIMENTAL node: dlsym alone says nothing") {
        auto plain = symbols::runtime_evidence(resolution, {});
        CHECK(plain[1].evidence.says == Stability::unknown);
        CHECK_FALSE(plain[1].evidence.can_say_deprecated);
    }
}

TEST_CASE("library names and default prefixes") {
    ModuleFacts module;
    module.name = "doca-rdmi";
    module.library_names = {"doca_common", "doca_rdmi", "doca_verbs"};
    CHECK(module_library_name(module) == "doca_rdmi");
    module.library_names = {"foo"};
    CHECK(module_library_name(module) == "foo");
    module.library_names.clear();
    CHECK(module_library_name(module) == "doca_rdmi");
    CHECK(default_symbol_prefix("doca_rdmi") == "doca_rdmi_");
    CHECK(default_symbol_prefix("z").empty());
}

TEST_CASE("loader-path is a failure for a module, information for --lib") {
    SymbolsFacts facts;
    facts.library.path = "/a/libx.so";
    facts.library.real_path = "/a/libx.so.3.3";
    facts.library.soname = "libx.so.3";
    LoaderFacts loader;
    loader.prediction.soname = "libx.so.3";
    loader.prediction.path = "/b/libx.so.3";
    loader.prediction.source = LoaderSource::ld_so_cache;
    loader.predicted_real_path = "/b/libx.so.3.2";
    loader.other_file = true;
    facts.loader = loader;
    auto checks = symbols_checks(facts);
    auto find = [&](const std::string& id) {
        return *std::find_if(checks.begin(), checks.end(),
                             [&](const Check& c) { return c.id == id; });
    };
    CHECK(find("loader-path").status == Status::info);
    CHECK(find("loader-path").message.find("/b/libx.so.3.2") != std::string::npos);
    facts.module = "doca-x";
    checks = symbols_checks(facts);
    CHECK(find("loader-path").status == Status::fail);
    CHECK_FALSE(find("loader-path").remediation.empty());
    CHECK(find("symbols-exported").status == Status::info);
}

TEST_CASE("the report's ids: the same checks under the rdmi- entries, made there, not renamed") {
    SymbolsFacts facts;
    facts.library.path = "/a/libx.so";
    facts.module = "doca-rdmi";
    LoaderFacts loader;
    loader.prediction.path = "/a/libx.so";
    facts.loader = loader;
    const auto plain = symbols_checks(facts);
    const auto rdmi = symbols_checks(facts, kRdmiSymbolsCheckIds);
    REQUIRE(plain.size() == rdmi.size());
    const std::vector<std::string> ids{"rdmi-symbols-exported", "rdmi-symbols-stability",
                                       "rdmi-symbols-agreement", "rdmi-loader-path",
                                       "rdmi-symbols-runtime"};
    REQUIRE(rdmi.size() == ids.size());
    for (std::size_t i = 0; i < rdmi.size(); ++i) {
        CHECK(rdmi[i].id == ids[i]);
        CHECK(plain[i].id.str() == ids[i].substr(5));
        CHECK(rdmi[i].status == plain[i].status);
        CHECK(rdmi[i].message == plain[i].message);
    }
}

TEST_CASE("declared but not exported by a library of the same release: not a mixed install") {
    SymbolsFacts facts;
    facts.module = "doca-rdmi";
    facts.module_version = "3.3.0047";
    facts.library.path = "/opt/lib/libdoca_rdmi.so";
    facts.library.real_path = "/opt/lib/libdoca_rdmi.so.3.3.0047";
    facts.library.soname = "libdoca_rdmi.so.3";
    facts.audit.headers_scanned = true;
    facts.audit.declared_not_exported = {"doca_rdmi_connection_get_app_rq_info"};
    SymbolVerdict verdict;
    verdict.name = "doca_rdmi_connection_get_app_rq_info";
    verdict.declared = true;
    const std::vector<Evidence> evidence{{EvidenceSource::header, Stability::experimental,
                                          "DOCA_EXPERIMENTAL", "doca_rdmi_connection.h:212", true}};
    verdict.evidence = evidence;
    facts.audit.symbols = {verdict};
    auto exported = [&] {
        const auto checks = symbols_checks(facts);
        const auto it = std::find_if(checks.begin(), checks.end(),
                                     [](const Check& c) { return c.id == "symbols-exported"; });
        REQUIRE(it != checks.end());
        return *it;
    };
    Check same = exported();
    CHECK(same.status == Status::fail);
    CHECK(same.message.find("doca_rdmi_connection_get_app_rq_info (doca_rdmi_connection.h:212)") !=
          std::string::npos);
    CHECK(same.remediation.find("different DOCA releases") == std::string::npos);
    CHECK(same.remediation ==
          "the library is older than its header (header: DOCA 3.3.0047; "
          "libdoca_rdmi.so.3: DOCA 3.3.0047): the header declares what this release does not "
          "implement; do not call doca_rdmi_connection_get_app_rq_info on DOCA 3.3.0047 (wait "
          "for a release whose library exports it)");
    // An older library under a newer header: the same words, with both releases.
    facts.library.real_path = "/opt/lib/libdoca_rdmi.so.3.2.1025";
    CHECK(exported().remediation ==
          "the library is older than its header (header: DOCA 3.3.0047; "
          "libdoca_rdmi.so.3: DOCA 3.2.1025): install the library of the headers' release "
          "(reinstall the module's packages at one version), or do not call "
          "doca_rdmi_connection_get_app_rq_info");
    // Only a library newer than its header is a mixed install the other way round.
    facts.library.real_path = "/opt/lib/libdoca_rdmi.so.3.4.0010";
    CHECK(exported().remediation.find("different DOCA releases") != std::string::npos);
}

TEST_CASE("sources that disagree: the binary's classification wins and the rule is stated") {
    SymbolsFacts facts;
    facts.library.path = "/opt/lib/libdoca_rdmi.so";
    facts.audit.disagreements = {"doca_rdmi_poster_post"};
    SymbolVerdict verdict;
    verdict.name = "doca_rdmi_poster_post";
    verdict.stability = Stability::experimental;
    verdict.sources_agree = false;
    const std::vector<Evidence> evidence{
        {EvidenceSource::header, Stability::stable, "DOCA_STABLE", "doca_rdmi_poster.h:40", true},
        {EvidenceSource::version_node, Stability::experimental, "EXPERIMENTAL", "libdoca_rdmi.so.3",
         true}};
    verdict.evidence = evidence;
    facts.audit.symbols = {verdict};
    for (const auto& c : symbols_checks(facts)) {
        if (c.id != "symbols-agreement") continue;
        CHECK(c.status == Status::info);
        CHECK(c.message.find("doca_rdmi_poster_post is experimental though its header says "
                             "DOCA_STABLE") != std::string::npos);
        CHECK(c.message.find("decides what the loader binds") != std::string::npos);
        CHECK(c.remediation.find("ship as the binary says") != std::string::npos);
    }
}

}  // namespace rdmi
