// Tests for version-matrix.json: shape validation, availability, and the probe's three cases.
#include "probes/version_matrix.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

const char* kEntry = R"({"library": "doca-rdmi", "capability": "c", "display_name": "C",
    "min_doca_version": "3.2.0", "max_doca_version": %MAX%, "source_url": "u",
    "source_quote": "q"})";

std::string matrix_with(const std::string& entry) {
    return R"({"schema_version": "1.0.0", "generated_at": "2025-01-01T00:00:00Z", "entries": [)" +
           entry + "]}";
}

std::string entry_with_max(const std::string& max) {
    std::string e = kEntry;
    e.replace(e.find("%MAX%"), 5, max);
    return e;
}

TEST_CASE("a valid matrix parses") {
    auto m = parse_version_matrix(matrix_with(entry_with_max("null")));
    REQUIRE(m.ok());
    CHECK(m->schema_version == "1.0.0");
    REQUIRE(m->entries.size() == 1);
    CHECK(m->entries[0].min_doca_version == "3.2.0");
    CHECK_FALSE(m->entries[0].max_doca_version.has_value());
    auto bounded = parse_version_matrix(matrix_with(entry_with_max("\"3.3.0\"")));
    REQUIRE(bounded.ok());
    CHECK(bounded->entries[0].max_doca_version == "3.3.0");
}

TEST_CASE("every departure from the contract's shape is malformed, naming where") {
    struct Bad {
        std::string text;
        std::string where;
    };
    std::string no_min = entry_with_max("null");
    no_min.replace(no_min.find(R"("min_doca_version": "3.2.0",)"), 28, "");
    const Bad cases[] = {
        {"[]", "top level"},
        {R"({"generated_at": "x", "entries": []})", "schema_version"},
        {R"({"schema_version": "one", "generated_at": "x", "entries": []})", "/schema_version"},
        {R"({"schema_version": "1.0.0", "generated_at": "x"})", "entries"},
        {R"({"schema_version": "1.0.0", "generated_at": "x", "entries": {}})", "/entries"},
        {R"({"schema_version": "1.0.0", "generated_at": "x", "entries": [], "more": 1})", "/more"},
        // A key is one pointer token: '/' and '~' are escaped (RFC 6901), not taken as a path.
        {R"({"schema_version": "1.0.0", "generated_at": "x", "entries": [], "a/b~": 1})",
         "/a~1b~0: not a field"},
        {matrix_with(no_min), "/entries/0"},
        {matrix_with(entry_with_max("\"soon\"")), "/entries/0/max_doca_version"},
        {matrix_with(entry_with_max("3")), "/entries/0/max_doca_version"},
        {matrix_with(entry_with_max("null") + ", 7"), "/entries/1"},
        {"", "empty"},
        {"{", "invalid JSON"},
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.text);
        auto m = parse_version_matrix(bad.text);
        REQUIRE_FALSE(m.ok());
        CHECK(m.gap().reason == GapReason::malformed);
        CHECK_MESSAGE(m.gap().message.find(bad.where) != std::string::npos, m.gap().message);
    }
}

TEST_CASE("availability: min and max inclusive, builds compared only when both have one") {
    MatrixEntry e;
    e.min_doca_version = "3.2.0";
    auto v = [](const char* text) { return *parse_doca_version(text); };
    CHECK(entry_available(e, v("3.2.0")));
    CHECK(entry_available(e, v("3.2.0058")));
    CHECK(entry_available(e, v("4.0.0")));
    CHECK_FALSE(entry_available(e, v("3.1.0")));
    CHECK_FALSE(entry_available(e, v("2.10.0087")));
    e.max_doca_version = "3.3.0";
    CHECK(entry_available(e, v("3.3.0105")));
    CHECK(entry_available(e, v("3.3.0")));
    CHECK_FALSE(entry_available(e, v("3.3.1")));
    CHECK_FALSE(entry_available(e, v("3.10.0")));
}

struct MatrixProbe {
    test::TempTree tree;
    InstallFacts install;

