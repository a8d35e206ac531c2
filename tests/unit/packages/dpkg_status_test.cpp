// Tests for the dpkg status parser, its error paths above all: a status file is outside input.
#include "packages/dpkg_status.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>

namespace rdmi {
namespace {

constexpr const char* kTwoPackages =
    "Package: libdoca-sdk-rdmi-dev\n"
    "Status: install ok installed\n"
    "Architecture: amd64\n"
    "Version: 3.3.0105-1\n"
    "Description: headers\n"
    " and more\n"
    "\n"
    "Package: doca-sdk-common\n"
    "Status: hold ok installed\n"
    "Architecture: arm64\n"
    "Multi-Arch: same\n"
    "Version: 3.3.0105-1\n"
    "Conffiles:\n"
    " /etc/doca.conf 0123456789abcdef0123456789abcdef\n"
    " /etc/gone.conf 0123456789abcdef0123456789abcdef obsolete\n"
    " /etc/new.conf newconffile\n";

TEST_CASE("dpkg status: stanzas, held packages, multi-arch and conffiles") {
    auto status = parse_dpkg_status(kTwoPackages, "/var/lib/dpkg/status");
    REQUIRE(status.ok());
    REQUIRE(status->packages.size() == 2);
    CHECK(status->problems.empty());
    const auto& dev = status->packages[0];
    CHECK(dev.name == "libdoca-sdk-rdmi-dev");
    CHECK(dev.version == "3.3.0105-1");
    CHECK(dev.architecture == "amd64");
    CHECK(dev.installed());
    CHECK_FALSE(dev.multi_arch_same);
    const auto& common = status->packages[1];
    CHECK(common.installed());  // "hold ok installed" is installed, only held at its version
    CHECK(common.multi_arch_same);
    REQUIRE(common.conffiles.size() == 1);
    CHECK(common.conffiles[0].first == "/etc/doca.conf");
}

TEST_CASE("dpkg status: half-installed and config-files are named, not installed") {
    auto status = parse_dpkg_status(
        "Package: a\nStatus: install reinstreq half-installed\nVersion: 1\n\n"
        "Package: b\nStatus: deinstall ok config-files\nVersion: 2\n\n"
        "Package: c\nStatus: install ok unpacked\nVersion: 3\n",
        "status");
    REQUIRE(status.ok());
    REQUIRE(status->packages.size() == 3);
    CHECK_FALSE(status->packages[0].installed());
    CHECK(status->packages[0].state == "half-installed");
    CHECK(status->packages[0].has_files());
    CHECK(status->packages[1].state == "config-files");
    CHECK_FALSE(status->packages[1].has_files());
    CHECK(status->packages[2].state == "unpacked");
    CHECK(status->packages[2].has_files());
}

TEST_CASE("dpkg status: broken stanzas are skipped and named, the rest kept") {
    auto status = parse_dpkg_status(
        "Status: install ok installed\nVersion: 1\n\n"         // no Package
        "Package: nostatus\nVersion: 1\n\n"                    // no Status
        "Package: twowords\nStatus: install ok\n\n"            // truncated Status
        " continuation first\nPackage: x\n\n"                  // continuation before any field
        "Package: bad line\nStatus: install ok installed\n\n"  // not a package name
        "Package: ok\nStatus: install ok installed\nVersion: 9\n"
        "Package without colon\n\n"                                 // not "Field: value"
        "Package: good\nStatus: install ok installed\nVersion: 1",  // no final newline
        "/var/lib/dpkg/status");
    REQUIRE(status.ok());
    REQUIRE(status->packages.size() == 1);
    CHECK(status->packages[0].name == "good");
    REQUIRE(status->problems.size() == 6);
    CHECK(status->problems[0] == "stanza at line 1: no Package field");
    CHECK(status->problems[1].find("nostatus has no Status field") != std::string::npos);
    CHECK(status->problems[2].find("is not three words") != std::string::npos);
    CHECK(status->problems[3].find("continuation line before any field") != std::string::npos);
    CHECK(status->problems[4].find("is not a package name") != std::string::npos);
    CHECK(status->problems[5].find("is not 'Field: value'") != std::string::npos);
}

TEST_CASE("dpkg status: binary bytes make the whole file malformed, naming it") {
    std::string text = kTwoPackages;
    text[40] = '\0';
    auto status = parse_dpkg_status(text, "/var/lib/dpkg/status");
    REQUIRE_FALSE(status.ok());
    CHECK(status.gap().reason == GapReason::malformed);
    CHECK(status.gap().message ==
          "/var/lib/dpkg/status: a NUL byte at offset 40; not a dpkg status file");
}

TEST_CASE("dpkg status: caps on packages, fields and problems") {
    std::string many;
    for (int i = 0; i < 11; ++i) {
        many += "Package: p" + std::to_string(i) + "\nStatus: install ok installed\n\n";
    }
    DpkgStatusLimits limits;
    limits.max_packages = 10;
    auto capped = parse_dpkg_status(many, "status", limits);
    REQUIRE_FALSE(capped.ok());
    CHECK(capped.gap().message == "status: more than 10 package stanzas; not read");
    limits.max_packages = 11;
    CHECK(parse_dpkg_status(many, "status", limits).ok());

    limits.max_field_bytes = 64;
    const std::string huge = "Package: big\nStatus: install ok installed\nDescription: x\n " +
                             std::string(100, 'y') + "\n";
    auto big = parse_dpkg_status(huge, "status", limits);
    REQUIRE(big.ok());
    CHECK(big->packages.empty());
    REQUIRE(big->problems.size() == 1);
    CHECK(big->problems[0].find("field Description is over 64 bytes") != std::string::npos);

    std::string broken;
    for (int i = 0; i < 30; ++i) broken += "Version: 1\n\n";
    auto noisy = parse_dpkg_status(broken, "status");
    REQUIRE(noisy.ok());
    REQUIRE(noisy->problems.size() == 21);  // 20 named, then how many more
    CHECK(noisy->problems.back() == "10 more stanzas skipped");
}

TEST_CASE("dpkg status: empty and blank files hold no packages") {
    for (const char* text : {"", "\n\n\n", "\r\n"}) {
        auto status = parse_dpkg_status(text, "status");
        REQUIRE(status.ok());
        CHECK(status->packages.empty());
        CHECK(status->problems.empty());
    }
}

TEST_CASE("dpkg status: a name, version or architecture dpkg would refuse skips the stanza") {
    // Each goes into a fix's text, the name and architecture into the reinstall command that
    // root is told to run.
    auto status = parse_dpkg_status(
        "Package: doca;reboot\nStatus: install ok installed\n\n"
        "Package: doca$(id)\nStatus: install ok installed\n\n"
        "Package: -doca\nStatus: install ok installed\n\n"
        "Package: doca\x1b[2J\nStatus: install ok installed\n\n"
        "Package: arch\nStatus: install ok installed\nArchitecture: amd64|sh\n\n"
        "Package: version\nStatus: install ok installed\nVersion: 1.0\n PASS  all good\n\n"
        "Package: version2\nStatus: install ok installed\nVersion: 1.0;reboot\n\n"
        "Package: Doca_legacy.name+1\nStatus: install ok installed\nArchitecture: "
        "musl-linux-arm64\nVersion: 2:3.3.0105-1~bpo12+1\n",
        "/var/lib/dpkg/status");
    REQUIRE(status.ok());
    REQUIRE(status->packages.size() == 1);
    CHECK(status->packages[0].name == "Doca_legacy.name+1");
    CHECK(status->packages[0].architecture == "musl-linux-arm64");
    CHECK(status->packages[0].version == "2:3.3.0105-1~bpo12+1");
    REQUIRE(status->problems.size() == 7);
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(status->problems[i].find("is not a package name") != std::string::npos);
    }
    CHECK(status->problems[4].find("'amd64|sh' is not an architecture name") != std::string::npos);
    CHECK(status->problems[5].find("is not a dpkg version") != std::string::npos);
    CHECK(status->problems[6].find("is not a dpkg version") != std::string::npos);
}

TEST_CASE("dpkg status: a deadline that passes mid-file is a timeout gap") {
    const std::string text = std::string(kTwoPackages) + std::string(1U << 20U, '\n');
    const Deadline passed(std::chrono::milliseconds(0));
    auto status = parse_dpkg_status(text, "status", {}, &passed);
    REQUIRE_FALSE(status.ok());
    CHECK(status.gap().reason == GapReason::timeout);
    CHECK(status.gap().message.starts_with("status: the deadline passed at line "));
    const Deadline ample(std::chrono::milliseconds(60000));
    CHECK(parse_dpkg_status(text, "status", {}, &ample).ok());
}

}  // namespace
}  // namespace rdmi
