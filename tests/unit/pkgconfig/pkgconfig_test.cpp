// Tests for PkgConfig: search rules, in-root paths, sysroot, malformed and unreadable candidates,
// and agreement with the real `pkg-config` command.
#include "pkgconfig/pkgconfig.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "os/rooted_fs.hpp"
#include "support/as_unprivileged.hpp"
#include "support/native_arch.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::pkgconfig {
namespace {

using Vars = std::map<std::string, std::string, std::less<>>;

RootedFs open_root(const std::string& root) {
    auto fs = RootedFs::open(root);
    REQUIRE(fs.ok());
    return fs.value();
}

std::string pc_text(std::string_view name, std::string_view version, std::string_view extra = "") {
    return "prefix=/usr\nlibdir=${prefix}/lib\nincludedir=${prefix}/include\nName: " +
           std::string(name) + "\nDescription: test module\nVersion: " + std::string(version) +
           "\n" + std::string(extra);
}

std::vector<std::string> paths_of(const std::vector<SearchDir>& dirs) {
    std::vector<std::string> out;
    for (const auto& dir : dirs) out.push_back(dir.path);
    return out;
}

// An Fs that refuses some paths as EACCES would: root passes every permission check, so this
// is how the tests see permission_denied when they run as root.
class DenyingFs final : public Fs {
  public:
    DenyingFs(const Fs& inner, std::set<std::string> denied)
        : inner_(inner), denied_(std::move(denied)) {}
    Result<std::string> read_file(std::string_view path, std::size_t cap) const override {
        if (auto gap = check(path)) return *gap;
        return inner_.read_file(path, cap);
    }
    Result<std::vector<DirEntry>> list_dir(std::string_view path) const override {
        if (auto gap = check(path)) return *gap;
        return inner_.list_dir(path);
    }
    Result<FileInfo> stat(std::string_view path, bool follow) const override {
        return inner_.stat(path, follow);
    }
    Result<std::string> read_link(std::string_view path) const override {
        return inner_.read_link(path);
    }
    Result<std::string> real_path(std::string_view path) const override {
        return inner_.real_path(path);
    }
    Result<std::string> host_path(std::string_view path) const override {
        return inner_.host_path(path);
    }
    const std::string& root() const override { return inner_.root(); }

  private:
    std::optional<Gap> check(std::string_view path) const {
        for (const auto& deny : denied_) {
            if (path == deny || (path.substr(0, deny.size()) == deny && path.size() > deny.size() &&
                                 path[deny.size()] == '/'))
                return Gap{GapReason::permission_denied, std::string(path) + ": permission denied"};
        }
        return std::nullopt;
    }
    const Fs& inner_;
    std::set<std::string> denied_;
};

// Runs the real pkg-config with a controlled environment; nullopt when it fails.
std::optional<std::string> run_pkg_config(const std::string& env, const std::string& args) {
    const std::string cmd =
        "env -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR -u PKG_CONFIG_SYSROOT_DIR "
        "-u PKG_CONFIG_FDO_SYSROOT_RULES -u PKG_CONFIG_DISABLE_UNINSTALLED " +
        env + " /usr/bin/pkg-config " + args + " 2>/dev/null";
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (pipe == nullptr) return std::nullopt;
    std::string out;
    std::array<char, 4096> buf{};
    std::size_t got = 0;
    while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), got);
    if (::pclose(pipe) != 0) return std::nullopt;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

bool have_pkg_config() {
    return ::access("/usr/bin/pkg-config", X_OK) == 0;
}

// The pkg-config command answers from its own libpkgconf, compiled for its own machine; its
// defaults (multiarch directories) match ours only when it is built for the machine we are. Under
// a user-mode emulator (the aarch64 build's tests) /usr/bin/pkg-config is the host's x86-64 one.
bool pkg_config_is_ours() {
    const auto machine = test::elf_machine("/usr/bin/pkg-config");
    if (machine && *machine != test::kNativeMachine) {
        MESSAGE("/usr/bin/pkg-config is an " << *machine << " program and this test runs as "
                                             << test::kNativeMachine
                                             << ": its compiled-in search path is not ours; "
                                                "comparison skipped");
        return false;
    }
    return true;
}

}  // namespace