    MatrixProbe() {
        install.prefix = Sourced<std::string>::of("/opt/mellanox/doca", {"option", "test"});
        install.stack_versions.agreed = parse_doca_version("3.3.0105");
    }

    VersionMatrixFacts run() {
        auto fs = RootedFs::open(tree.root()).value();
        MapEnv env;
        spdlog::logger log("test", std::make_shared<spdlog::sinks::null_sink_st>());
        ProbeContext ctx{fs, env, log, Deadline(5s), 1s, std::nullopt, false};
        return probe_version_matrix(ctx, install);
    }
};

TEST_CASE("probe: absent matrix is said plainly, as info") {
    MatrixProbe p;
    p.tree.write("/usr/share/version-matrix.json", matrix_with(entry_with_max("null")));
    auto facts = p.run();
    CHECK_FALSE(facts.present);
    CHECK(facts.path == "/opt/mellanox/doca/share/version-matrix.json");
    REQUIRE(facts.gap);
    CHECK(facts.gap->reason == GapReason::not_found);
    CHECK(facts.check.status == Status::info);
    CHECK(facts.check.message.find("no version matrix") != std::string::npos);
}

TEST_CASE("probe: a valid matrix marks entries on the install's version") {
    MatrixProbe p;
    p.tree.write("/opt/mellanox/doca/share/version-matrix.json",
                 matrix_with(entry_with_max("null") + "," + entry_with_max("\"3.2.9\"")));
    auto facts = p.run();
    REQUIRE(facts.matrix);
    CHECK(facts.matrix->entries[0].available == true);
    CHECK(facts.matrix->entries[1].available == false);
    CHECK(facts.check.status == Status::info);
    CHECK(facts.check.message.find("1 of 2") != std::string::npos);
}

TEST_CASE("probe: unknown install version leaves availability null") {
    MatrixProbe p;
    p.install.stack_versions.agreed.reset();
    p.tree.write("/opt/mellanox/doca/share/version-matrix.json",
                 matrix_with(entry_with_max("null")));
    auto facts = p.run();
    REQUIRE(facts.matrix);
    CHECK_FALSE(facts.matrix->entries[0].available.has_value());
    CHECK_FALSE(facts.install_version.ok());
}

TEST_CASE("probe: malformed or unreadable matrix fails and is not used") {
    MatrixProbe p;
    p.tree.write("/opt/mellanox/doca/share/version-matrix.json",
                 matrix_with(entry_with_max("null") + ", {}"));
    auto facts = p.run();
    CHECK(facts.present);
    CHECK_FALSE(facts.matrix);
    CHECK(facts.check.status == Status::fail);
    REQUIRE(facts.gap);
    CHECK(facts.gap->reason == GapReason::malformed);

    MatrixProbe fifo;
    fifo.tree.fifo("/opt/mellanox/doca/share/version-matrix.json");
    auto f = fifo.run();
    CHECK(f.present);
    CHECK_FALSE(f.matrix);
    CHECK(f.check.status == Status::fail);
}

}  // namespace
}  // namespace rdmi

namespace rdmi {
namespace {

TEST_CASE("schema_version is semver; versions are plain M.m.p") {
    auto with_schema_version = [](const std::string& v) {
        return R"({"schema_version": ")" + v + R"(", "generated_at": "x", "entries": []})";
    };
    CHECK(parse_version_matrix(with_schema_version("1.0.0")).ok());
    CHECK(parse_version_matrix(with_schema_version("1.2.3-rc.1")).ok());
    CHECK(parse_version_matrix(with_schema_version("10.20.30+build")).ok());
    for (const char* bad : {"1.0", "1.0.0-", "1..0", "v1.0.0", "1.0.0 ", ""}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_version_matrix(with_schema_version(bad)).ok());
    }
    std::string e = kEntry;
    e.replace(e.find("%MAX%"), 5, "\"3.3\"");
    CHECK_FALSE(parse_version_matrix(matrix_with(e)).ok());
}

}  // namespace
}  // namespace rdmi
