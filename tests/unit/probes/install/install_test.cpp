// Tests for the install probe on the fixture installs the test build generates.
#include "probes/install/install.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "os/rooted_fs.hpp"
#include "process/process.hpp"
#include "support/native_arch.hpp"
#include "support/temp_tree.hpp"
#include "support/without_landlock.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

std::string fixture(const std::string& kind, const std::string& scenario) {
    return std::string(RDMI_TEST_FIXTURES_DIR) + "/" + kind + "/" + scenario;
}

// A complete DOCA 3.3 install made at the host path `dest` by the fixture generator (which
// writes the install's own path into its .pc files): a root, or with `bare_prefix` the prefix
// alone.
void make_fixture_install(const std::string& dest, bool bare_prefix) {
    std::vector<std::string> argv{
        RDMI_TEST_PYTHON,
        std::string(RDMI_TEST_SOURCE_DIR) + "/tests/fixtures/doca/make_doca_install.py",
        "complete-3.3",
        dest,
        "--libs",
        fixture("libs", "")};
    if (bare_prefix) argv.insert(argv.end(), {"--layout", "prefix"});
    // The generator writes the tree: run as a tool, Landlock would refuse every file.
    const test::WithoutLandlock writes_the_tree;
    auto made = run_process(argv, Deadline(60s));
    REQUIRE(made.ok());
    REQUIRE(made->exit_code == 0);
}