TEST_CASE("default_search_dirs is the compiled-in pc_path, including dirs missing on the host") {
    const auto dirs = default_search_dirs();
    REQUIRE_FALSE(dirs.empty());
    for (const auto& dir : dirs) CHECK(dir.front() == '/');
    // Whatever the build, it agrees with what the pkg-config command reports as its pc_path.
    if (have_pkg_config() && pkg_config_is_ours()) {
        auto pc_path = run_pkg_config("", "--variable=pc_path pkg-config");
        REQUIRE(pc_path);
        std::string joined;
        for (const auto& dir : dirs) joined += (joined.empty() ? "" : ":") + dir;
        CHECK(joined == *pc_path);
    }
#if defined(__x86_64__)
    // Debian's libpkgconf3 on x86_64.
    if (dirs.size() == 6) {
        CHECK(dirs.front() == "/usr/local/lib/x86_64-linux-gnu/pkgconfig");
        CHECK(dirs.back() == "/usr/share/pkgconfig");
    }
#endif
}

TEST_CASE("search path: PKG_CONFIG_PATH, then defaults, then extra dirs") {
    test::TempTree tree;
    const auto fs = open_root(tree.root());
    MapEnv env(Vars{{"PKG_CONFIG_PATH", "/a/pkgconfig::/b/pkgconfig/"}});
    const PkgConfig pc(fs, env, {"/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"});
    const auto& path = pc.search_path();
    const auto defaults = default_search_dirs();
    REQUIRE(path.size() == 3 + defaults.size());
    CHECK(path[0].path == "/a/pkgconfig");
    CHECK(path[0].origin == DirOrigin::pkg_config_path);
    CHECK(path[1].path == "/b/pkgconfig");  // empty entry dropped, trailing slash dropped
    CHECK(path[2].path == defaults[0]);
    CHECK(path[2].origin == DirOrigin::default_dirs);
    CHECK(path.back().path == "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig");
    CHECK(path.back().origin == DirOrigin::extra);
    CHECK(to_string(path[0].origin) == "PKG_CONFIG_PATH");
    CHECK(to_string(path.back().origin) == "extra");
}

TEST_CASE("search path: PKG_CONFIG_LIBDIR replaces the defaults, even when empty") {
    test::TempTree tree;
    const auto fs = open_root(tree.root());
    MapEnv env(
        Vars{{"PKG_CONFIG_PATH", "/first"}, {"PKG_CONFIG_LIBDIR", "/sysroot/lib/pkgconfig"}});
    const PkgConfig pc(fs, env);
    CHECK(paths_of(pc.search_path()) ==
          std::vector<std::string>{"/first", "/sysroot/lib/pkgconfig"});
    CHECK(pc.search_path()[1].origin == DirOrigin::pkg_config_libdir);
    MapEnv empty(Vars{{"PKG_CONFIG_LIBDIR", ""}});
    const PkgConfig none(fs, empty);
    CHECK(none.search_path().empty());
    auto missing = none.find("doca-common");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.gap().reason == GapReason::not_found);
    CHECK(missing.gap().message ==
          "doca-common: doca-common.pc not found; the search path is empty");
}

