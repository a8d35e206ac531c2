// The rpm records against databases made by the real rpm tools (tests/fixtures/rpmdb), read
// with this machine's librpm from a private copy: owners, digests, a directory's main owner,
// refusals as gaps, nothing created under the root, and a gather's answers replayed without
// librpm.
#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "context/context.hpp"
#include "context/rpm_records_context.hpp"
#include "digest/sha256.hpp"
#include "loader/library_trust.hpp"
#include "os/env.hpp"
#include "os/live_answers.hpp"
#include "os/private_dir.hpp"
#include "os/rooted_fs.hpp"
#include "packages/rpm_records.hpp"
#include "support/temp_tree.hpp"

using namespace rdmi;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

const std::string kInclude = "/opt/mellanox/doca/include";

std::string rpmdb_fixture(const std::string& name) {
    return std::string(RDMI_TEST_FIXTURES_DIR) + "/rpmdb/" + name;
}

// The fixture databases need rpm and rpmbuild at build time (tests/fixtures/rpmdb).
bool have_fixtures() {
    if (fs::exists(rpmdb_fixture("good/var/lib/rpm/rpmdb.sqlite"))) return true;
    MESSAGE("no rpm fixture databases (rpm and rpmbuild not found at build time): skipped");
    return false;
}

// A root holding a copy of the fixture `name`'s var/lib/rpm and, unless left out, the headers.
void make_root(const test::TempTree& tree, const std::string& name) {
    fs::copy(rpmdb_fixture(name), tree.root(), fs::copy_options::recursive);
}

std::string read_host(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
}

// Every entry under `root`: type, size, modification time and the contents' digest.
std::map<std::string, std::string> snapshot(const std::string& root) {
    std::map<std::string, std::string> entries;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        const auto status = entry.symlink_status();
        std::string facts = std::to_string(static_cast<int>(status.type()));
        if (fs::is_regular_file(status)) {
            facts += " " + std::to_string(entry.file_size()) + " " +
                     std::to_string(entry.last_write_time().time_since_epoch().count()) + " " +
                     sha256_hex(read_host(entry.path().string()));
        }
        entries[entry.path().string()] = facts;
    }
    return entries;
}

spdlog::logger& null_logger() {
    static spdlog::logger logger("rpm-test", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

// The gate the run uses, without a ProbeContext: the trusted-library rule on a host file.
Result<std::string> trusted(const std::string& host_path) {
    if (!fs::exists(host_path)) return make_gap(GapReason::not_found, host_path + ": none");
    if (auto gap = check_library_trust(host_path)) return *gap;
    return host_path;
}

struct Reader {
    test::TempTree scratch;  // the private directory's parent
    RunPrivateDir private_dir{scratch.root()};
    RootedFs fs;
    const LiveAnswers& answers;

    explicit Reader(const std::string& root, const LiveAnswers& given = LiveAnswers::direct())
        : fs(RootedFs::open(root).value()), answers(given) {}

    [[nodiscard]] RpmRecordsSource source() {
        return RpmRecordsSource{fs, answers, Deadline(30s), 20s, private_dir, trusted};
    }
    Result<std::unique_ptr<PackageRecords>> open() { return open_rpm_records(source()); }
};

}  // namespace

TEST_CASE("rpm records: the package that lists a file, its version, arch and recorded digest") {
    if (!have_fixtures()) return;
    test::TempTree root;
    make_root(root, "good");
    Reader reader(root.root());
    auto records = reader.open();
    REQUIRE_MESSAGE(records.ok(), (records.ok() ? "" : records.gap().message));
    CHECK((*records)->manager() == "rpm");
    CHECK((*records)->source().ref == "/var/lib/rpm/rpmdb.sqlite");

    // The header is missing from the root: the records still say who lists it.
    auto header = (*records)->owner_of(kInclude + "/doca_rdmi_poster.h");
    REQUIRE(header.has_value());
    CHECK(header->package.name == "doca-sdk-rdmi");
    CHECK(header->package.version == "3.3.0047-1");
    CHECK(header->package.arch == "x86_64");
    CHECK(header->path == kInclude + "/doca_rdmi_poster.h");
    // rpm 4.18 records SHA-256 digests (RPMTAG_FILEDIGESTALGO 8) of what the spec installed.
    CHECK(header->digest_algorithm == "sha256");
    CHECK(header->digest == sha256_hex("/* doca_rdmi_poster.h */\n"));
    CHECK((*records)->reinstall_command(header->package) == "dnf reinstall doca-sdk-rdmi");

    // Listed as /usr/lib64/...: the same file on a merged-/usr system.
    auto library = (*records)->owner_of("/lib64/libdoca_rdmi.so.3");
    REQUIRE(library.has_value());
    CHECK(library->package.name == "doca-sdk-rdmi");
    CHECK(library->path == "/usr/lib64/libdoca_rdmi.so.3");

    CHECK_FALSE((*records)->owner_of(kInclude + "/doca_unlisted.h").has_value());

    // Five headers of doca-sdk-rdmi against three of doca-sdk-common.
    auto main_owner = (*records)->main_owner_of_directory(kInclude);
    REQUIRE(main_owner.has_value());
    CHECK(main_owner->name == "doca-sdk-rdmi");
    CHECK_FALSE((*records)->main_owner_of_directory("/usr/share/empty").has_value());
}

TEST_CASE("rpm records: nothing is created or changed under the probed root") {
    if (!have_fixtures()) return;
    test::TempTree root;
    make_root(root, "good");
    const auto before = snapshot(root.root());
    Reader reader(root.root());
    {
        auto records = reader.open();
        REQUIRE(records.ok());
        CHECK((*records)->owner_of(kInclude + "/doca_ctx.h").has_value());
        CHECK((*records)->main_owner_of_directory(kInclude).has_value());
    }
    // No rpmdb.sqlite-wal, -shm or .rpm.lock beside the probed database: librpm opened a copy,
    // and made them there.
    CHECK(snapshot(root.root()) == before);
    bool copy_has_shm = false;
    for (const auto& entry : fs::recursive_directory_iterator(reader.scratch.root())) {
        if (entry.path().filename() == "rpmdb.sqlite-shm") copy_has_shm = true;
    }
    CHECK(copy_has_shm);
}

TEST_CASE("rpm records: a database librpm refuses is a gap with its reason, never a crash") {
    if (!have_fixtures()) return;
    for (const std::string name : {"garbage", "truncated"}) {
        CAPTURE(name);
        test::TempTree root;
        make_root(root, name);
        Reader reader(root.root());
        auto records = reader.open();
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason == GapReason::malformed);
        CHECK(records.gap().message.starts_with(
            "/var/lib/rpm/rpmdb.sqlite: librpm refuses the database: sqlite failure"));
        CHECK(records.gap().message.find("librpm refuses the database") != std::string::npos);
        CHECK(records.gap().message.find("crashed") == std::string::npos);
    }
}

