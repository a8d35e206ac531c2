// Bundles are written within the limits replay enforces: real trees over each limit (small
// limits, so that a test needs tens of files rather than 200,000), gathered through the
// recorder, written by libarchive, extracted and opened for replay with the same limits.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <set>

#include "bundle/extract.hpp"
#include "bundle/gather.hpp"
#include "bundle/layout.hpp"
#include "bundle/limits.hpp"
#include "bundle/replay.hpp"
#include "os/env.hpp"
#include "os/live_answers.hpp"
#include "os/recording_env.hpp"
#include "os/recording_fs.hpp"
#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::bundle {
namespace {

RootedFs open_root(const std::string& root) {
    auto fs = RootedFs::open(root, RootedFs::Resolution::kernel, false);
    REQUIRE(fs.ok());
    return fs.value();
}

// Small limits: every field well below the program's, each case raises what it does not test.
BundleLimits small_limits() {
    BundleLimits limits;
    limits.entries = 1000;
    limits.entry_bytes = 1 << 20;
    limits.extract_bytes = 4 << 20;
    limits.name_bytes = 400;
    limits.depth = 20;
    limits.component_bytes = 64;
    limits.link_bytes = 200;
    limits.document_bytes = 1 << 20;
    return limits;
}

struct Outcome {
    nlohmann::ordered_json manifest;
    std::set<std::string> archive_names;  ///< in-root paths of the extracted tree
    std::unique_ptr<Fs> replay;           ///< the opened replay's BundleFs
};

// What a probe does to `root` (`reads` read, `lists` listed), gathered under `limits`, written,
// extracted and opened under the same limits: every step must succeed.
Outcome gather_and_replay(const test::TempTree& root, const std::vector<std::string>& reads,
                          const std::vector<std::string>& lists, const BundleLimits& limits,
                          const test::TempTree& scratch) {
    const RootedFs inner = open_root(root.root());
    const RecordingFs recorder(inner);
    const Fs& fs = recorder.fs();
    for (const auto& path : reads) (void)fs.read_file(path);
    for (const auto& path : lists) (void)fs.list_dir(path);
    const MapEnv process_env;
    const RecordingEnv env(process_env);
    const RecordingAnswers answers(LiveAnswers::direct());
    BundleInfo info;
    info.tool_version = "test";
    info.generated_at = "2023-11-14T22:13:20Z";
    info.root = root.root();
    info.limits = limits;
    auto gathered = gather_bundle(Recorded{recorder, env, answers, "{}\n", ""}, info, 1700000000);
    REQUIRE_MESSAGE(gathered.ok(), (gathered.ok() ? "" : gathered.gap().message));
    const std::string archive = scratch.host("/b.tar.gz");
    {
        std::ofstream out(archive, std::ios::binary | std::ios::trunc);
        out << gathered->archive;
    }
    static int run = 0;
    const std::string into = "/x" + std::to_string(++run);
    scratch.mkdir(into, 0700);
    const Deadline deadline(std::chrono::minutes(1));
    auto extracted = extract_bundle(archive, scratch.host(into), deadline, limits);
    REQUIRE_MESSAGE(extracted.ok(), (extracted.ok() ? "" : extracted.gap().message));
    Outcome out;
    out.manifest = gathered->manifest;
    for (const auto& f : out.manifest["files"]) out.archive_names.insert(f["path"]);
    std::unique_ptr<Fs> opened_root = std::make_unique<RootedFs>(open_root(*extracted));
    auto replay = open_replay(opened_root, limits);
    REQUIRE_MESSAGE(replay.ok(), (replay.ok() ? "" : replay.gap().message));
    REQUIRE(replay->has_value());
    std::optional<Replay> opened = std::move(replay).value();
    out.replay = std::move(opened->fs);
    return out;
}

// The skipped records that name `limit`.
std::vector<nlohmann::ordered_json> skipped_for(const nlohmann::ordered_json& manifest,
                                                std::string_view limit) {
    std::vector<nlohmann::ordered_json> out;
    for (const auto& s : manifest["skipped"]) {
        if (s.contains("limit") && s["limit"] == limit) out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("gather over the entry limit stores up to it, captured files first, and replays") {
    test::TempTree root;
    test::TempTree scratch;
    root.write("/etc/kept", "read by the probe\n");
    for (int i = 0; i < 80; ++i) root.write("/many/f" + std::to_string(i), "");
    root.write("/zz/small", "");
    BundleLimits limits = small_limits();
    limits.entries = 40;
    const auto out = gather_and_replay(root, {"/etc/kept"}, {"/many", "/zz"}, limits, scratch);
    // The bundle's own five entries (top, documents' directory, three documents) count too.
    CHECK(out.archive_names.size() + 5 <= limits.entries);
    CHECK(out.archive_names.count("/etc/kept") == 1);
    // The large listing is the one cut short, not the small one that sorts after it.
    CHECK(out.archive_names.count("/zz/small") == 1);
    const auto skipped = skipped_for(out.manifest, "entries");
    // /etc, /etc/kept, /many and /zz stored first
    CHECK(skipped.size() == 81 - (limits.entries - 5 - 4));
    auto kept = out.replay->read_file("/etc/kept");
    REQUIRE(kept.ok());
    CHECK(*kept == "read by the probe\n");
    const std::string left_out = skipped.front()["path"];
    auto gone = out.replay->read_file(left_out);
    REQUIRE(!gone.ok());
    CHECK(gone.gap().reason == GapReason::not_applicable);
    CHECK(gone.gap().message.find("not in the bundle") != std::string::npos);
    CHECK(out.replay->stat(left_out).gap().reason == GapReason::not_applicable);
}

TEST_CASE("a file past the per-entry or the extraction limit is kept as a placeholder") {
    test::TempTree root;
    test::TempTree scratch;
    root.write("/big", std::string(100000, 'b'));
    for (int i = 0; i < 6; ++i) root.write("/f" + std::to_string(i), std::string(2000, 'f'));
    BundleLimits limits = small_limits();
    limits.entry_bytes = 70000;
    limits.document_bytes = 64 << 10;
    // Room for four of the 2000-byte files once the documents' share is kept.
    limits.extract_bytes = limits.document_bytes + 8200;
    std::vector<std::string> reads{"/big"};
    for (int i = 0; i < 6; ++i) reads.push_back("/f" + std::to_string(i));
    const auto out = gather_and_replay(root, reads, {}, limits, scratch);
    REQUIRE(skipped_for(out.manifest, "entry_bytes").size() == 1);
    CHECK(skipped_for(out.manifest, "entry_bytes")[0]["path"] == "/big");
    CHECK(skipped_for(out.manifest, "extract_bytes").size() == 2);
    CHECK(out.manifest["content_bytes"] == 4 * 2000);
    CHECK(out.replay->read_file("/big").gap().reason == GapReason::not_applicable);
    CHECK(out.replay->read_file("/f0").ok());
}

TEST_CASE("a name too long or too deep, a long component, a long link text: left out, replays") {
    test::TempTree root;
    test::TempTree scratch;
    std::string long_file;
    for (int i = 0; i < 5; ++i) long_file += "/" + std::string(30, 'n');
    long_file += "/file";  // 17 + 160 bytes: past 150, within the depth and component limits
    root.write(long_file, "x");
    root.write("/a/b/c/d/e/f/g/file", "deep");
    root.write("/" + std::string(40, 'c') + "/file", "component");
    root.write("/target/of/a/long/link/file", "linked");
    root.symlink("../target/of/a/long/link/file", "/links/l");
    root.write("/ok", "ok");
    BundleLimits limits = small_limits();
    limits.name_bytes = 150;
    limits.depth = 7;  // rdmi-probe-bundle, a, b, c, d, e, f
    limits.component_bytes = 32;
    limits.link_bytes = 20;
    const auto out = gather_and_replay(
        root,
        {long_file, "/a/b/c/d/e/f/g/file", "/" + std::string(40, 'c') + "/file", "/links/l", "/ok"},
        {}, limits, scratch);
    for (const auto& name : out.archive_names) {
        CAPTURE(name);
        CHECK(std::string(kTopDir).size() + name.size() <= limits.name_bytes);
    }
    CHECK(skipped_for(out.manifest, "name_bytes").size() == 1);
    REQUIRE(skipped_for(out.manifest, "depth").size() == 1);
    // Left out with everything below it, in one record.
    CHECK(skipped_for(out.manifest, "depth")[0]["path"] == "/a/b/c/d/e/f/g");
    CHECK(skipped_for(out.manifest, "component_bytes").size() == 1);
    CHECK(skipped_for(out.manifest, "link_bytes").size() == 1);
    CHECK(out.replay->read_file("/ok").ok());
    CHECK(out.replay->read_file("/links/l").gap().reason == GapReason::not_applicable);
    CHECK(out.replay->read_file("/a/b/c/d/e/f/g/file").gap().reason == GapReason::not_applicable);
    CHECK(out.replay->read_file("/target/of/a/long/link/file").ok());
}

TEST_CASE("the manifest stays within its limit: past its room, skipped records are counted") {
    test::TempTree root;
    test::TempTree scratch;
    for (int i = 0; i < 300; ++i)
        root.write("/many/file-with-a-longer-name-" + std::to_string(i), "");
    BundleLimits limits = small_limits();
    limits.document_bytes = 12 << 10;
    const auto out = gather_and_replay(root, {}, {"/many"}, limits, scratch);
    CHECK(out.manifest.dump(2).size() + 1 <= limits.document_bytes);
    CHECK(!skipped_for(out.manifest, "document_bytes").empty());
    // The last record counts what the manifest had no room to list, at their directory.
    const auto& last = out.manifest["skipped"].back();
    CHECK(last["path"] == "/many");
    CHECK(last["reason"].get<std::string>().find("more objects") != std::string::npos);
    CHECK(out.replay->read_file("/many/file-with-a-longer-name-99").gap().reason ==
          GapReason::not_applicable);
}

TEST_CASE("property: every bundle gather writes under random small limits replays") {
    std::mt19937 random(20261205);  // NOLINT(cert-msc32-c,cert-msc51-cpp): reproducible
    std::set<std::string> reached;
    for (int round = 0; round < 16; ++round) {
        CAPTURE(round);
        test::TempTree root;
        test::TempTree scratch;
        std::vector<std::string> reads;
        std::vector<std::string> lists;
        const int dirs = 1 + static_cast<int>(random() % 6);
        for (int d = 0; d < dirs; ++d) {
            std::string dir;
            const int depth = 1 + static_cast<int>(random() % 9);
            for (int level = 0; level < depth; ++level)
                dir += "/" + std::string(1 + random() % 40, static_cast<char>('a' + d));
            const int files = static_cast<int>(random() % 40);
            for (int f = 0; f < files; ++f) {
                const std::string path = dir + "/f" + std::to_string(f);
                // Now and then one past any entry limit drawn below.
                const std::size_t size = random() % 12 == 0 ? 80000 : random() % 6000;
                root.write(path, std::string(size, 'x'));
                if (random() % 2 == 0) reads.push_back(path);
            }
            if (files != 0 && random() % 3 == 0) {
                root.symlink(dir.substr(1) + "/f0", "/link" + std::to_string(d));
                reads.push_back("/link" + std::to_string(d));
            }
            lists.push_back(dir);
        }
        BundleLimits limits = small_limits();
        limits.entries = 8 + random() % 60;
        limits.document_bytes = (16 << 10) + random() % (48 << 10);
        // As in the program's table, a document fits in an entry.
        limits.entry_bytes = limits.document_bytes + random() % (8 << 10);
        limits.extract_bytes = 2 * limits.document_bytes + random() % (40 << 10);
        // Never below what the bundle's own entries need
        // (rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json: 50 bytes, 3 levels).
        limits.name_bytes = 50 + random() % 300;
        limits.depth = 3 + random() % 8;
        limits.component_bytes = 18 + random() % 40;
        limits.link_bytes = 5 + random() % 100;
        const auto out = gather_and_replay(root, reads, lists, limits, scratch);
        CHECK(out.archive_names.size() + 5 <= limits.entries);
        CHECK(out.manifest.dump(2).size() + 1 <= limits.document_bytes);
        for (const auto& skipped : out.manifest["skipped"]) {
            if (skipped.contains("limit")) reached.insert(skipped["limit"].get<std::string>());
        }
    }
    // The rounds went past every limit at least once.
    for (const std::string limit : {"entries", "entry_bytes", "extract_bytes", "name_bytes",
                                    "depth", "component_bytes", "link_bytes", "document_bytes"}) {
        CAPTURE(limit);
        CHECK(reached.count(limit) == 1);
    }
}

TEST_CASE("extraction stops at the run's deadline, naming the archive") {
    test::TempTree root;
    test::TempTree scratch;
    root.write("/etc/os-release", "ID=test\n");
    const RootedFs inner = open_root(root.root());
    const RecordingFs recorder(inner);
    const Fs& fs = recorder.fs();
    (void)fs.read_file("/etc/os-release");
    const MapEnv process_env;
    const RecordingEnv env(process_env);
    const RecordingAnswers answers(LiveAnswers::direct());
    BundleInfo info;
    info.root = root.root();
    auto gathered = gather_bundle(Recorded{recorder, env, answers, "{}\n", ""}, info, 1700000000);
    REQUIRE(gathered.ok());
    const std::string archive = scratch.host("/b.tar.gz");
    {
        std::ofstream out(archive, std::ios::binary | std::ios::trunc);
        out << gathered->archive;
    }
    scratch.mkdir("/into", 0700);
    const Deadline passed(std::chrono::milliseconds(0));
    auto extracted = extract_bundle(archive, scratch.host("/into"), passed);
    REQUIRE(!extracted.ok());
    CHECK(extracted.gap().reason == GapReason::timeout);
    CHECK(extracted.gap().message.starts_with(archive + ": not extracted within"));
}

}  // namespace rdmi::bundle