TEST_CASE("find: PKG_CONFIG_PATH wins over defaults and the first match wins") {
    test::TempTree tree;
    // The distribution's multiarch directory, one of the compiled-in defaults of this machine.
    const std::string distro = "/usr/lib/" + std::string(test::kNativeTriplet) + "/pkgconfig";
    tree.write(distro + "/doca-common.pc", pc_text("doca-common", "2.10.0087"));
    tree.write("/usr/share/pkgconfig/doca-common.pc", pc_text("doca-common", "1.0"));
    tree.write("/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/doca-common.pc",
               pc_text("doca-common", "3.3.0"));
    tree.write("/opt/other/pkgconfig/doca-common.pc", pc_text("doca-common", "3.0.0058"));
    const auto fs = open_root(tree.root());

    MapEnv no_env;
    const PkgConfig defaults(fs, no_env, {"/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"});
    auto sys = defaults.find("doca-common");
    REQUIRE(sys.ok());
    // Found inside the root, never on the host (which has no doca-common.pc at all).
    CHECK(sys->version == "2.10.0087");
    CHECK(sys->pc_path == distro + "/doca-common.pc");
    CHECK(sys->variables.at("pcfiledir") == distro);

    MapEnv env(
        Vars{{"PKG_CONFIG_PATH",
              "/nowhere:/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig:/opt/other/pkgconfig"}});
    const PkgConfig with_path(fs, env);
    auto doca = with_path.find("doca-common");
    REQUIRE(doca.ok());
    CHECK(doca->version == "3.3.0");
    CHECK(doca->pc_path == "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/doca-common.pc");
    CHECK(doca->variables.at("pcfiledir") == "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig");
    CHECK(doca->warnings.empty());

    MapEnv libdir(Vars{{"PKG_CONFIG_LIBDIR", "/opt/other/pkgconfig"}});
    auto other = PkgConfig(fs, libdir).find("doca-common");
    REQUIRE(other.ok());
    CHECK(other->version == "3.0.0058");

    auto missing = with_path.find("doca-rdmi");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.gap().reason == GapReason::not_found);
    CHECK(missing.gap().message ==
          "doca-rdmi: doca-rdmi.pc not found; searched /nowhere:/opt/mellanox/doca/lib/"
          "x86_64-linux-gnu/pkgconfig:/opt/other/pkgconfig:" +
              [] {
                  std::string d;
                  for (const auto& dir : default_search_dirs()) d += (d.empty() ? "" : ":") + dir;
                  return d;
              }());
}

TEST_CASE("may_find is false only where find() says not_found without reading a file") {
    test::TempTree tree;
    tree.write("/opt/a/pkgconfig/doca-one.pc", pc_text("doca-one", "1"));
    tree.write("/opt/a/pkgconfig/doca-two-uninstalled.pc", pc_text("doca-two", "2"));
    tree.write("/opt/a/pkgconfig/doca-bad.pc", "Name: x\n");  // no Version: malformed
    tree.write("/opt/b/pkgconfig/doca-three.pc", pc_text("doca-three", "3"));
    const auto fs = open_root(tree.root());
    for (const char* disable : {"", "1"}) {
        CAPTURE(disable);
        Vars vars{{"PKG_CONFIG_PATH", "/opt/a/pkgconfig:/nowhere"}};
        if (*disable != '\0') vars.emplace("PKG_CONFIG_DISABLE_UNINSTALLED", disable);
        MapEnv env(vars);
        const PkgConfig pc(fs, env, {"/opt/b/pkgconfig"});
        for (const char* name : {"doca-one", "doca-two", "doca-bad", "doca-three", "doca-none",
                                 "doca-one.pc", "", "a/b", "/opt/a/pkgconfig/doca-one.pc"}) {
            CAPTURE(name);
            const bool may = pc.may_find(name);
            auto found = pc.find(name);
            // Never false for a module find() can see, or one it cannot read.
            if (!may) {
                REQUIRE_FALSE(found.ok());
                CHECK(found.gap().reason == GapReason::not_found);
            }
        }
        CHECK_FALSE(pc.may_find("doca-none"));
        CHECK_FALSE(pc.may_find("doca-tw"));
        CHECK(pc.may_find("doca-two") == (*disable == '\0'));
        CHECK(pc.may_find("doca-three"));
    }
}

