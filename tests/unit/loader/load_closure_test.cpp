// Tests for the load-closure check over the fixture libraries of tests/fixtures/trust copied into
// private and writable directories.
#include "loader/load_closure.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>

#include "loader/library_trust.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

const std::string kTrust = std::string(RDMI_TEST_FIXTURES_DIR) + "/trust";

void copy(const std::string& from, const std::string& to) {
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
}

// A private tree: <root>/trusted holds the fixture libibverbs, <root>/evil the dependency.
struct VerbsTree {
    test::TempTree tree;
    VerbsTree() {
        ::chmod(tree.root().c_str(), 0755);
        tree.mkdir("/trusted", 0755);
        tree.mkdir("/evil", 0755);
        copy(kTrust + "/ibverbs/libibverbs.so.1", tree.host("/trusted/libibverbs.so.1"));
        copy(kTrust + "/dep/librdmi-fixture-dep.so.1", tree.host("/evil/librdmi-fixture-dep.so.1"));
    }
    [[nodiscard]] LoadEnvironment env() const {
        LoadEnvironment e = program_load_environment();
        e.ld_library_path = tree.host("/trusted") + ":" + tree.host("/evil");
        return e;
    }
    [[nodiscard]] std::string lib() const { return tree.host("/trusted/libibverbs.so.1"); }
};

}  // namespace

TEST_CASE("a closure of trusted files in private directories passes") {
    VerbsTree t;
    const auto verdict = check_load_closure(t.lib(), LoadKind::library, t.env());
    CHECK_FALSE(verdict.gap.has_value());
    REQUIRE(verdict.members.size() >= 2);
    CHECK(verdict.members[1] == t.tree.host("/evil/librdmi-fixture-dep.so.1"));
}

TEST_CASE("a dependency from a world-writable LD_LIBRARY_PATH directory is refused") {
    VerbsTree t;
    t.tree.chmod("/evil", 0777);
    const auto verdict = check_load_closure(t.lib(), LoadKind::library, t.env());
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->reason == GapReason::untrusted);
    CHECK(verdict.gap->message.find(t.tree.host("/evil") + ": writable by others") == 0);
    CHECK(verdict.gap->message.find("chmod go-w") != std::string::npos);
    CHECK(verdict.gap->message.find("librdmi-fixture-dep.so.1 (needed by " + t.lib()) !=
          std::string::npos);
}

TEST_CASE("a sticky world-writable search directory is refused like /tmp would be") {
    VerbsTree t;
    t.tree.chmod("/evil", 01777);
    const auto verdict = check_load_closure(t.lib(), LoadKind::library, t.env());
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find("mode 1777") != std::string::npos);
}

TEST_CASE("a writable directory searched before the winning one is refused") {
    VerbsTree t;
    t.tree.mkdir("/early", 0777);
    auto env = t.env();
    env.ld_library_path =
        t.tree.host("/trusted") + ":" + t.tree.host("/early") + ":" + t.tree.host("/evil");
    const auto verdict = check_load_closure(t.lib(), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.tree.host("/early") + ": writable by others") == 0);
}

TEST_CASE("a missing search directory is judged by the ancestor that could create it") {
    VerbsTree t;
    t.tree.mkdir("/open", 0777);
    auto env = t.env();
    env.ld_library_path = t.tree.host("/open/not-yet") + ":" + t.tree.host("/evil");
    const auto verdict = check_load_closure(t.lib(), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find("does not exist; it could be created") != std::string::npos);
}

TEST_CASE("an empty LD_LIBRARY_PATH entry is the working directory, and is checked") {
    VerbsTree t;
    auto env = t.env();
    env.cwd = t.tree.host("/evil");
    t.tree.chmod("/evil", 0777);
    env.ld_library_path = ":" + t.tree.host("/trusted");
    const auto verdict = check_load_closure(t.lib(), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.tree.host("/evil") + ": writable by others") == 0);
}

