// Tests for ProbeContext's trust gate: the one decision before any load or tool run.
#include "context/context.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <sstream>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

const std::string kTrust = std::string(RDMI_TEST_FIXTURES_DIR) + "/trust";

// A private tree holding a copy of a real shared object with no dependencies of its own
// beyond libc, at <root>/lib/libdep.so.1.
struct GateTree {
    test::TempTree tree;
    std::ostringstream logged;
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::ostream_sink_st>(logged)};
    RootedFs live = RootedFs::open("/").value();
    MapEnv env;
    GateTree() {
        ::chmod(tree.root().c_str(), 0755);
        tree.mkdir("/lib", 0755);
        std::filesystem::copy_file(kTrust + "/dep/librdmi-fixture-dep.so.1",
                                   tree.host("/lib/libdep.so.1"));
    }
    [[nodiscard]] ProbeContext context(const Fs& fs, bool allow = false) {
        return ProbeContext{fs, env, log, Deadline(10s), 5s, std::nullopt, allow};
    }
    [[nodiscard]] std::string lib() const { return tree.host("/lib/libdep.so.1"); }
};

}  // namespace

TEST_CASE("a trusted library is loadable: the gate answers the host path to load") {
    GateTree t;
    auto loadable = t.context(t.live).loadable(t.lib());
    REQUIRE(loadable.ok());
    CHECK(*loadable == t.lib());
}

TEST_CASE("a library in a group-writable directory is refused, saying why and what was not done") {
    GateTree t;
    t.tree.chmod("/lib", 0775);
    auto loadable = t.context(t.live).loadable(t.lib());
    REQUIRE_FALSE(loadable.ok());
    CHECK(loadable.gap().reason == GapReason::untrusted);
    CHECK(loadable.gap().message == t.tree.host("/lib") +
                                        ": writable by its group (mode 0775; fix: chmod go-w " +
                                        t.tree.host("/lib") + "); not loaded");
    auto runnable = t.context(t.live).runnable(t.lib());
    REQUIRE_FALSE(runnable.ok());
    CHECK(runnable.gap().reason == GapReason::untrusted);
    CHECK(runnable.gap().message.size() > 9);
    CHECK(runnable.gap().message.substr(runnable.gap().message.size() - 9) == "; not run");
}

TEST_CASE("--allow-untrusted-libs lets an untrusted file through and says so in the log") {
    GateTree t;
    t.tree.chmod("/lib", 0777);
    auto loadable = t.context(t.live, true).loadable(t.lib());
    REQUIRE(loadable.ok());
    CHECK(*loadable == t.lib());
    CHECK(t.logged.str().find("loading untrusted " + t.lib() +
                              " because of --allow-untrusted-libs") != std::string::npos);
    auto runnable = t.context(t.live, true).runnable(t.lib());
    REQUIRE(runnable.ok());
    CHECK(t.logged.str().find("running untrusted " + t.lib()) != std::string::npos);
}

TEST_CASE("under --root nothing is loaded or run, even a trusted file") {
    GateTree t;
    RootedFs rooted = RootedFs::open(t.tree.root()).value();
    auto loadable = t.context(rooted).loadable("/lib/libdep.so.1");
    REQUIRE_FALSE(loadable.ok());
    CHECK(loadable.gap().reason == GapReason::not_applicable);
    CHECK(loadable.gap().message == "/lib/libdep.so.1: not loaded under --root");
    auto runnable = t.context(rooted, true).runnable("/lib/libdep.so.1");
    REQUIRE_FALSE(runnable.ok());
    CHECK(runnable.gap().message == "/lib/libdep.so.1: not run under --root");
}

TEST_CASE("a missing file and a relative path are refused, never handed to the loader") {
    GateTree t;
    auto missing = t.context(t.live).loadable(t.tree.host("/lib/libnone.so.1"));
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.gap().reason == GapReason::untrusted);
    CHECK_FALSE(t.context(t.live).loadable("libdep.so.1").ok());
}

}  // namespace rdmi
