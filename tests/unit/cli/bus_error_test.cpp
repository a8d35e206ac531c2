// Tests for the SIGBUS handler: a mapped file that shrinks under the run ends it with a line
// naming the file, the error document when --json, and exit 2 — never a death by signal. The
// cases run in a forked child (the handler _exits).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/interrupt.hpp"
#include "os/rooted_fs.hpp"
#include "support/child_output.hpp"

namespace rdmi::cli {
// Named: the unity build joins this file with others, whose helpers may have these names.
namespace bus_error_test {

// In a child: maps `path`, truncates it to nothing and reads a byte of the mapping.
test::ChildOutput read_shrunk_mapping(const std::string& path, bool json) {
    return test::run_in_child([&] {
        reset_output_owner();
        install_bus_error_handler(json);
        auto fs = RootedFs::open("/");
        if (!fs) ::_exit(10);
        auto mapped = fs->map_file(path, std::size_t{1} << 20U);
        if (!mapped) ::_exit(11);
        if (::truncate(path.c_str(), 0) != 0) ::_exit(12);
        const volatile char byte = (*mapped)->bytes()[100];
        (void)byte;  // not reached: the read faults
    });
}

std::string shrinking_file(const std::string& name) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("rdmi-bus-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << std::string(8192, 'x');
    return path;
}

}  // namespace bus_error_test

using bus_error_test::read_shrunk_mapping;
using bus_error_test::shrinking_file;

TEST_CASE("a mapped file that shrinks ends the run with exit 2 and its name, not SIGBUS") {
    const std::string path = shrinking_file("doca_\"quoted\".h");
    const auto r = read_shrunk_mapping(path, false);
    REQUIRE(WIFEXITED(r.status));
    CHECK(WEXITSTATUS(r.status) == 2);
    CHECK(r.err == "rdmi-probe: " + path + ": the file shrank while it was mapped (SIGBUS)\n");
    CHECK(r.out.empty());
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST_CASE("with --json the shrunk mapping gives the error document, the file named in it") {
    const std::string path = shrinking_file("doca_\"quoted\"\\h\xc3\xa9.h");
    const auto r = read_shrunk_mapping(path, true);
    REQUIRE(WIFEXITED(r.status));
    CHECK(WEXITSTATUS(r.status) == 2);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["error"]["exit_code"] == 2);
    const std::string message = doc["error"]["message"];
    // Bytes of 0x80 and above are '?' in the document; quotes and backslashes survive.
    CHECK(message.find("doca_\"quoted\"\\h??.h: the file shrank while it was mapped (SIGBUS)") !=
          std::string::npos);
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

}  // namespace rdmi::cli
