// Tests for the environment probe: loader variables become findings with provenance env.
#include "probes/environment.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <initializer_list>
#include <utility>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

spdlog::logger& null_logger() {
    static spdlog::logger logger("environment-test",
                                 std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

MapEnv env_of(std::initializer_list<std::pair<const char*, const char*>> vars) {
    MapEnv env;
    for (const auto& [name, value] : vars) env.set(name, value);
    return env;
}

EnvironmentFacts probe(const std::string& root, MapEnv env) {
    const auto fs = RootedFs::open(root).value();
    const ProbeContext ctx{fs, env, null_logger(), Deadline(10s), 5s, std::nullopt, false};
    return probe_environment(ctx);
}

const Check& check_named(const EnvironmentFacts& facts, const std::string& id) {
    for (const auto& check : facts.checks) {
        if (check.id == id) return check;
    }
    FAIL("no check " << id);
    return facts.checks.front();
}

TEST_CASE("environment: nothing set is two info checks") {
    const auto facts = probe("/", MapEnv{});
    CHECK(facts.applies);
    REQUIRE(facts.variables.size() == 2);
    CHECK_FALSE(facts.variables[0].value);
    CHECK(check_named(facts, "env-ld-preload").status == Status::info);
    CHECK(check_named(facts, "env-ld-library-path").status == Status::info);
    CHECK(check_named(facts, "env-ld-preload").sources.at(0).kind == "env");
    CHECK(check_named(facts, "env-ld-preload").sources.at(0).ref == "LD_PRELOAD");
}

TEST_CASE("environment: LD_PRELOAD set fails, LD_LIBRARY_PATH set is info with its value") {
    const auto facts =
        probe("/", env_of({{"LD_PRELOAD", "/tmp/evil.so"}, {"LD_LIBRARY_PATH", "/opt/x/lib"}}));
    const auto& preload = check_named(facts, "env-ld-preload");
    CHECK(preload.status == Status::fail);
    CHECK(preload.message.find("/tmp/evil.so") != std::string::npos);
    CHECK_FALSE(preload.remediation.empty());
    const auto& path = check_named(facts, "env-ld-library-path");
    CHECK(path.status == Status::info);
    CHECK(path.message.find("/opt/x/lib") != std::string::npos);
    CHECK(facts.variables[1].value == "/opt/x/lib");
}

TEST_CASE("environment: an empty LD_PRELOAD is as good as unset") {
    const auto facts = probe("/", env_of({{"LD_PRELOAD", ""}}));
    CHECK(check_named(facts, "env-ld-preload").status == Status::info);
}

TEST_CASE("environment: under --root the variables are reported but not judged") {
    test::TempTree tree;
    tree.write("/etc/hostname", "x\n");
    const auto facts = probe(tree.root(), env_of({{"LD_PRELOAD", "/tmp/evil.so"}}));
    CHECK_FALSE(facts.applies);
    CHECK(check_named(facts, "env-ld-preload").status == Status::info);
    CHECK(check_named(facts, "env-ld-preload").message.find("not judged") != std::string::npos);
}

}  // namespace
}  // namespace rdmi
