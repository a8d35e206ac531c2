// Tests for the dpkg backend of PackageRecords on real trees: file lists, multiarch info
// names, merged /usr, diversions, md5sums, partial states, and hostile databases.
#include "packages/dpkg_records.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>

#include "os/rooted_fs.hpp"
#include "packages/package_database.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

constexpr const char* kStatus =
    "Package: libdoca-sdk-rdmi-dev\nStatus: install ok installed\nArchitecture: amd64\n"
    "Version: 3.3.0105-1\n\n"
    "Package: doca-sdk-rdmi\nStatus: install ok installed\nArchitecture: amd64\n"
    "Multi-Arch: same\nVersion: 3.3.0105-1\n\n"
    "Package: doca-broken\nStatus: install reinstreq half-installed\nArchitecture: amd64\n"
    "Version: 3.2.1025-1\n\n"
    "Package: doca-removed\nStatus: deinstall ok config-files\nArchitecture: amd64\n"
    "Version: 2.10.0087-1\n\n"
    "Package: doca-wrapper\nStatus: install ok installed\nArchitecture: all\n"
    "Version: 1.0\n";

/// A root with a merged /usr and a small dpkg database.
void write_database(const test::TempTree& tree) {
    tree.mkdir("/usr/lib");
    tree.mkdir("/usr/bin");
    tree.symlink("usr/lib", "/lib");
    tree.symlink("usr/bin", "/bin");
    tree.write("/var/lib/dpkg/status", kStatus);
    tree.write("/var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list",
               "/.\n/opt\n/opt/mellanox/doca/include\n"
               "/opt/mellanox/doca/include/doca_rdmi_poster.h\n"
               "/opt/mellanox/doca/include/doca_rdmi_connection.h\n"
               "/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc\n");
    tree.write("/var/lib/dpkg/info/libdoca-sdk-rdmi-dev.md5sums",
               "0123456789abcdef0123456789abcdef  opt/mellanox/doca/include/doca_rdmi_poster.h\n"
               "not a digest line\n");
    tree.write("/var/lib/dpkg/info/doca-sdk-rdmi:amd64.list",
               "/.\n/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3.3.0105\n");
    tree.write("/var/lib/dpkg/info/doca-broken.list", "/.\n/opt/mellanox/doca/tools/broken\n");
    tree.write("/var/lib/dpkg/info/doca-removed.list", "/.\n/opt/mellanox/doca/tools/removed\n");
    // doca-wrapper ships /usr/bin/doca_tool, which it diverts so that its own copy is used.
    tree.write("/var/lib/dpkg/info/doca-wrapper.list", "/.\n/usr/bin/doca_tool\n");
    tree.write("/var/lib/dpkg/info/doca-broken.md5sums", "");
    tree.write("/var/lib/dpkg/diversions",
               "/bin/doca_tool\n/bin/doca_tool.distrib\ndoca-wrapper\n"
               "/etc/local.conf\n/etc/local.conf.orig\n:\n");
    // doca-sdk-rdmi also ships the distro tool that doca-wrapper diverts.
    tree.write("/var/lib/dpkg/info/doca-sdk-rdmi:amd64.list",
               "/.\n/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3.3.0105\n"
               "/bin/doca_tool\n");
}

std::shared_ptr<const PackageRecords> open_records(const RootedFs& fs) {
    auto records = open_dpkg_records(fs, Deadline(10s));
    REQUIRE_MESSAGE(records.ok(), (records.ok() ? "" : records.gap().message));
    return *records;
}

