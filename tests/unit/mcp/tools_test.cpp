// Tests for prepare_call(): a tool call's arguments become the command line the CLI parses, and
// what the server's flags do not allow is refused with a message the agent can act on.
#include "mcp/tools.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/option_model.hpp"

namespace rdmi::mcp {
namespace {

namespace fs = std::filesystem;
using ArgsJson = nlohmann::json;

struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("mcp-tools-" + std::to_string(::getpid()));
    Scratch() {
        fs::remove_all(dir);
        fs::create_directories(dir / "roots/one");
    }
    ~Scratch() { fs::remove_all(dir); }
    [[nodiscard]] CallPolicy policy() const {
        CallPolicy p;
        p.allowed_roots = {fs::canonical(dir / "roots").string()};
        p.scratch_dir = dir.string();
        return p;
    }
};

Result<PreparedCall> prepare(std::string_view tool, const ArgsJson& arguments,
                             const CallPolicy& p) {
    const auto* spec = find_tool(tool);
    REQUIRE(spec != nullptr);
    return prepare_call(*spec, arguments, p, 1);
}

}  // namespace

TEST_CASE("arguments become the options the option model names") {
    Scratch s;
    const auto root = (s.dir / "roots/one").string();
    auto call = prepare("symbols",
                        ArgsJson{{"root", root},
                                 {"prefix", "-doca"},
                                 {"allow_experimental", {"a", "b"}},
                                 {"timeout", 2.5}},
                        s.policy());
    REQUIRE(call);
    const std::vector<std::string> want{"symbols",
                                        "--json",
                                        "--root=" + root,
                                        "--timeout=2.5",
                                        "--prefix=-doca",
                                        "--allow-experimental=a",
                                        "--allow-experimental=b"};
    CHECK(call->argv == want);
    CHECK(call->timeout_s == doctest::Approx(2.5));
}

TEST_CASE("a positional after --, so that a value starting with '-' stays a value") {
    Scratch s;
    auto call = prepare("error", ArgsJson{{"error", "-18"}}, s.policy());
    REQUIRE(call);
    CHECK(call->argv == std::vector<std::string>{"error", "--json", "--", "-18"});
}

TEST_CASE("paths must be absolute, and a root under an allowed directory (resolved)") {
    Scratch s;
    const auto p = s.policy();
    auto relative = prepare("symbols", ArgsJson{{"lib", "lib/x.so"}}, p);
    REQUIRE_FALSE(relative);
    CHECK(relative.gap().message.find("not an absolute path") != std::string::npos);
    auto outside = prepare("report", ArgsJson{{"root", "/etc"}}, p);
    REQUIRE_FALSE(outside);
    CHECK(outside.gap().message.find("not under a directory the server allows") !=
          std::string::npos);
    // A link inside the allowed directory that leads out of it is out of it.
    fs::create_directory_symlink("/etc", s.dir / "roots/escape");
    CHECK_FALSE(prepare("report", ArgsJson{{"root", (s.dir / "roots/escape").string()}}, p));
    CHECK(prepare("report", ArgsJson{{"root", "/"}}, p));
    CHECK(prepare("report", ArgsJson{{"root", (s.dir / "roots/one").string()}}, p));
}

TEST_CASE("what the server's flags decide is not an argument, and loopback needs its flag") {
    Scratch s;
    auto p = s.policy();
    CHECK_FALSE(prepare("report", ArgsJson{{"allow_untrusted_libs", true}}, p));
    CHECK_FALSE(prepare("report", ArgsJson{{"output", "/tmp/x"}}, p));
    auto loopback = prepare("loopback", ArgsJson::object(), p);
    REQUIRE_FALSE(loopback);
    CHECK(loopback.gap().message.find("--allow-loopback") != std::string::npos);
    p.allow_loopback = true;
    p.allow_untrusted_libs = true;
    auto allowed = prepare("loopback", ArgsJson::object(), p);
    REQUIRE(allowed);
    CHECK(allowed->argv.back() == "--allow-untrusted-libs");
}

TEST_CASE("check's arguments are the policy's fields, written to a private file") {
    Scratch s;
    auto call =
        prepare("check", ArgsJson{{"min_version", "3.2"}, {"fail_on_warn", true}}, s.policy());
    REQUIRE(call);
    REQUIRE(call->scratch_files.size() == 1);
    CHECK(call->argv.back() == "--policy=" + call->scratch_files[0]);
    CHECK(std::find(call->argv.begin(), call->argv.end(), "--fail-on-warn") != call->argv.end());
    // A later argument refused: the policy already written is not left behind.
    auto refused =
        prepare("check", ArgsJson{{"min_version", "3.2"}, {"root", "relative"}}, s.policy());
    REQUIRE_FALSE(refused);
    CHECK(fs::is_empty(s.dir / "roots/one"));
    std::size_t left = 0;
    for (const auto& entry : fs::directory_iterator(s.dir)) left += entry.is_regular_file();
    CHECK(left == 1);  // the first call's policy only
}

TEST_CASE("every tool's inputSchema is the option model's, plus what the server adds") {
    for (const auto& tool : tool_specs()) {
        CAPTURE(tool.name);
        const auto schema = input_schema(tool);
        CHECK(schema["type"] == "object");
        CHECK(schema["additionalProperties"] == false);
        const auto model = cli::input_schema(tool.name);
        for (const auto& [name, property] : model["properties"].items()) {
            if (tool.name == "check" && !schema["properties"].contains(name)) continue;
            CHECK(schema["properties"].contains(name));
        }
        for (const auto* forbidden : {"output", "json", "color", "quiet", "verbose"})
            CHECK_FALSE(schema["properties"].contains(forbidden));
    }
    const auto* diff = find_tool("diff");
    REQUIRE(diff != nullptr);
    CHECK(input_schema(*diff)["properties"]["a"].contains("anyOf"));
}

}  // namespace rdmi::mcp
