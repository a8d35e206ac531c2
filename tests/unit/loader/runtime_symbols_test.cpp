// Tests for runtime resolution in a child: dlsym, dlvsym of the EXPERIMENTAL node, dladdr.
#include "loader/runtime_symbols.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>

#include "fixture_libs.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

const RuntimeSymbol& find(const RuntimeResolution& resolution, const std::string& name) {
    for (const auto& s : resolution.symbols) {
        if (s.name == name) return s;
    }
    FAIL("no " << name);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("runtime resolution of the versioned fixture: default versions and the loaded file") {
    RuntimeQuery query{fixture::kVersionedLib,
                       {"doca_rdmi_connection_create", "doca_rdmi_abi_version",
                        "doca_rdmi_no_such_call", "name\nwith a newline"},
                       {"EXPERIMENTAL", "NO_SUCH_NODE"}};
    IsolatedWorker worker;
    auto resolution = resolve_runtime_symbols(query, worker, Deadline(10s));
    REQUIRE_MESSAGE(resolution.ok(), (resolution.ok() ? "" : resolution.gap().message));
    CHECK(std::filesystem::equivalent(resolution->loaded_path, fixture::kVersionedLib));
    REQUIRE(resolution->symbols.size() == 4);
    const auto& create = find(*resolution, "doca_rdmi_connection_create");
    CHECK(create.found);
    CHECK(create.default_in == std::vector<std::string>{"EXPERIMENTAL"});
    CHECK(create.also_in.empty());
    CHECK(create.file == resolution->loaded_path);
    const auto& abi = find(*resolution, "doca_rdmi_abi_version");
    CHECK(abi.found);
    CHECK(abi.default_in.empty());
    const auto& none = find(*resolution, "doca_rdmi_no_such_call");
    CHECK_FALSE(none.found);
    CHECK(none.file.empty());
    CHECK_FALSE(find(*resolution, "name\nwith a newline").found);
    // Each resolution is an application's view: a child that has loaded nothing else.
    CHECK(worker.children_started() == 1);
    auto again = resolve_runtime_symbols(query, worker, Deadline(10s));
    REQUIRE(again.ok());
    CHECK(again->symbols.size() == 4);
    CHECK(worker.children_started() == 2);
}

TEST_CASE("a library that cannot be loaded is a gap naming it") {
    IsolatedWorker worker;
    auto resolution = resolve_runtime_symbols(
        RuntimeQuery{std::string(fixture::kLibsDir) + "/broken/empty/libdoca_rdmi.so", {"x"}, {}},
        worker, Deadline(10s));
    REQUIRE_FALSE(resolution.ok());
    CHECK(resolution.gap().reason == GapReason::error);
    CHECK(resolution.gap().message.find("broken/empty/libdoca_rdmi.so") != std::string::npos);
}

}  // namespace rdmi
