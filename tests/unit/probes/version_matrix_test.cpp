// Tests for version-matrix.json: shape validation, availability, and the probe's three cases.
#include "probes/version_matrix.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "json/json_input.hpp"
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
    auto m = parse_version_matrix(matrix_with(entry_with_max("null")), "m.json");
    REQUIRE(m.ok());
    CHECK(m->schema_version == "1.0.0");
    REQUIRE(m->entries.size() == 1);
    CHECK(m->entries[0].min_doca_version == "3.2.0");
    CHECK_FALSE(m->entries[0].max_doca_version.has_value());
    auto bounded = parse_version_matrix(matrix_with(entry_with_max("\"3.3.0\"")), "m.json");
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
        {R"({"schema_version": "1.0.0", "entries": []})", "m.json: missing \"generated_at\""},
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
        auto m = parse_version_matrix(bad.text, "m.json");
        REQUIRE_FALSE(m.ok());
        CHECK(m.gap().reason == GapReason::malformed);
        CHECK_MESSAGE(m.gap().message.find(bad.where) != std::string::npos, m.gap().message);
        // One line naming the file first, whichever check refused it (JSON or shape).
        CHECK_MESSAGE(m.gap().message.starts_with("m.json: "), m.gap().message);
        CHECK(m.gap().message.find('\n') == std::string::npos);
        // A top-level member has no pointer to show: "m.json: missing ...", not "m.json: : ".
        CHECK_MESSAGE(m.gap().message.find(": : ") == std::string::npos, m.gap().message);
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

    // The message names the file once, and the first problem by JSON pointer.
    CHECK(
        facts.gap->message.starts_with("/opt/mellanox/doca/share/version-matrix.json: /entries/1"));
    CHECK(facts.check.message ==
          "version matrix is malformed (" + facts.gap->message + "); none of it is used");

    // A directory in the file's place (as any file that is not regular: a FIFO is refused by
    // the file layer the same way, rooted_fs_no_open_test.cpp), and a file past the matrix's
    // cap: refused unparsed.
    MatrixProbe dir;
    dir.tree.mkdir("/opt/mellanox/doca/share/version-matrix.json");
    auto d = dir.run();
    CHECK(d.present);
    CHECK(d.check.status == Status::fail);
    REQUIRE(d.gap);
    CHECK(d.gap->message.find("version-matrix.json: is a directory") != std::string::npos);
    MatrixProbe big;
    big.tree.write("/opt/mellanox/doca/share/version-matrix.json",
                   matrix_with(entry_with_max("null")) +
                       std::string(json_input::kVersionMatrix.max_bytes, ' '));
    auto b = big.run();
    CHECK(b.check.status == Status::fail);
    CHECK_FALSE(b.matrix);
}

}  // namespace
}  // namespace rdmi

namespace rdmi {
namespace {

TEST_CASE("schema_version is semver; versions are plain M.m.p") {
    auto with_schema_version = [](const std::string& v) {
        return R"({"schema_version": ")" + v + R"(", "generated_at": "x", "entries": []})";
    };
    CHECK(parse_version_matrix(with_schema_version("1.0.0"), "m.json").ok());
    CHECK(parse_version_matrix(with_schema_version("1.2.3-rc.1"), "m.json").ok());
    CHECK(parse_version_matrix(with_schema_version("10.20.30+build"), "m.json").ok());
    for (const char* bad : {"1.0", "1.0.0-", "1..0", "v1.0.0", "1.0.0 ", ""}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_version_matrix(with_schema_version(bad), "m.json").ok());
    }
    std::string e = kEntry;
    e.replace(e.find("%MAX%"), 5, "\"3.3\"");
    CHECK_FALSE(parse_version_matrix(matrix_with(e), "m.json").ok());
}

}  // namespace
}  // namespace rdmi