TEST_CASE("load_file_once gives load_file's result, through a directory reader too") {
    test::TempTree tree;
    tree.write("/pc/doca-one.pc", pc_text("doca-one", "1"));
    tree.write("/pc/doca-bad.pc", "Name: x\n");
    tree.write("/elsewhere/doca-linked.pc", pc_text("doca-linked", "4"));
    tree.symlink("/elsewhere/doca-linked.pc", "/pc/doca-linked.pc");
    const auto fs = open_root(tree.root());
    MapEnv no_env;
    const PkgConfig pc(fs, no_env);
    const auto dir = fs.dir_files("/pc");
    for (const char* path :
         {"/pc/doca-one.pc", "/pc/doca-bad.pc", "/pc/doca-linked.pc", "/pc/doca-missing.pc"}) {
        CAPTURE(path);
        auto once = pc.load_file_once(path, dir.get());
        auto cached = pc.load_file(path);
        REQUIRE(once.ok() == cached.ok());
        if (cached.ok()) {
            CHECK(once->version == cached->version);
            CHECK(once->pc_path == cached->pc_path);
            CHECK(once->variables == cached->variables);
        } else {
            CHECK(once.gap().message == cached.gap().message);
        }
    }
    CHECK(pc.load_file_once("/pc/doca-linked.pc", dir.get())->variables.at("pcfiledir") == "/pc");
}

TEST_CASE("find: pcfiledir-relative prefixes resolve inside the root") {
    test::TempTree tree;
    tree.write("/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/doca-dpa.pc",
               "prefix=${pcfiledir}/../../..\nlibdir=${prefix}/lib/x86_64-linux-gnu\n"
               "Name: doca-dpa\nDescription: d\nVersion: 3.3.0\nLibs: -L${libdir} -ldoca_dpa\n");
    const auto fs = open_root(tree.root());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"}});
    auto dpa = PkgConfig(fs, env).find("doca-dpa");
    REQUIRE(dpa.ok());
    CHECK(dpa->variables.at("prefix") ==
          "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/../../..");
    CHECK(fs.real_path(dpa->variables.at("libdir")).value() ==
          "/opt/mellanox/doca/lib/x86_64-linux-gnu");
}

TEST_CASE("find: <name>-uninstalled.pc first, unless PKG_CONFIG_DISABLE_UNINSTALLED") {
    test::TempTree tree;
    tree.write("/pc/doca-verbs.pc", pc_text("doca-verbs", "3.3.0"));
    tree.write("/pc/doca-verbs-uninstalled.pc", pc_text("doca-verbs", "3.4.0-dev"));
    const auto fs = open_root(tree.root());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/pc"}});
    auto verbs = PkgConfig(fs, env).find("doca-verbs");
    REQUIRE(verbs.ok());
    CHECK(verbs->version == "3.4.0-dev");
    CHECK(verbs->uninstalled);
    CHECK(verbs->name == "doca-verbs");
    env.set("PKG_CONFIG_DISABLE_UNINSTALLED", "1");
    auto installed = PkgConfig(fs, env).find("doca-verbs");
    REQUIRE(installed.ok());
    CHECK(installed->version == "3.3.0");
    CHECK_FALSE(installed->uninstalled);
}

TEST_CASE("find: a name ending in .pc is a file path; bad names are refused") {
    test::TempTree tree;
    tree.write("/x/thing.pc", pc_text("thing", "1"));
    const auto fs = open_root(tree.root());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/nowhere"}});
    const PkgConfig pc(fs, env);
    auto thing = pc.find("/x/thing.pc");
    REQUIRE(thing.ok());
    CHECK(thing->name == "thing");
    CHECK(pc.find("../x/thing").gap().message == "'../x/thing': not a module name");
    CHECK(pc.find("").gap().reason == GapReason::not_found);
}