TEST_CASE("dpkg records: the owner of a listed file, with version and recorded md5") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    CHECK(records->manager() == "dpkg");
    CHECK(records->source().ref == "/var/lib/dpkg/status");

    auto header = records->owner_of("/opt/mellanox/doca/include/doca_rdmi_poster.h");
    REQUIRE(header.has_value());
    CHECK(header->package.name == "libdoca-sdk-rdmi-dev");
    CHECK(header->package.version == "3.3.0105-1");
    CHECK(header->package.state == "installed");
    CHECK(header->digest_algorithm == "md5");
    CHECK(header->digest == "0123456789abcdef0123456789abcdef");
    CHECK(records->reinstall_command(header->package) ==
          "apt-get install --reinstall libdoca-sdk-rdmi-dev");

    auto other = records->owner_of("/opt/mellanox/doca/include/doca_rdmi_connection.h");
    REQUIRE(other.has_value());
    CHECK(other->digest.empty());  // listed, but its md5sums has no line for it

    CHECK_FALSE(records->owner_of("/opt/mellanox/doca/include/unlisted.h").has_value());
}

TEST_CASE("dpkg records: multiarch info names and the qualified reinstall command") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    auto lib =
        records->owner_of("/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3.3.0105");
    REQUIRE(lib.has_value());
    CHECK(lib->package.name == "doca-sdk-rdmi");
    CHECK(lib->package.arch == "amd64");
    CHECK(records->reinstall_command(lib->package) ==
          "apt-get install --reinstall doca-sdk-rdmi:amd64");
}

TEST_CASE("dpkg records: on a merged /usr, /lib/... and /usr/lib/... are one file") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    for (const char* path : {"/usr/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc",
                             "/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc"}) {
        auto pc = records->owner_of(path);
        REQUIRE_MESSAGE(pc.has_value(), path);
        CHECK(pc->package.name == "libdoca-sdk-rdmi-dev");
        CHECK(pc->path == "/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc");  // as listed
    }
}

TEST_CASE("dpkg records: without a merged /usr, /lib and /usr/lib stay apart") {
    const test::TempTree tree;
    write_database(tree);
    std::filesystem::remove(tree.host("/lib"));
    std::filesystem::remove(tree.host("/bin"));
    tree.mkdir("/lib");
    tree.mkdir("/bin");
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    CHECK(records->owner_of("/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc").has_value());
    CHECK_FALSE(records->owner_of("/usr/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc").has_value());
}

TEST_CASE("dpkg records: a diverted file is the diverting package's; the divert-to, the other's") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    // Listed by both doca-sdk-rdmi (the distro copy) and doca-wrapper (which diverts it).
    auto diverted = records->owner_of("/usr/bin/doca_tool");
    REQUIRE(diverted.has_value());
    CHECK(diverted->package.name == "doca-wrapper");
    auto moved = records->owner_of("/usr/bin/doca_tool.distrib");
    REQUIRE(moved.has_value());
    CHECK(moved->package.name == "doca-sdk-rdmi");
    CHECK(moved->path == "/usr/bin/doca_tool.distrib");
    // A local diversion: the file at the diverted path is the administrator's.
    CHECK_FALSE(records->owner_of("/etc/local.conf").has_value());
}

TEST_CASE("dpkg records: half-installed packages are named as such; config-files list nothing") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    auto broken = records->owner_of("/opt/mellanox/doca/tools/broken");
    REQUIRE(broken.has_value());
    CHECK(broken->package.state == "half-installed");
    CHECK_FALSE(records->owner_of("/opt/mellanox/doca/tools/removed").has_value());
}

TEST_CASE("dpkg records: the main owner of a directory counts the files directly in it") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    const auto records = open_records(fs);
    auto main = records->main_owner_of_directory("/opt/mellanox/doca/include");
    REQUIRE(main.has_value());
    CHECK(main->name == "libdoca-sdk-rdmi-dev");
    CHECK_FALSE(records->main_owner_of_directory("/opt/mellanox").has_value());
    CHECK_FALSE(records->main_owner_of_directory("/nowhere").has_value());
}

TEST_CASE("dpkg records: no status file is not_found, naming the file") {
    const test::TempTree tree;
    tree.mkdir("/etc");
    const auto fs = RootedFs::open(tree.root()).value();
    auto records = open_dpkg_records(fs, Deadline(10s));
    REQUIRE_FALSE(records.ok());
    CHECK(records.gap().reason == GapReason::not_found);
    CHECK(records.gap().message == "no dpkg database: /var/lib/dpkg/status does not exist");
}