TEST_CASE("DT_RUNPATH with $ORIGIN into a writable directory is refused") {
    test::TempTree tree;
    ::chmod(tree.root().c_str(), 0755);
    tree.mkdir("/prefix/lib", 0755);
    tree.mkdir("/prefix/dep", 0777);
    copy(kTrust + "/runpath-doca/lib/libdoca_rdmi.so.3",
         tree.host("/prefix/lib/libdoca_rdmi.so.3"));
    copy(kTrust + "/planted-doca/libdoca_common.so.3",
         tree.host("/prefix/dep/libdoca_common.so.3"));
    const auto verdict = check_load_closure(tree.host("/prefix/lib/libdoca_rdmi.so.3"),
                                            LoadKind::library, program_load_environment());
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(tree.host("/prefix/lib/../dep") + ": writable by others") == 0);
    CHECK(verdict.gap->message.find("DT_RUNPATH of") != std::string::npos);
}

TEST_CASE("RDMAV_DRIVERS naming a provider in a writable directory is refused") {
    VerbsTree t;
    t.tree.mkdir("/providers", 0777);
    auto env = t.env();
    env.rdmav_drivers = t.tree.host("/providers/mlx5");
    auto verdict = check_load_closure(t.lib(), LoadKind::ibverbs, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.tree.host("/providers") + ": writable by others") == 0);
    CHECK(verdict.gap->message.find("RDMAV_DRIVERS") != std::string::npos);
    // IBV_DRIVERS counts when RDMAV_DRIVERS is unset; a plain library loads no providers.
    env.ibv_drivers = env.rdmav_drivers;
    env.rdmav_drivers.reset();
    verdict = check_load_closure(t.lib(), LoadKind::ibverbs, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find("IBV_DRIVERS") != std::string::npos);
    CHECK_FALSE(check_load_closure(t.lib(), LoadKind::library, env).gap.has_value());
}

TEST_CASE("a provider file named by RDMAV_DRIVERS is a member of the closure") {
    VerbsTree t;
    t.tree.mkdir("/providers", 0755);
    copy(kTrust + "/dep/librdmi-fixture-dep.so.1", t.tree.host("/providers/mlx5-rdmav34.so"));
    auto env = t.env();
    env.rdmav_drivers = t.tree.host("/providers/mlx5");
    auto verdict = check_load_closure(t.lib(), LoadKind::ibverbs, env);
    CHECK_FALSE(verdict.gap.has_value());
    CHECK(std::find(verdict.members.begin(), verdict.members.end(),
                    t.tree.host("/providers/mlx5-rdmav34.so")) != verdict.members.end());
    t.tree.chmod("/providers/mlx5-rdmav34.so", 0666);
    verdict = check_load_closure(t.lib(), LoadKind::ibverbs, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find("mlx5-rdmav34.so: writable by others") != std::string::npos);
}

TEST_CASE("a program's closure ignores LD_LIBRARY_PATH: run_process cleans the environment") {
    VerbsTree t;
    t.tree.chmod("/evil", 0777);
    auto env = program_load_environment();
    CHECK_FALSE(env.ld_library_path.has_value());
    // Without LD_LIBRARY_PATH the dependency is not found at all: nothing to run from /evil.
    CHECK_FALSE(check_load_closure(t.lib(), LoadKind::program, env).gap.has_value());
}

TEST_CASE("the process's own environment: secure mode, loaded objects, LD_LIBRARY_PATH") {
    MapEnv vars;
    vars.set("LD_LIBRARY_PATH", "/x:/y");
    vars.set("RDMAV_DRIVERS", "mlx5");
    const auto env = current_load_environment(vars);
    CHECK_FALSE(env.secure);
    CHECK(env.ld_library_path == "/x:/y");
    CHECK(env.rdmav_drivers == "mlx5");
    CHECK(env.loaded.contains("libc.so.6"));
}

TEST_CASE("a search directory must not be writable even when sticky") {
    test::TempTree tree;
    ::chmod(tree.root().c_str(), 0755);
    tree.mkdir("/sticky", 01777);
    tree.mkdir("/private", 0755);
    CHECK(check_search_dir_trust(tree.host("/sticky")).has_value());
    CHECK_FALSE(check_search_dir_trust(tree.host("/private")).has_value());
    // ... while a directory below a sticky one that the user owns is fine.
    tree.mkdir("/sticky/mine", 0755);
    CHECK_FALSE(check_search_dir_trust(tree.host("/sticky/mine")).has_value());
    CHECK(check_search_dir_trust("relative/dir").has_value());
}