TEST_CASE("sysroot: PKG_CONFIG_SYSROOT_DIR prefixes paths as pkg-config does") {
    test::TempTree tree;
    tree.write("/sysroot/usr/lib/pkgconfig/doca-common.pc",
               pc_text("doca-common", "3.3.0",
                       "sr=${pc_sysrootdir}\nLibs: -L${libdir} -ldoca_common\n"
                       "Cflags: -I${includedir}\n"));
    const auto fs = open_root(tree.root());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/sysroot/usr/lib/pkgconfig"},
                    {"PKG_CONFIG_SYSROOT_DIR", "/sysroot"}});
    const PkgConfig pc(fs, env);
    REQUIRE(pc.parse_options().sysroot == std::optional<std::string>("/sysroot"));
    auto m = pc.find("doca-common");
    REQUIRE(m.ok());
    CHECK(m->variables.at("libdir") == "/sysroot/usr/lib");
    CHECK(m->variables.at("sr") == "/sysroot");
    CHECK(m->variables.at("pcfiledir") == "/sysroot/usr/lib/pkgconfig");
    CHECK(m->libs == std::vector<std::string>{"-L/sysroot/usr/lib", "-ldoca_common"});
    CHECK(m->cflags == std::vector<std::string>{"-I/sysroot/usr/include"});

    env.set("PKG_CONFIG_FDO_SYSROOT_RULES", "1");
    auto fdo = PkgConfig(fs, env).find("doca-common");
    REQUIRE(fdo.ok());
    CHECK(fdo->variables.at("libdir") == "/usr/lib");
    CHECK(fdo->libs.at(0) == "-L/sysroot/usr/lib");

    MapEnv plain(Vars{{"PKG_CONFIG_LIBDIR", "/sysroot/usr/lib/pkgconfig"}});
    auto none = PkgConfig(fs, plain).find("doca-common");
    REQUIRE(none.ok());
    CHECK(none->variables.at("sr") == "/");
    CHECK(none->variables.at("libdir") == "/usr/lib");
}

TEST_CASE("find: malformed candidates are skipped like pkg-config skips them, and reported") {
    test::TempTree tree;
    tree.mkdir("/p1/m.pc");  // a directory named m.pc
    tree.fifo("/p2/m.pc");   // a FIFO: must not block
    tree.write("/p3/m.pc",
               "\x7f"
               "ELF garbage \x01\x02\x03\n");  // binary garbage
    tree.write("/p4/m.pc", "Name: m\nDescription: no version\n");
    tree.write("/p5/m.pc", pc_text("m", "3.3.0"));
    const auto fs = open_root(tree.root());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/p1:/p2:/p3:/p4:/p5"}});
    auto m = PkgConfig(fs, env).find("m");
    REQUIRE(m.ok());
    CHECK(m->version == "3.3.0");
    CHECK(m->pc_path == "/p5/m.pc");
    REQUIRE(m->warnings.size() == 4);
    CHECK(m->warnings[0] == "skipped /p1/m.pc: is a directory, not a regular file");
    CHECK(m->warnings[1] == "skipped /p2/m.pc: is a FIFO, not a regular file");
    CHECK(m->warnings[2].find("skipped /p3/m.pc: ") == 0);
    CHECK(m->warnings[3] == "skipped /p4/m.pc: file does not declare a `Version' field");

    MapEnv only_bad(Vars{{"PKG_CONFIG_LIBDIR", "/p1:/p4"}});
    auto bad = PkgConfig(fs, only_bad).find("m");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.gap().reason == GapReason::malformed);
    CHECK(bad.gap().message ==
          "m: no usable m.pc (/p1/m.pc: is a directory, not a regular file; /p4/m.pc: file does "
          "not declare a `Version' field); searched /p1:/p4");
}

