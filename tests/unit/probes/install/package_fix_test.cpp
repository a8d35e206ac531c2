// Tests for the fixes worded from the package database: each wording, and the database opened
// once per run and only when a fix asks.
#include "probes/install/package_fix.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

spdlog::logger& quiet_logger() {
    static spdlog::logger logger("package-fix", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

constexpr const char* kGeneric = "partial install: reinstall the DOCA RDMI development package";

void write_database(const test::TempTree& tree) {
    tree.write("/var/lib/dpkg/status",
               "Package: libdoca-sdk-rdmi-dev\nStatus: install ok installed\n"
               "Architecture: amd64\nVersion: 3.3.0105-1\n\n"
               "Package: doca-half\nStatus: install reinstreq half-installed\n"
               "Architecture: amd64\nVersion: 3.3.0105-1\n");
    tree.write("/var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list",
               "/.\n/opt/doca/include/doca_rdmi_poster.h\n/opt/doca/include/doca_rdmi_dev_cqe.h\n");
    tree.write("/var/lib/dpkg/info/doca-half.list", "/.\n/opt/doca/tools/half\n");
}

struct Run {
    RootedFs fs;
    MapEnv env;
    ProbeContext ctx;
    explicit Run(const std::string& root)
        : fs(RootedFs::open(root).value()), ctx{fs, env,          quiet_logger(), Deadline(10s),
                                                5s, std::nullopt, false} {}
};

TEST_CASE("package fix: the package that lists the missing file, with the reinstall command") {
    const test::TempTree tree;
    write_database(tree);
    Run run(tree.root());
    CHECK_FALSE(run.ctx.packages->opened());
    CHECK(package_fix(run.ctx, "/opt/doca/include/doca_rdmi_poster.h", kGeneric,
                      OwnerFallback::directory) ==
          "package libdoca-sdk-rdmi-dev (version 3.3.0105-1) lists "
          "/opt/doca/include/doca_rdmi_poster.h, but /opt/doca/include/doca_rdmi_poster.h is "
          "missing: reinstall libdoca-sdk-rdmi-dev (apt-get install --reinstall "
          "libdoca-sdk-rdmi-dev)");
    CHECK(run.ctx.packages->opened());
    CHECK(listing_package(run.ctx, "/opt/doca/include/doca_rdmi_dev_cqe.h") ==
          "libdoca-sdk-rdmi-dev (version 3.3.0105-1)");
    CHECK(listing_package(run.ctx, "/opt/doca/include/other.h").empty());
}

TEST_CASE("package fix: an unlisted file's directory owner, or the generic fix and why") {
    const test::TempTree tree;
    write_database(tree);
    Run run(tree.root());
    CHECK(package_fix(run.ctx, "/opt/doca/include/doca_rdmi_connection.h", kGeneric,
                      OwnerFallback::directory) ==
          "no installed package lists /opt/doca/include/doca_rdmi_connection.h; "
          "libdoca-sdk-rdmi-dev (version 3.3.0105-1) owns most files in /opt/doca/include: "
          "reinstall libdoca-sdk-rdmi-dev (apt-get install --reinstall libdoca-sdk-rdmi-dev)");
    // A tool is a package of its own: its directory's owner is not offered.
    CHECK(package_fix(run.ctx, "/opt/doca/include/dpacc",
                      "install the DOCA package that ships "
                      "dpacc",
                      OwnerFallback::none) ==
          "install the DOCA package that ships dpacc (no installed package lists "
          "/opt/doca/include/dpacc in the dpkg database)");
}

TEST_CASE("package fix: a half-installed package is named in its state") {
    const test::TempTree tree;
    write_database(tree);
    Run run(tree.root());
    CHECK(package_fix(run.ctx, "/opt/doca/tools/half", kGeneric, OwnerFallback::none) ==
          "package doca-half (version 3.3.0105-1) lists /opt/doca/tools/half but is "
          "half-installed: finish its install (apt-get install --reinstall doca-half)");
}

TEST_CASE("package fix: no database, and a database that cannot be used, are said") {
    const test::TempTree tree;
    tree.mkdir("/etc");
    {
        Run run(tree.root());
        CHECK(package_fix(run.ctx, "/opt/doca/include/x.h", kGeneric, OwnerFallback::directory) ==
              std::string(kGeneric) +
                  " (no package database to name the package: no dpkg database: "
                  "/var/lib/dpkg/status does not exist)");
    }
    tree.write("/var/lib/dpkg/status", std::string("\0\0junk", 6));
    Run run(tree.root());
    const std::string fix =
        package_fix(run.ctx, "/opt/doca/include/x.h", kGeneric, OwnerFallback::directory);
    CHECK(fix == std::string(kGeneric) +
                     " (the package database could not be used: /var/lib/dpkg/status: a NUL "
                     "byte at offset 0; not a dpkg status file)");
}

}  // namespace
}  // namespace rdmi