spdlog::logger& null_logger() {
    static spdlog::logger logger("test", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

struct Probe {
    RootedFs fs;
    MapEnv env;
    InstallFacts facts;

    explicit Probe(const std::string& root, std::optional<std::string> prefix = std::nullopt,
                   MapEnv environment = {})
        : fs(RootedFs::open(root).value()), env(std::move(environment)) {
        ProbeContext ctx{fs, env, null_logger(), Deadline(10s), 5s, std::move(prefix), false};
        facts = probe_install(ctx);
    }

    [[nodiscard]] const Check& check(const std::string& id) const {
        for (const auto& c : facts.checks) {
            if (c.id == id) return c;
        }
        FAIL("no check " << id);
        throw std::logic_error("unreachable");
    }
};

}  // namespace

TEST_CASE("a complete 3.3 root: prefix from pkg-config, multiarch layout, all modules") {
    Probe probe(fixture("roots", "complete-3.3"));
    const auto& facts = probe.facts;
    CHECK(*facts.prefix.value == "/opt/mellanox/doca");
    CHECK(facts.prefix.source.kind == "pkg-config");
    CHECK(facts.layout == DocaLayout::multiarch);
    CHECK(facts.pc_dir == "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig");
    REQUIRE(facts.stack.size() == 4);
    for (const auto& module : facts.stack) {
        CAPTURE(module.name);
        CHECK(module.found);
        CHECK(module.on_search_path);
        CHECK(module.version == "3.3.0105");
        CHECK(module.unresolved.empty());
    }
    CHECK(facts.stack_versions.consistent);
    CHECK(facts.stack_versions.absent.empty());
    // Nothing is loaded or run under a root: not applicable, not absent.
    CHECK(facts.stack_versions.sources[4].raw.gap->reason == GapReason::not_applicable);
    CHECK(facts.doca_modules.size() == 5);
    for (const auto& check : facts.checks) {
        CAPTURE(check.id);
        CHECK(check.status != Status::fail);
        CHECK(check.status != Status::skip);
    }
}

TEST_CASE("the prefix option wins over pkg-config") {
    Probe probe(fixture("roots", "complete-3.3"), "/nonexistent/doca");
    CHECK(probe.facts.prefix.source.kind == "option");
    CHECK_FALSE(probe.facts.prefix_exists);
    CHECK(probe.check("doca-prefix").status == Status::fail);
}

TEST_CASE("PKG_CONFIG_PATH inside the root is honoured") {
    MapEnv env;
    env.set("PKG_CONFIG_PATH", "/opt/mellanox/doca/lib64/pkgconfig");
    Probe probe(fixture("roots", "rpm-lib64"), std::nullopt, env);
    CHECK(probe.facts.layout == DocaLayout::lib64);
    CHECK(probe.check("module-doca-rdmi").status == Status::pass);
    CHECK(probe.facts.search_path.front() == "/opt/mellanox/doca/lib64/pkgconfig");
}

TEST_CASE("a stack module at another version is the odd one out") {
    Probe probe(fixture("roots", "dpa-mismatch"));
    CHECK(probe.facts.stack_versions.disagreeing == std::vector<std::string>{"doca-dpa.pc"});
    CHECK(probe.check("rdmi-stack-versions").status == Status::fail);
    CHECK(probe.check("rdmi-stack-versions").message.find("doca-dpa.pc is 3.2.1025") !=
          std::string::npos);
}

TEST_CASE("live: the runtime version comes from the library, loaded in a child") {
    // The prefix with libraries of the machine this test runs as: they must load.
    Probe probe("/", fixture("native-prefixes", "complete-3.3"));
    const auto& runtime = probe.facts.stack_versions.sources[4];
    REQUIRE(runtime.raw.ok());
    CHECK(*runtime.raw.value == "3.3.0105");
    CHECK(runtime.raw.source.ref.find("doca_version_runtime() in ") == 0);
    CHECK(probe.facts.dpacc.detail == "1.12.0.26");
    CHECK(probe.facts.contract_versions.sources[2].version->to_string() == "3.3.0105");
}

TEST_CASE("live: a prefix that other users could write is read, never loaded or run") {
    test::TempTree tree;
    tree.mkdir("/shared", 0775);
    const std::string prefix = tree.host("/shared/doca");
    make_fixture_install(prefix, true);
    Probe probe("/", prefix);
    const auto& runtime = probe.facts.stack_versions.sources[4];
    REQUIRE_FALSE(runtime.raw.ok());
    CHECK(runtime.raw.gap->reason == GapReason::untrusted);
    CHECK(runtime.raw.gap->message.find("writable by its group") != std::string::npos);
    CHECK(probe.facts.dpacc.gap->reason == GapReason::untrusted);
    // The files themselves are still read: the .pc versions are known.
    CHECK(probe.facts.stack_versions.agreed->to_string() == "3.3.0105");
}

namespace {

// Each stand-in tool marks that it started, then waits (at most 3 s, under the 5 s call timeout)
// for the other's mark: run one after the other, the first to run gives up and fails.
std::string rendezvous_tool(const std::string& marks, const std::string& self,
                            const std::string& other, const std::string& output) {
    return "#!/bin/sh\n: > " + marks + "/" + self + "\ni=0\nwhile [ ! -e " + marks + "/" + other +
           " ]; do\n  i=$((i + 1))\n  if [ $i -gt 60 ]; then echo '" + other +
           " never started' >&2; exit 3; fi\n  sleep 0.05\ndone\nprintf '%s\\n' '" + output + "'\n";
}

}  // namespace

TEST_CASE("live: doca_caps --version and dpacc --version run side by side") {
    const test::WithoutLandlock tools_write_marks;
    test::TempTree tree;
    const std::string prefix = tree.host("/doca");
    make_fixture_install(prefix, true);
    tree.mkdir("/marks");
    const std::string marks = tree.host("/marks");
    tree.write("/doca/tools/doca_caps",
               rendezvous_tool(marks, "doca_caps", "dpacc",
                               "DOCA SDK     Version (Compilation): 3.3.0105"),
               0755);
    tree.write("/doca/tools/dpacc",
               rendezvous_tool(marks, "dpacc", "doca_caps", "dpacc version 1.12.0.26"), 0755);
    Probe probe("/", prefix);
    CHECK_MESSAGE(probe.facts.dpacc.detail == "1.12.0.26",
                  (probe.facts.dpacc.gap ? probe.facts.dpacc.gap->message : ""));
    const auto& caps = probe.facts.contract_versions.sources[2];
    REQUIRE_MESSAGE(caps.raw.ok(), (caps.raw.gap ? caps.raw.gap->message : ""));
    CHECK(caps.version->to_string() == "3.3.0105");
}

TEST_CASE("no DOCA: the prefix fails and the dependent checks are skipped") {
    Probe probe(fixture("roots", "no-doca"));
    CHECK(probe.check("doca-prefix").status == Status::fail);
    CHECK(probe.check("rdmi-headers").status == Status::skip);
    CHECK(probe.check("rdmi-stack-versions").status == Status::skip);
    // One cause, one wording: the fix plan merges them into a single step.
    CHECK(probe.check("module-doca-rdmi").remediation == probe.check("doca-prefix").remediation);
    CHECK(probe.check("rdmi-headers").remediation == probe.check("doca-prefix").remediation);
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("a damaged shared object behind a module is a failure naming the file") {
    test::TempTree tree;
    make_fixture_install(tree.host("/r"), false);
    const std::string lib = "/r/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3.3.0105";
    tree.write(lib,
               "\x7f"
               "ELF truncated");
    Probe probe(tree.host("/r"));
    const auto& check = probe.check("library-doca-rdmi");
    CHECK(check.status == Status::fail);
    CHECK(check.message.find("/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so: ") == 0);
    CHECK(probe.check("library-doca-common").message.find("(soname libdoca_common.so.3)") !=
          std::string::npos);
}

}  // namespace rdmi
