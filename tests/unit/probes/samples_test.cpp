// Tests for the samples probe: the public libraries' samples directories under the prefix.
#include "probes/samples.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

ModuleFacts module_named(const std::string& name) {
    ModuleFacts m;
    m.name = name;
    return m;
}

InstallFacts samples_install(const std::string& prefix) {
    InstallFacts install;
    install.prefix = Sourced<std::string>::of(prefix, {"pkg-config", "doca-common prefix"});
    install.stack = {module_named("doca-common"), module_named("doca-rdmi")};
    install.doca_modules = {module_named("doca-rdma"), module_named("doca-common"),
                            module_named("doca-dpa")};
    return install;
}

SamplesFacts samples_of(const test::TempTree& tree, const InstallFacts& install) {
    const auto fs = RootedFs::open(tree.root()).value();
    MapEnv env;
    spdlog::logger log("samples-test", std::make_shared<spdlog::sinks::null_sink_st>());
    const ProbeContext ctx{fs, env, log, Deadline(5s), 1s, std::nullopt, false};
    return probe_samples(ctx, install);
}

TEST_CASE("public_libraries: each module once, by name") {
    const auto install = samples_install("/opt/mellanox/doca");
    std::string names;
    for (const auto* m : public_libraries(install)) names += m->name + " ";
    CHECK(names == "doca-common doca-dpa doca-rdma doca-rdmi ");
}

TEST_CASE("samples: the directories named after the libraries' C prefix, and nothing else") {
    test::TempTree tree;
    tree.mkdir("/opt/mellanox/doca/samples/doca_rdma");
    tree.mkdir("/opt/mellanox/doca/samples/doca_rdmi");
    tree.write("/opt/mellanox/doca/samples/doca_dpa", "a file, not a directory");
    tree.mkdir("/opt/mellanox/doca/samples/doca_flow");  // not a module of this install
    const auto facts = samples_of(tree, samples_install("/opt/mellanox/doca"));
    CHECK_FALSE(facts.gap);
    REQUIRE(facts.paths.size() == 2);
    CHECK(facts.paths[0].library == "doca-rdma");
    CHECK(facts.paths[0].path == "/opt/mellanox/doca/samples/doca_rdma");
    CHECK(facts.paths[1].library == "doca-rdmi");
}

TEST_CASE("samples: no samples directory is a gap; no prefix, nothing to look at") {
    test::TempTree tree;
    tree.mkdir("/opt/mellanox/doca");
    const auto facts = samples_of(tree, samples_install("/opt/mellanox/doca"));
    CHECK(facts.paths.empty());
    REQUIRE(facts.gap);
    CHECK(facts.gap->reason == GapReason::not_found);

    InstallFacts none;
    none.prefix = Sourced<std::string>::missing(Gap{GapReason::not_found, "no prefix"}, {});
    const auto nothing = samples_of(tree, none);
    CHECK(nothing.paths.empty());
    CHECK_FALSE(nothing.gap);
}

}  // namespace
}  // namespace rdmi