TEST_CASE("rpm records: no database, or one in an older format, is not applicable and says so") {
    if (!have_fixtures()) return;
    {
        test::TempTree root;
        root.mkdir("/var/lib");
        Reader reader(root.root());
        auto records = reader.open();
        REQUIRE_FALSE(records.ok());
        CHECK(records.gap().reason == GapReason::not_applicable);
        CHECK(records.gap().message == "no rpm database (/var/lib/rpm/rpmdb.sqlite)");
    }
    test::TempTree root;
    make_root(root, "bdb");
    Reader reader(root.root());
    auto records = reader.open();
    REQUIRE_FALSE(records.ok());
    CHECK(records.gap().reason == GapReason::not_applicable);
    CHECK(records.gap().message.find("Berkeley DB") != std::string::npos);
}

TEST_CASE("rpm records: a database past the size cap is not read") {
    if (!have_fixtures()) return;
    test::TempTree root;
    root.mkdir("/var/lib/rpm");
    {
        std::ofstream big(root.host("/var/lib/rpm/rpmdb.sqlite"), std::ios::binary);
        big.seekp(static_cast<std::streamoff>(kMaxRpmDatabaseBytes));
        big.put('\0');
    }
    Reader reader(root.root());
    auto records = reader.open();
    REQUIRE_FALSE(records.ok());
    CHECK(records.gap().message.find("the rpm database is read up to 256 MiB") !=
          std::string::npos);
}

TEST_CASE("rpm records: librpm that fails the trust gate is not loaded") {
    if (!have_fixtures()) return;
    test::TempTree root;
    make_root(root, "good");
    test::TempTree planted;
    planted.write("/librpm.so.9", "not a library", 0644);
    planted.chmod("/", 0777);  // a directory any user could have planted it in
    Reader reader(root.root());
    auto source = reader.source();
    source.library_paths = {planted.host("/librpm.so.9")};
    auto records = open_rpm_records(source);
    REQUIRE_FALSE(records.ok());
    CHECK(records.gap().reason == GapReason::untrusted);
}

