// Tests for the bundle layer: the tree a recorded run leaves, redaction, BundleFs's replay of
// owners, modes and read errors, the captured answers, and the private directory's removal.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "bundle/bundle_tree.hpp"
#include "bundle/layout.hpp"
#include "bundle/redact.hpp"
#include "bundle/replay.hpp"
#include "os/live_answers.hpp"
#include "os/private_dir.hpp"
#include "os/recording_fs.hpp"
#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::bundle {
namespace {

RootedFs open_root(const test::TempTree& tree) {
    auto fs = RootedFs::open(tree.root(), RootedFs::Resolution::kernel, false);
    REQUIRE(fs.ok());
    return fs.value();
}

}  // namespace

TEST_CASE("normal_path and relative_target stay inside the root") {
    CHECK(normal_path("/a/./b//c/") == "/a/b/c");
    CHECK(normal_path("/../../etc") == "/etc");
    CHECK(normal_path("") == "/");
    CHECK(relative_target("/sys/class/net/eth0", "/sys/devices/pci/net/eth0") ==
          "../../devices/pci/net/eth0");
    CHECK(relative_target("/lib/libx.so", "/lib/libx.so.1") == "libx.so.1");
    CHECK(relative_target("/etc/alternatives/x", "/") == "../..");
}

TEST_CASE("build_tree stores what was read at its real path, and the links on the way") {
    test::TempTree tree;
    tree.write("/sys/devices/pci/net/eth0/address", "0c:42:a1:00:00:01\n");
    tree.write("/sys/devices/pci/net/eth0/mtu", "1500\n");
    tree.symlink("../../devices/pci/net/eth0", "/sys/class/net/eth0");
    tree.write("/usr/lib/libx.so.1", "ELF");
    tree.symlink("/usr/lib/libx.so.1", "/usr/lib/libx.so");        // absolute: rewritten relative
    tree.symlink("../../../../../../etc/secret", "/usr/lib/out");  // climbs: clamped at the root
    tree.fifo("/run/fifo");
    const RootedFs inner = open_root(tree);
    const RecordingFs recorder(inner);
    const Fs& fs = recorder.fs();
    CHECK(fs.read_file("/sys/class/net/eth0/address").ok());
    CHECK(fs.list_dir("/sys/class/net/eth0").ok());
    CHECK(fs.real_path("/usr/lib/libx.so").ok());
    CHECK(fs.read_link("/usr/lib/out").ok());
    CHECK(fs.stat("/run/fifo", false).ok());

    const Tree built = build_tree(inner, recorder.recorded(), Caps{});
    const auto& e = built.entries;
    REQUIRE(e.count("/sys/devices/pci/net/eth0/address") == 1);
    CHECK(e.at("/sys/devices/pci/net/eth0/address").bytes == "0c:42:a1:00:00:01\n");
    CHECK(e.at("/sys/devices/pci/net/eth0/address").content == Content::captured);
    // Listed, never read: stored empty, its facts kept.
    REQUIRE(e.count("/sys/devices/pci/net/eth0/mtu") == 1);
    CHECK(e.at("/sys/devices/pci/net/eth0/mtu").content == Content::placeholder);
    CHECK(e.at("/sys/devices/pci/net/eth0/mtu").bytes.empty());
    REQUIRE(e.count("/sys/class/net/eth0") == 1);
    CHECK(e.at("/sys/class/net/eth0").type == FileType::symlink);
    CHECK(e.at("/sys/class/net/eth0").target == "../../devices/pci/net/eth0");
    CHECK(e.at("/usr/lib/libx.so").target == "libx.so.1");
    CHECK(e.at("/usr/lib/out").target == "../../etc/secret");
    REQUIRE(e.count("/run/fifo") == 1);
    CHECK(e.at("/run/fifo").type == FileType::regular);
    CHECK(e.at("/run/fifo").info.type == FileType::fifo);
    CHECK(built.skipped.empty());
}

TEST_CASE("build_tree keeps to the caps and says what it left out") {
    test::TempTree tree;
    tree.write("/big", std::string(100, 'b'));
    tree.write("/small", "s");
    tree.write("/second", std::string(60, 'c'));
    const RootedFs inner = open_root(tree);
    const RecordingFs recorder(inner);
    const Fs& fs = recorder.fs();
    CHECK(fs.read_file("/big").ok());
    CHECK(fs.read_file("/small").ok());
    CHECK(fs.read_file("/second").ok());
    Caps caps;
    caps.file_bytes = 80;
    caps.total_bytes = 50;
    const Tree built = build_tree(inner, recorder.recorded(), caps);
    CHECK(built.entries.at("/small").content == Content::captured);
    CHECK(built.entries.at("/big").content == Content::placeholder);
    CHECK(built.entries.at("/second").content == Content::placeholder);
    REQUIRE(built.skipped.size() == 2);
    CHECK(built.skipped[0].path == "/big");
    CHECK(built.skipped[0].reason.find("per-file cap") != std::string::npos);
    CHECK(built.skipped[1].reason.find("total cap") != std::string::npos);
    CHECK(built.content_bytes == 1);
}