TEST_CASE("load_file: every malformed file gives a one-line Gap naming the file") {
    test::TempTree tree;
    tree.mkdir("/pc/dir.pc");
    tree.fifo("/pc/fifo.pc");
    tree.write("/pc/nul.pc", std::string("Name: n\0x\nDescription: d\nVersion: 1\n", 34));
    tree.write("/pc/long.pc", pc_text("l", "1", "x=" + std::string(1000000, 'x') + "\n"));
    tree.write("/pc/huge.pc", pc_text("h", "1", "# " + std::string(2U << 20U, 'x') + "\n"));
    tree.write("/pc/cycle.pc", pc_text("c", "1", "a=${b}\nb=${a}\n"));
    tree.write("/pc/noname.pc", "Description: d\nVersion: 1\n");
    tree.write("/pc/empty.pc", "");
    tree.symlink("/../../../../../usr/lib/x86_64-linux-gnu/pkgconfig/libpkgconf.pc",
                 "/pc/escape.pc");
    const auto fs = open_root(tree.root());
    MapEnv env;
    const PkgConfig pc(fs, env);
    const auto expect = [&](const char* path, GapReason reason, const std::string& problem) {
        auto result = pc.load_file(path);
        REQUIRE_FALSE(result.ok());
        CHECK(result.gap().reason == reason);
        CHECK(result.gap().message == std::string(path) + ": " + problem);
    };
    expect("/pc/dir.pc", GapReason::malformed, "is a directory, not a regular file");
    expect("/pc/fifo.pc", GapReason::malformed, "is a FIFO, not a regular file");
    expect("/pc/nul.pc", GapReason::malformed, "contains a NUL byte at offset 7, not a text file");
    expect("/pc/long.pc", GapReason::malformed,
           "line 7 is 1000002 bytes long (libpkgconf splits lines longer than 65000)");
    expect("/pc/huge.pc", GapReason::malformed, "larger than 1048576 bytes");
    expect("/pc/cycle.pc", GapReason::malformed,
           "line 7: variable 'a' refers to itself through a -> b -> a");
    expect("/pc/noname.pc", GapReason::malformed, "file does not declare a `Name' field");
    expect("/pc/empty.pc", GapReason::malformed, "empty file");
    expect("/pc/absent.pc", GapReason::not_found, "no such file or directory");
    // The link is re-rooted: it names a file that does not exist inside the tree.
    expect("/pc/escape.pc", GapReason::not_found, "no such file or directory");
}

TEST_CASE("find/load_file: unreadable files and directories give permission_denied") {
    test::TempTree tree;
    tree.write("/locked/m.pc", pc_text("m", "9"));
    tree.write("/open/m.pc", pc_text("m", "1"));
    tree.write("/secret/s.pc", pc_text("s", "1"));
    const auto real = open_root(tree.root());
    const DenyingFs fs(real, {"/locked", "/secret/s.pc"});
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/locked:/open"}});
    const PkgConfig pc(fs, env);
    auto m = pc.find("m");
    REQUIRE(m.ok());
    CHECK(m->version == "1");
    CHECK(m->warnings.at(0) == "skipped /locked/m-uninstalled.pc: permission denied");
    auto s = pc.load_file("/secret/s.pc");
    REQUIRE_FALSE(s.ok());
    CHECK(s.gap().reason == GapReason::permission_denied);
    MapEnv locked_only(Vars{{"PKG_CONFIG_LIBDIR", "/locked"}});
    auto denied = PkgConfig(fs, locked_only).find("m");
    REQUIRE_FALSE(denied.ok());
    CHECK(denied.gap().reason == GapReason::permission_denied);
    CHECK(denied.gap().message.find("/locked/m.pc: permission denied") != std::string::npos);
    auto listing = pc.list_dir_modules("/locked");
    REQUIRE_FALSE(listing.ok());
    CHECK(listing.gap().reason == GapReason::permission_denied);

    // The real thing, where the OS enforces it (checked as nobody, so also when run as root).
    tree.write("/real/u.pc", pc_text("u", "1"), 0000);
    const PkgConfig plain(real, env);
    const test::AsUnprivileged nobody;
    CHECK(plain.load_file("/real/u.pc").gap().reason == GapReason::permission_denied);
}

