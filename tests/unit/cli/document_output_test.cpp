// Tests for the output protocol: who reads a document decides how it is escaped and which mode
// a new --output file gets; a streamed document reaches --output whole and stdout piece by piece;
// stdout can be chosen whatever --output says; fail() writes the error document only for a
// machine reader. Real files in a temporary tree; what goes to stdout is read from a forked
// child's pipe.
#include "cli/document_output.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli/watchdog.hpp"
#include "support/child_output.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::cli {
namespace {

using namespace std::chrono_literals;

spdlog::logger& quiet_log() {
    static spdlog::logger logger("document-output-test",
                                 std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

// The protocol as a run builds it: a watchdog far off, no status line.
struct Output {
    explicit Output(OutputSettings settings)
        : watchdog(std::chrono::steady_clock::now() + 1h, 3600, settings.json),
          output(std::move(settings), quiet_log(), nullptr, watchdog) {}
    Watchdog watchdog;
    DocumentOutput output;
};

OutputSettings to_file(const std::string& path, bool json = false) {
    return OutputSettings{json, path, 2000ms, {}};
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

unsigned mode_of(const std::string& path) {
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return st.st_mode & 07777U;
}

// Restores the umask a case set.
struct Umask {
    explicit Umask(mode_t mask) : old(::umask(mask)) {}
    ~Umask() { ::umask(old); }
    Umask(const Umask&) = delete;
    Umask& operator=(const Umask&) = delete;
    mode_t old;
};

DocumentProducer three_pieces() {
    return
        [](const json::DocumentSink& sink) { return sink("{\"a\": ") && sink("1") && sink("}\n"); };
}

}  // namespace

TEST_CASE("the reader decides the mode of a new --output file") {
    const test::TempTree tree;
    const Umask strict(077);
    const std::string daemon = tree.host("/daemon.prom");
    const std::string owner = tree.host("/bundle.tar.gz");
    const std::string machine = tree.host("/report.json");
    CHECK(Output(to_file(daemon)).output.emit({std::string("m 1\n"), Reader::daemon}));
    CHECK(Output(to_file(owner)).output.emit({std::string("x"), Reader::owner}));
    CHECK(Output(to_file(machine)).output.emit({std::string("{}\n"), Reader::machine}));
    CHECK(mode_of(daemon) == 0644U);  // another service's user reads it, whatever the umask
    CHECK(mode_of(owner) == 0600U);
    CHECK(mode_of(machine) == 0600U);  // 0644 less the umask
    CHECK(read_all(daemon) == "m 1\n");
}

TEST_CASE("a human document is escaped for the terminal, a machine one is written as it is") {
    const test::TempTree tree;
    // A bell and a cursor-up sequence: controls, unlike the program's own SGR colours.
    const std::string text = std::string("name: eth\x07\x1b[1A0\n");
    const std::string human = tree.host("/human.txt");
    const std::string machine = tree.host("/machine.txt");
    CHECK(Output(to_file(human)).output.emit({text, Reader::human}));
    CHECK(Output(to_file(machine)).output.emit({text, Reader::machine}));
    CHECK(read_all(machine) == text);
    const std::string shown = read_all(human);
    CHECK(shown.find('\x07') == std::string::npos);
    CHECK(shown.find('\x1b') == std::string::npos);
    CHECK(shown.back() == '\n');  // the layout is kept
    // as_asked: human without --json, machine with it.
    const std::string asked_text = tree.host("/asked.txt");
    const std::string asked_json = tree.host("/asked.json");
    CHECK(Output(to_file(asked_text)).output.emit(text));
    CHECK(Output(to_file(asked_json, true)).output.emit(text));
    CHECK(read_all(asked_text) == shown);
    CHECK(read_all(asked_json) == text);
}

TEST_CASE("a streamed document reaches --output whole and stdout piece by piece") {
    const test::TempTree tree;
    const std::string file = tree.host("/streamed.json");
    CHECK(Output(to_file(file, true)).output.finish(Document::streamed(three_pieces()), 7) == 7);
    CHECK(read_all(file) == "{\"a\": 1}\n");
    (void)std::fflush(stdout);  // the child would write the test runner's buffered output again
    const auto child = test::run_in_child([] {
        const Output out(to_file("", true));
        std::_Exit(out.output.finish(Document::streamed(three_pieces()), 3));
    });
    REQUIRE(WIFEXITED(child.status));
    CHECK(WEXITSTATUS(child.status) == 3);
    CHECK(child.out == "{\"a\": 1}\n");
}

TEST_CASE("standard_output writes to stdout whatever --output says") {
    const test::TempTree tree;
    const std::string file = tree.host("/bundle.tar.gz");
    (void)std::fflush(stdout);  // the child would write the test runner's buffered output again
    const auto child = test::run_in_child([&file] {
        const Output out(to_file(file));
        if (!out.output.emit(std::string("summary\n"), Destination::standard_output)) std::_Exit(1);
    });
    REQUIRE(WIFEXITED(child.status));
    CHECK(WEXITSTATUS(child.status) == 0);
    CHECK(child.out == "summary\n");
    CHECK_FALSE(std::filesystem::exists(file));
}

TEST_CASE("fail writes the error document for a machine reader only") {
    const test::TempTree tree;
    const std::string json_file = tree.host("/error.json");
    const std::string text_file = tree.host("/error.txt");
    CHECK(Output(to_file(json_file, true)).output.fail("bad.json: not JSON") == kExitUsage);
    const auto error = nlohmann::json::parse(read_all(json_file));
    CHECK(error["error"]["message"] == "bad.json: not JSON");
    CHECK(error["error"]["exit_code"] == kExitUsage);
    CHECK(Output(to_file(text_file, true)).output.fail("x", Reader::human) == kExitUsage);
    CHECK(Output(to_file(text_file)).output.fail("x") == kExitUsage);
    CHECK_FALSE(std::filesystem::exists(text_file));
    // A check --format json run without --json: the error document all the same.
    CHECK(Output(to_file(text_file)).output.fail("x", Reader::machine) == kExitUsage);
    CHECK(std::filesystem::exists(text_file));
}

TEST_CASE("a document that cannot be written is a usage error with the reason logged") {
    const test::TempTree tree;
    const Output out(to_file(tree.host("/no/such/dir/report.json")));
    CHECK(out.output.finish(std::string("{}\n"), 0) == kExitUsage);
}

}  // namespace rdmi::cli
