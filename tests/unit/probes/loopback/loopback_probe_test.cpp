// probe_loopback end to end over a fixture DOCA prefix whose libraries are the fake: the skip
// paths (--root, no DOCA, no plugin, no DPA device) and a full pass.
#include <doctest/doctest.h>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "loopback_fake.hpp"
#include "os/append_file.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {

using namespace std::chrono_literals;
using test::fake_options;
using test::FakeDoca;

namespace {

spdlog::logger& quiet_log() {
    static spdlog::logger log("loopback-test", std::make_shared<spdlog::sinks::null_sink_st>());
    return log;
}

/// A DOCA 3.x multiarch prefix whose libdoca_{common,dpa,rdma}.so are links to the fake.
void make_fake_prefix(const test::TempTree& tree, bool with_rdma = true) {
    const std::string libdir = "/opt/mellanox/doca/lib/x86_64-linux-gnu";
    for (const char* module : {"doca-common", "doca-dpa"}) {
        tree.write(libdir + "/pkgconfig/" + module + ".pc",
                   "prefix=" + tree.host("/opt/mellanox/doca") +
                       "\nlibdir=${prefix}/lib/x86_64-linux-gnu\nincludedir=${prefix}/include\n"
                       "Name: " +
                       module +
                       "\nDescription: fake\nVersion: 3.3.0105\n"
                       "Libs: -L${libdir} -l" +
                       std::string(module == std::string("doca-dpa") ? "doca_dpa" : "doca_common") +
                       "\n");
    }
    tree.symlink(RDMI_TEST_FAKE_DOCA, libdir + "/libdoca_common.so");
    tree.symlink(RDMI_TEST_FAKE_DOCA, libdir + "/libdoca_dpa.so");
    if (with_rdma) tree.symlink(RDMI_TEST_FAKE_DOCA, libdir + "/libdoca_rdma.so.3");
}

LoopbackVerdict probe(const Fs& fs, const std::string& prefix, const LoopbackOptions& options,
                      std::chrono::milliseconds budget = 10s) {
    MapEnv env;
    ProbeContext ctx{fs, env, quiet_log(), Deadline(budget), 2s, prefix, true};
    return probe_loopback(ctx, probe_install(ctx), options);
}

}  // namespace

TEST_CASE("loopback skips under --root without loading anything") {
    test::TempTree tree;
    make_fake_prefix(tree);
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    const auto verdict = probe(*fs, "/opt/mellanox/doca", fake_options());
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("--root is set") != std::string::npos);
    CHECK(verdict.steps.size() == 1);
}

TEST_CASE("loopback skips without DOCA, with an incomplete DOCA, and without the plugin") {
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    test::TempTree empty;
    auto verdict = probe(*fs, empty.host("/opt/mellanox/doca"), fake_options());
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("DOCA is not installed") != std::string::npos);

    test::TempTree partial;
    make_fake_prefix(partial, false);
    verdict = probe(*fs, partial.host("/opt/mellanox/doca"), fake_options());
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("libdoca_rdma.so not found") != std::string::npos);

    test::TempTree tree;
    make_fake_prefix(tree);
    auto options = fake_options();
    options.plugin_path.clear();
    verdict = probe(*fs, tree.host("/opt/mellanox/doca"), options);
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("no DPA plugin") != std::string::npos);
    CHECK(verdict.steps.front().outcome == StepOutcome::pass);  // the libraries were found

    options.plugin_path = tree.host("/nonexistent/rdmi-probe-dpa.so");
    verdict = probe(*fs, tree.host("/opt/mellanox/doca"), options);
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("no DPA plugin") != std::string::npos);
}

TEST_CASE("loopback runs end to end through the fake install, and skips without a DPA device") {
    auto& fake = FakeDoca::get();
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    test::TempTree tree;
    make_fake_prefix(tree);
    fake.reset();
    auto verdict = probe(*fs, tree.host("/opt/mellanox/doca"), fake_options());
    INFO(verdict.reason);
    CHECK(verdict.result == Status::pass);
    CHECK(verdict.level_reached == 3);
    CHECK(verdict.steps.front().id == "locate-libraries");
    CHECK(verdict.steps[1].id == "locate-plugin");
    CHECK(verdict.libraries.size() == 3);

    fake.reset();
    fake.set("devices", "none");
    verdict = probe(*fs, tree.host("/opt/mellanox/doca"), fake_options());
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("no DPA-capable PF") != std::string::npos);
    fake.reset();

    const Check check = loopback_check(verdict);
    CHECK(check.id == "dpa-loopback");
    CHECK(check.status == Status::skip);
}

TEST_CASE("a failing isolated run with --trace names the trace, which holds the failing call") {
    auto& fake = FakeDoca::get();
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    test::TempTree tree;
    make_fake_prefix(tree);
    const std::string trace = tree.host("/calls.jsonl");
    REQUIRE(AppendFile::open(trace, true).ok());
    fake.reset();
    fake.set("fail", "doca_rdma_connect#1=21");  // the child inherits the plan
    auto options = fake_options();
    options.trace_path = trace;
    auto verdict = probe(*fs, tree.host("/opt/mellanox/doca"), options);
    CHECK(verdict.result == Status::fail);
    CHECK(std::any_of(verdict.notes.begin(), verdict.notes.end(), [&trace](const auto& note) {
        return note.rfind("trace: ", 0) == 0 && note.find(trace) != std::string::npos;
    }));
    std::ifstream in(trace);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("\"call\":\"doca_rdma_connect\"") != std::string::npos);
    CHECK(text.find("\"error\":\"DOCA_ERROR_DRIVER\"") != std::string::npos);

    // A passing run does not point at it.
    fake.reset();
    verdict = probe(*fs, tree.host("/opt/mellanox/doca"), options);
    CHECK(verdict.result == Status::pass);
    CHECK(std::none_of(verdict.notes.begin(), verdict.notes.end(),
                       [](const auto& note) { return note.rfind("trace: ", 0) == 0; }));
    fake.reset();
}

}  // namespace rdmi