TEST_CASE("dpkg records: hostile databases give gaps, not crashes") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();

    SUBCASE("a status file over the cap") {
        DpkgLimits limits;
        limits.max_status_bytes = 64;
        auto records = open_dpkg_records(fs, Deadline(10s), limits);
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().message.find("/var/lib/dpkg/status") != std::string::npos);
    }
    SUBCASE("a binary status file") {
        tree.write("/var/lib/dpkg/status", std::string("Package: a\0\x01\xff", 14));
        auto records = open_dpkg_records(fs, Deadline(10s));
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason == GapReason::malformed);
    }
    SUBCASE("a status file that is a FIFO") {
        std::filesystem::remove(tree.host("/var/lib/dpkg/status"));
        tree.fifo("/var/lib/dpkg/status");
        auto records = open_dpkg_records(fs, Deadline(10s));
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason != GapReason::not_found);
    }
    SUBCASE("lists over the total cap") {
        DpkgLimits limits;
        limits.max_total_list_bytes = 100;
        auto records = open_dpkg_records(fs, Deadline(10s), limits);
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().message.find("package lists are over") != std::string::npos);
    }
    SUBCASE("lists naming more paths than the cap, however short") {
        DpkgLimits limits;
        limits.max_listed_paths = 2;
        auto records = open_dpkg_records(fs, Deadline(10s), limits);
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason == GapReason::malformed);
        CHECK(records.gap().message ==
              "/var/lib/dpkg/info: the package lists name more than 2 paths together; not read");
    }
    SUBCASE("one .list over the per-file cap: that package lists nothing, the rest work") {
        DpkgLimits limits;
        limits.max_list_bytes = 100;
        auto records = open_dpkg_records(fs, Deadline(10s), limits);
        REQUIRE(records.ok());
        CHECK_FALSE((*records)->owner_of("/opt/mellanox/doca/include/doca_rdmi_poster.h"));
        CHECK((*records)->owner_of("/opt/mellanox/doca/tools/broken"));
    }
    SUBCASE("an expired deadline") {
        auto records = open_dpkg_records(fs, Deadline(0ms));
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason == GapReason::timeout);
    }
    SUBCASE("a .list that is a link owned by another user is not followed") {
        if (geteuid() != 0) return;  // the owner rule applies to a reader beyond its user
        tree.write("/srv/forged.list", "/.\n/opt/mellanox/doca/include/doca_rdmi_poster.h\n");
        std::filesystem::remove(tree.host("/var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list"));
        tree.symlink("/srv/forged.list", "/var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list");
        REQUIRE(lchown(tree.host("/var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list").c_str(), 65534,
                       65534) == 0);
        auto records = open_dpkg_records(fs, Deadline(10s));
        REQUIRE(records.ok());
        CHECK_FALSE((*records)->owner_of("/opt/mellanox/doca/include/doca_rdmi_poster.h"));
    }
    SUBCASE("a status file that is a link owned by another user makes the database unusable") {
        if (geteuid() != 0) return;
        tree.write("/srv/status", kStatus);
        std::filesystem::remove(tree.host("/var/lib/dpkg/status"));
        tree.symlink("/srv/status", "/var/lib/dpkg/status");
        REQUIRE(lchown(tree.host("/var/lib/dpkg/status").c_str(), 65534, 65534) == 0);
        auto records = open_dpkg_records(fs, Deadline(10s));
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason == GapReason::untrusted);
    }
}

TEST_CASE("package database: opened once, and only when asked") {
    const test::TempTree tree;
    write_database(tree);
    const auto fs = RootedFs::open(tree.root()).value();
    PackageDatabase database;
    CHECK_FALSE(database.opened());
    const auto& first = database.open(fs, Deadline(10s));
    REQUIRE(first.ok());
    CHECK(database.opened());
    CHECK(&database.open(fs, Deadline(10s)) == &first);
}

}  // namespace
}  // namespace rdmi