TEST_CASE("list_dir_modules lists every *.pc file, following links, skipping the rest") {
    test::TempTree tree;
    const std::string dir = "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig";
    for (const char* name : {"doca-common", "doca-dpa", "doca-rdmi", "doca-verbs", "libflexio"})
        tree.write(dir + "/" + name + ".pc", pc_text(name, "3.3.0"));
    tree.symlink("doca-common.pc", dir + "/doca.pc");
    tree.symlink("missing.pc", dir + "/dangling.pc");
    tree.mkdir(dir + "/subdir.pc");
    tree.fifo(dir + "/fifo.pc");
    tree.write(dir + "/.pc", "x");
    tree.write(dir + "/README", "x");
    const auto fs = open_root(tree.root());
    MapEnv env;
    auto listing = PkgConfig(fs, env).list_dir_modules(dir);
    REQUIRE(listing.ok());
    std::vector<std::string> names;
    for (const auto& file : *listing) names.push_back(file.name);
    CHECK(names == std::vector<std::string>{"doca-common", "doca-dpa", "doca-rdmi", "doca-verbs",
                                            "doca", "libflexio"});
    CHECK(listing->at(0).pc_path == dir + "/doca-common.pc");
    auto absent = PkgConfig(fs, env).list_dir_modules("/opt/none");
    REQUIRE_FALSE(absent.ok());
    CHECK(absent.gap().reason == GapReason::not_found);
}

TEST_CASE("agrees with the pkg-config command on fixture modules (live root)") {
    if (!have_pkg_config()) {
        MESSAGE("no /usr/bin/pkg-config; skipped");
        return;
    }
    test::TempTree tree;
    const std::string libdir = tree.host("/pc");
    tree.write("/pc/doca-common.pc",
               "prefix=/opt/mellanox/doca\nexec_prefix=${prefix}\n"
               "libdir=${exec_prefix}/lib/x86_64-linux-gnu\nincludedir=${prefix}/include\n"
               "doca_dir=${pcfiledir}/../..\nsr=${pc_sysrootdir}\nName: doca-common\n"
               "Description: DOCA Core\nVersion: 3.0.0058\nRequires: doca-verbs >= 3.0, base\n"
               "Requires.private: base != 2\nLibs: -L${libdir} -ldoca_common\n"
               "Cflags: -I${includedir}\n");
    tree.write("/pc/doca-verbs.pc", pc_text("doca-verbs", "3.0.0058"));
    tree.write("/pc/base.pc", pc_text("base", "1"));
    tree.mkdir("/sysroot");
    const auto fs = open_root("/");
    for (const std::string& sysroot :
         {std::string("unset"), std::string(""), tree.host("/sysroot"), tree.root()}) {
        CAPTURE(sysroot);
        MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", libdir}});
        std::string shell_env = "PKG_CONFIG_LIBDIR='" + libdir + "'";
        if (sysroot != "unset") {
            env.set("PKG_CONFIG_SYSROOT_DIR", sysroot);
            shell_env += " PKG_CONFIG_SYSROOT_DIR='" + sysroot + "'";
        }
        auto m = PkgConfig(fs, env).find("doca-common");
        REQUIRE(m.ok());
        CHECK(m->version == run_pkg_config(shell_env, "--modversion doca-common"));
        std::string names;
        for (const auto& [name, value] : m->variables) {
            names += (names.empty() ? "" : "\n") + name;
            const std::string& variable = name;  // clang 14 lambdas cannot capture a binding
            CAPTURE(variable);
            CHECK(value == run_pkg_config(shell_env, "--variable=" + name + " doca-common"));
        }
        auto cli_names = run_pkg_config(shell_env, "--print-variables doca-common | sort");
        CHECK(names == cli_names);
        std::string reqs;
        for (const auto& req : m->requires_public)
            reqs += (reqs.empty() ? "" : "\n") + to_string(req);
        CHECK(reqs == run_pkg_config(shell_env, "--print-requires doca-common"));
        std::string priv;
        for (const auto& req : m->requires_private)
            priv += (priv.empty() ? "" : "\n") + to_string(req);
        CHECK(priv == run_pkg_config(shell_env, "--print-requires-private doca-common"));
    }
}

