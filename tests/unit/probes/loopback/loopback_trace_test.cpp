// `loopback --trace FILE`: one JSON line per DOCA call, the same calls the fake library saw, with
// hex handles, out-parameters, error names, timings and the thread (the AppendFile under it:
// tests/unit/os/append_file_test.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "loopback_fake.hpp"
#include "os/append_file.hpp"
#include "probes/loopback/loopback_trace.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {

using test::fake_options;
using test::FakeDoca;
using test::run_fake;

namespace {

std::vector<nlohmann::json> read_lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<nlohmann::json> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        out.push_back(item.substr(0, item.find('#')));
    return out;
}

LoopbackVerdict traced_run(const std::string& path, LoopbackOptions options) {
    REQUIRE(AppendFile::open(path, true).ok());
    options.trace_path = path;
    return run_fake(options);
}

}  // namespace

TEST_CASE("the trace holds every DOCA call the library saw, in order, as JSON lines") {
    auto& fake = FakeDoca::get();
    fake.reset();
    test::TempTree tree;
    const std::string path = tree.host("/trace.jsonl");
    const auto verdict = traced_run(path, fake_options(3));
    CHECK(verdict.result == Status::pass);
    std::vector<std::string> traced;
    std::vector<std::string> steps;
    for (const auto& line : read_lines(path)) {
        CHECK(line["seq"].is_number_integer());
        CHECK(line["thread"].get<std::string>().rfind("0x", 0) == 0);
        if (line.contains("step")) {
            if (line["event"] == "begin") steps.push_back(line["step"]);
            continue;
        }
        traced.push_back(line["call"]);
        CHECK(line["elapsed_us"].get<double>() >= 0);
        if (line["error"].is_string()) {
            CHECK(line["returned"] == 0);
            CHECK(line["error"] == "DOCA_SUCCESS");
        }
    }
    CHECK(traced == split(fake.call_log()));
    CHECK(steps.front() == "find-device");
    CHECK(steps.back() == "verify");
}

TEST_CASE("trace lines show handles in hex, out-parameters after the call, and the kernel's args") {
    auto& fake = FakeDoca::get();
    fake.reset();
    test::TempTree tree;
    const std::string path = tree.host("/trace.jsonl");
    traced_run(path, fake_options(3));
    bool saw_create = false;
    bool saw_write = false;
    bool saw_pci = false;
    for (const auto& line : read_lines(path)) {
        if (!line.contains("call")) continue;
        const auto& args = line["args"];
        if (line["call"] == "doca_dpa_create") {
            saw_create = true;
            REQUIRE(args.size() == 2);
            CHECK(args[0].get<std::string>().rfind("0x", 0) == 0);
            CHECK(args[1].get<std::string>().find(" -> 0x") != std::string::npos);
        } else if (line["call"] == "doca_devinfo_get_pci_addr_str") {
            saw_pci =
                saw_pci || args[1].get<std::string>().find("\"0000:08:00.0\"") != std::string::npos;
        } else if (line["call"] == "doca_dpa_kernel_launch_update_set" &&
                   args[6] == "rdmi_probe_write_kernel_v3") {
            saw_write = true;
            CHECK(args.size() == 7 + 15);
            CHECK(args[7 + 13] == "0x3");  // FLUSH | OPTIMIZE_REPORTS
            CHECK(args[7 + 14] != "0x0");  // a tick budget: the fake's DPA timer runs
        }
    }
    CHECK(saw_create);
    CHECK(saw_write);
    CHECK(saw_pci);
}

TEST_CASE("a failing call is the trace's last call line, with its error name") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("fail", "doca_rdma_create#2=21");
    test::TempTree tree;
    const std::string path = tree.host("/trace.jsonl");
    const auto verdict = traced_run(path, fake_options(3));
    CHECK(verdict.result == Status::fail);
    nlohmann::json failing;
    for (const auto& line : read_lines(path)) {
        if (line.contains("call") && line["returned"] != 0 && line["error"].is_string()) {
            failing = line;
            break;
        }
    }
    REQUIRE(failing.is_object());
    CHECK(failing["call"] == "doca_rdma_create");
    CHECK(failing["returned"] == 21);
    CHECK(failing["error"] == "DOCA_ERROR_DRIVER");
    fake.reset();
}

TEST_CASE("a run without --trace after a traced one writes nothing and uses no stale trace") {
    auto& fake = FakeDoca::get();
    fake.reset();
    test::TempTree tree;
    const std::string path = tree.host("/trace.jsonl");
    traced_run(path, fake_options(3));
    CHECK(loopback::active_trace() == nullptr);
    const auto lines = read_lines(path).size();
    fake.reset();
    const auto verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::pass);
    CHECK(read_lines(path).size() == lines);
}

TEST_CASE("hex formats pointers and integers") {
    CHECK(loopback::hex(std::uint64_t{0}) == "0x0");
    CHECK(loopback::hex(std::uint64_t{0x1a2b}) == "0x1a2b");
    CHECK(loopback::hex(static_cast<const void*>(nullptr)) == "NULL");
}

}  // namespace rdmi