TEST_CASE("Redactor: one value, one placeholder of the same shape") {
    Redactor r({"node7.example.com\n"});
    const std::string text = r.text(
        "mac 0c:42:a1:00:00:01 again 0C:42:A1:00:00:01 other 0c:42:a1:00:00:02\n"
        "guid 0c42:a103:0000:a000 zero 0000:0000:0000:0000\n"
        "host node7.example.com short node7 ip 10.1.2.3 ofed MLNX_OFED_LINUX-24.10-1.1.4.0\n",
        "/x");
    CHECK(text.find("0c:42:a1") == std::string::npos);
    CHECK(text.find("02:00:00:00:00:01 again 02:00:00:00:00:01 other 02:00:00:00:00:02") !=
          std::string::npos);
    CHECK(text.find("0c42:a103") == std::string::npos);
    CHECK(text.find("0000:0000:0000:0000") != std::string::npos);  // identifies nothing
    CHECK(text.find("node7") == std::string::npos);
    CHECK(text.find("10.1.2.3") == std::string::npos);
    CHECK(text.find("192.0.2.1") != std::string::npos);
    CHECK(text.find("MLNX_OFED_LINUX-24.10-1.1.4.0") != std::string::npos);  // a version
    CHECK(r.counts().at("mac") == 2);
    CHECK(r.counts().at("host_name") == 2);
    // A file that is a serial number by its name is replaced whole; the same serial elsewhere
    // (a JSON document) gets the same placeholder.
    CHECK(r.text("MT2233X00001\n", "/sys/class/dmi/id/product_serial") == "SERIAL-1\n");
    CHECK(r.text(R"({"board_serial": "MT2233X00001"})", "report.json") ==
          R"({"board_serial": "SERIAL-1"})");
}

TEST_CASE(
    "BundleFs replays the manifest's owners and modes, the recorded errors, and hides "
    "the bundle's own directory") {
    test::TempTree tree;
    tree.write("/usr/lib/libdoca_common.so.3", "ELF", 0600);
    tree.symlink("libdoca_common.so.3", "/usr/lib/libdoca_common.so");
    tree.write(std::string(kManifest), "{}");
    ReplayIndex index;
    FileInfo info;
    info.type = FileType::regular;
    info.mode = 02775;
    info.uid = 1234;
    info.gid = 99;
    info.size = 4096;
    index.info.emplace("/usr/lib/libdoca_common.so.3", info);
    index.failures.emplace("read /etc/shadow",
                           Gap{GapReason::permission_denied, "/etc/shadow: denied"});
    const BundleFs fs(std::make_unique<RootedFs>(open_root(tree)), index);
    for (const char* path : {"/usr/lib/libdoca_common.so", "/usr/lib/libdoca_common.so.3"}) {
        CAPTURE(path);
        auto st = fs.stat(path);
        REQUIRE(st.ok());
        CHECK(st->mode == 02775);
        CHECK(st->uid == 1234);
        CHECK(st->gid == 99);
        CHECK(st->size == 4096);
    }
    auto link = fs.stat("/usr/lib/libdoca_common.so", false);
    REQUIRE(link.ok());
    CHECK(link->type == FileType::symlink);
    CHECK(link->uid != 1234);  // the link itself is not in the index
    auto shadow = fs.read_file("/etc/shadow");
    REQUIRE(!shadow.ok());
    CHECK(shadow.gap().reason == GapReason::permission_denied);
    auto top = fs.list_dir("/");
    REQUIRE(top.ok());
    for (const auto& entry : *top) CHECK(entry.name != ".rdmi-probe-bundle");
    CHECK(!fs.read_file(kManifest).ok());
    CHECK(!fs.is_live());
}

TEST_CASE("captured answers replay what was recorded, and nothing else") {
    const RecordingAnswers recording(LiveAnswers::direct());
    int asked = 0;
    auto ok = recording.answer("run tool --version", [&] {
        ++asked;
        return Result<std::string>(std::string("tool 1.0"));
    });
    CHECK(ok.ok());
    CHECK(asked == 1);
    (void)recording.answer("trust library /x", [] {
        return Result<std::string>(Gap{GapReason::untrusted, "/x: writable by others"});
    });
    REQUIRE(recording.recorded().size() == 2);
    std::map<std::string, Result<std::string>, std::less<>> answers;
    for (const auto& r : recording.recorded()) answers.insert_or_assign(r.key, r.answer);
    const CapturedAnswers captured(std::move(answers));
    CHECK(captured.captured());
    CHECK(captured.kind("api") == "captured");
    CHECK(LiveAnswers::direct().kind("api") == "api");
    auto again = captured.answer("run tool --version", [&] {
        ++asked;
        return Result<std::string>(std::string("asked"));
    });
    CHECK(asked == 1);  // never asked again
    CHECK(*again == "tool 1.0");
    CHECK(captured.answer("trust library /x", {}).gap().reason == GapReason::untrusted);
    CHECK(captured.answer("never asked", {}).gap().reason == GapReason::not_applicable);
}

TEST_CASE("PrivateDir is 0700 and goes away with all it holds") {
    test::TempTree tree;
    std::string path;
    {
        auto dir = PrivateDir::create(tree.root());
        REQUIRE(dir.ok());
        path = dir->path();
        struct stat st {};
        REQUIRE(::stat(path.c_str(), &st) == 0);
        CHECK((st.st_mode & 0777U) == 0700U);
        std::filesystem::create_directories(path + "/a/b/c");
        std::filesystem::create_symlink("/etc", path + "/a/etc");
        REQUIRE(::mkdir((path + "/a/locked").c_str(), 0) == 0);
        REQUIRE(::close(::creat((path + "/a/b/c/file").c_str(), 0)) == 0);
    }
    CHECK(!std::filesystem::exists(path));
    CHECK(std::filesystem::exists("/etc/passwd"));  // the link was removed, not followed
    auto again = PrivateDir::create(tree.root());
    REQUIRE(again.ok());
    std::filesystem::create_directories(again->path() + "/x/y");
    remove_private_dir_now();  // what a signal handler calls
    CHECK(!std::filesystem::exists(again->path()));
}

}  // namespace rdmi::bundle