TEST_CASE("agrees with the pkg-config command on a real system module (live root)") {
    if (!have_pkg_config()) {
        MESSAGE("no /usr/bin/pkg-config; skipped");
        return;
    }
    if (!pkg_config_is_ours()) return;
    const auto fs = open_root("/");
    MapEnv env;
    const PkgConfig pc(fs, env);
    int compared = 0;
    for (const char* name : {"libpkgconf", "libelf"}) {
        CAPTURE(name);
        auto version = run_pkg_config("", std::string("--modversion ") + name);
        auto m = pc.find(name);
        if (!version) {
            CHECK_FALSE(m.ok());
            continue;
        }
        REQUIRE(m.ok());
        CHECK(m->version == *version);
        for (const char* var : {"libdir", "includedir", "prefix", "pcfiledir"}) {
            CAPTURE(var);
            auto cli = run_pkg_config("", std::string("--variable=") + var + " " + name);
            CHECK(m->variables.count(var) == (cli && !cli->empty() ? 1U : 0U));
            if (m->variables.count(var) != 0) CHECK(m->variables.at(var) == cli);
        }
        CHECK(m->pc_path ==
              run_pkg_config("", std::string("--variable=pcfiledir ") + name).value() + "/" + name +
                  ".pc");
        ++compared;
    }
    CHECK(compared > 0);  // libpkgconf-dev is a build dependency, so libpkgconf.pc exists
}

TEST_CASE("default_search_dirs_for: another machine's multiarch directories, the rest unchanged") {
    const auto own = default_search_dirs();
    CHECK(default_search_dirs_for("") == own);
    const auto arm = default_search_dirs_for("aarch64");
    const auto x86 = default_search_dirs_for("x86_64");
    REQUIRE(arm.size() == own.size());
    REQUIRE(x86.size() == own.size());
    bool any_multiarch = false;
    for (std::size_t i = 0; i < own.size(); ++i) {
        if (own[i].find("-linux-gnu") == std::string::npos) {
            CHECK(arm[i] == own[i]);  // /usr/share/pkgconfig, /usr/lib/pkgconfig: no machine
            CHECK(x86[i] == own[i]);
            continue;
        }
        any_multiarch = true;
        CAPTURE(own[i]);
        CHECK(arm[i].find("/aarch64-linux-gnu/") != std::string::npos);
        CHECK(arm[i].find("x86_64") == std::string::npos);
        CHECK(x86[i].find("/x86_64-linux-gnu/") != std::string::npos);
        CHECK(x86[i].find("aarch64") == std::string::npos);
    }
    // Debian's libpkgconf is multiarch on every architecture.
    CHECK(any_multiarch);
}

TEST_CASE("a root of another machine is searched in that machine's multiarch directory") {
    // The same tree seen by a probe built for either machine: the module sits only where
    // pkg-config on the root's own machine (here aarch64, a BlueField's Arm side) looks for it.
    test::TempTree tree;
    tree.write("/usr/lib/aarch64-linux-gnu/pkgconfig/doca-common.pc",
               pc_text("doca-common", "3.3.0105"));
    const auto fs = open_root(tree.root());
    MapEnv env;
    const PkgConfig for_arm(fs, env, {}, "aarch64");
    auto found = for_arm.find("doca-common");
    REQUIRE(found);
    CHECK(found->version == "3.3.0105");
    CHECK(found->pc_path == "/usr/lib/aarch64-linux-gnu/pkgconfig/doca-common.pc");
    const PkgConfig for_x86(fs, env, {}, "x86_64");
    CHECK_FALSE(for_x86.find("doca-common"));
    // PKG_CONFIG_LIBDIR replaces the defaults whatever the machine.
    MapEnv libdir(Vars{{"PKG_CONFIG_LIBDIR", "/elsewhere"}});
    const PkgConfig pinned(fs, libdir, {}, "aarch64");
    CHECK_FALSE(pinned.find("doca-common"));
}

}  // namespace rdmi::pkgconfig