namespace {

// The provider strings as a walk over every NUL-terminated string of the image finds them:
// the definition ibverbs_provider_strings() must agree with on every input.
IbverbsProviderStrings provider_strings_by_walk(std::string_view bytes) {
    IbverbsProviderStrings out;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        auto end = bytes.find('\0', pos);
        if (end == std::string_view::npos) end = bytes.size();
        const std::string_view s = bytes.substr(pos, end - pos);
        pos = end + 1;
        if (s.size() < 4 || s.size() > 4096) continue;
        if (s.front() == '/' && s.ends_with("/libibverbs.d")) out.config_dir = std::string(s);
        const auto at = s.find("lib%s-rdmav");
        if (at == std::string_view::npos || !s.ends_with(".so")) continue;
        out.suffix = std::string(s.substr(at + 5));
        if (at > 1 && s.front() == '/') out.provider_dir = std::string(s.substr(0, at - 1));
    }
    return out;
}

void check_same(std::string_view image) {
    const auto fast = ibverbs_provider_strings(image);
    const auto walk = provider_strings_by_walk(image);
    CHECK(fast.config_dir == walk.config_dir);
    CHECK(fast.suffix == walk.suffix);
    CHECK(fast.provider_dir == walk.provider_dir);
}

}  // namespace

TEST_CASE("provider strings: rdma-core's spellings, the last one wins") {
    using namespace std::string_literals;
    const std::string image =
        "\x7f"
        "ELF\0/etc/libibverbs.d\0junk\0/usr/lib/x86_64-linux-gnu/libibverbs/lib%s-rdmav34.so\0"
        "/opt/rdma/libibverbs.d\0lib%s-rdmav25.so\0tail"s;
    const auto found = ibverbs_provider_strings(image);
    CHECK(found.config_dir == "/opt/rdma/libibverbs.d");
    CHECK(found.suffix == "-rdmav25.so");
    // The later, relative spelling names no directory: the earlier one's stays.
    CHECK(found.provider_dir == "/usr/lib/x86_64-linux-gnu/libibverbs");
    check_same(image);
    CHECK(ibverbs_provider_strings("no providers here").suffix.empty());
    CHECK(ibverbs_provider_strings("").config_dir == "/etc/libibverbs.d");
}

TEST_CASE("provider strings: length limits, missing NULs and the file's ends") {
    using namespace std::string_literals;
    const std::string pattern = "/x/lib%s-rdmav34.so";
    const std::string conf = "/libibverbs.d";
    for (const std::size_t pad : {0UL, 1UL, 4000UL, 4076UL, 4077UL, 4078UL, 4082UL, 4083UL, 4084UL,
                                  4085UL, 5000UL, 9000UL}) {
        CAPTURE(pad);
        const std::string filler(pad, 'a');
        // The match at the start, at the end, between NULs, inside one long run.
        check_same(pattern + filler);
        check_same(filler + pattern);
        check_same("\0"s + filler + pattern + "\0"s);
        check_same("/" + filler + conf);
        check_same("/" + filler + conf + "\0"s + "/" + conf);
        check_same(filler + "\0"s + "/" + filler + conf + "\0"s + filler);
        check_same(filler + pattern + filler + pattern + "\0"s);
    }
    // Short strings: "/libibverbs.d" alone qualifies; ".so" must end the string.
    check_same("\0/libibverbs.d\0"s);
    check_same("lib%s-rdmav.so\0lib%s-rdmav\0"s);
}

TEST_CASE("provider strings: random images agree with a walk over every string") {
    // Deterministic pseudo-random pieces, so that a failure reproduces.
    const std::array<std::string_view, 9> pieces{std::string_view("\0", 1),
                                                 "/",
                                                 "/libibverbs.d",
                                                 "lib%s-rdmav",
                                                 ".so",
                                                 "34",
                                                 "lib%s-rdmav34.so",
                                                 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                                                 "usr/lib"};
    std::uint32_t state = 12345;
    const auto next = [&state] {
        state = state * 1664525U + 1013904223U;
        return state >> 8U;
    };
    for (int round = 0; round < 2000; ++round) {
        std::string image;
        const std::uint32_t count = next() % 40;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t pick = next() % (pieces.size() + 1);
            if (pick == pieces.size()) {
                image.append(next() % 3000, 'b');  // long runs near the 4096-byte limit
            } else {
                image.append(pieces[pick]);
            }
        }
        CAPTURE(round);
        check_same(image);
    }
}

}  // namespace rdmi