TEST_CASE("rpm records: gather's answers replay without librpm") {
    if (!have_fixtures()) return;
    test::TempTree root;
    make_root(root, "good");
    RecordingAnswers recording(LiveAnswers::direct());
    std::string live_owner;
    {
        Reader reader(root.root(), recording);
        auto records = reader.open();
        REQUIRE(records.ok());
        live_owner = (*records)->owner_of(kInclude + "/doca_rdmi_poster.h")->package.name;
        CHECK((*records)->main_owner_of_directory(kInclude)->name == "doca-sdk-rdmi");
    }
    std::map<std::string, Result<std::string>, std::less<>> captured;
    for (auto& answer : recording.recorded()) captured.emplace(answer.key, answer.answer);
    CHECK(captured.contains("rpm open /var/lib/rpm/rpmdb.sqlite"));
    const CapturedAnswers replay(std::move(captured));

    Reader reader(root.root(), replay);
    auto source = reader.source();
    // No librpm at all: a replay never asks for one.
    source.trusted_library = [](const std::string& path) -> Result<std::string> {
        FAIL("librpm asked for in a replay: " << path);
        return make_gap(GapReason::error, "unreachable");
    };
    auto records = open_rpm_records(source);
    REQUIRE(records.ok());
    CHECK((*records)->source().kind == "captured");
    auto owner = (*records)->owner_of(kInclude + "/doca_rdmi_poster.h");
    REQUIRE(owner.has_value());
    CHECK(owner->package.name == live_owner);
    CHECK(owner->digest == sha256_hex("/* doca_rdmi_poster.h */\n"));
    CHECK((*records)->main_owner_of_directory(kInclude)->name == "doca-sdk-rdmi");
    // Nothing was copied: the scratch directory holds no private directory.
    CHECK(fs::is_empty(reader.scratch.root()));
}

TEST_CASE("rpm records through a probe context: under --root, with this machine's librpm") {
    if (!have_fixtures()) return;
    test::TempTree root;
    make_root(root, "good");
    auto rooted = RootedFs::open(root.root()).value();
    REQUIRE_FALSE(rooted.is_live());
    const MapEnv env;
    test::TempTree scratch;
    ProbeContext ctx{rooted, env, null_logger(), Deadline(30s), 20s, std::nullopt, false};
    ctx.private_dir = std::make_shared<RunPrivateDir>(scratch.root());
    auto records = open_rpm_records(ctx);
    REQUIRE_MESSAGE(records.ok(), (records.ok() ? "" : records.gap().message));
    auto owner = (*records)->owner_of(kInclude + "/doca_rdmi_connection.h");
    REQUIRE(owner.has_value());
    CHECK(owner->package.name == "doca-sdk-rdmi");
}

TEST_CASE("rpm records: an answer naming a package rpmbuild would refuse names none") {
    // A forged bundle (or database) answers with a name, version or arch holding a shell
    // command or a line feed: the fix would print "dnf reinstall <name>" for root to run.
    test::TempTree root;
    root.write("/var/lib/rpm/rpmdb.sqlite", "");
    const std::string digest(64, 'a');
    std::map<std::string, Result<std::string>, std::less<>> captured;
    captured.emplace("rpm open /var/lib/rpm/rpmdb.sqlite", std::string("packages 3"));
    const auto owner = [&](const std::string& file, const std::string& fields) {
        captured.emplace("rpm owner " + file, fields + "\t" + file + "\tsha256\t" + digest);
    };
    owner("/a.h", "doca;reboot\t1-1\tx86_64");
    owner("/b.h", "doca\t1-1\nPASS  all good\tx86_64");
    owner("/c.h", "doca\t1-1\tx86_64$(id)");
    owner("/d.h", "doca-sdk-rdmi\t2:3.3.0047-1.el9~rc^1\tx86_64");
    captured.emplace("rpm directory /e", std::string("doca|sh\t1-1\tnoarch\t4"));
    captured.emplace("rpm directory /f", std::string("doca-sdk-rdmi\t1-1\tnoarch\t4"));
    const CapturedAnswers replay(std::move(captured));
    Reader reader(root.root(), replay);
    auto records = reader.open();
    REQUIRE(records.ok());
    for (const char* forged : {"/a.h", "/b.h", "/c.h"}) {
        CAPTURE(forged);
        CHECK_FALSE((*records)->owner_of(forged).has_value());
    }
    auto plain = (*records)->owner_of("/d.h");
    REQUIRE(plain.has_value());
    CHECK(plain->package.version == "2:3.3.0047-1.el9~rc^1");
    CHECK_FALSE((*records)->main_owner_of_directory("/e").has_value());
    CHECK((*records)->main_owner_of_directory("/f")->name == "doca-sdk-rdmi");
}
