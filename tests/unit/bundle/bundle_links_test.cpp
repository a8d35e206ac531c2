// Tests that a bundle holds nothing a link the view refuses (os/link_rule.hpp) leads to: the
// tree is built by walking each recorded path again, and must not follow such a link either.
#include <doctest/doctest.h>
#include <unistd.h>

#include "bundle/bundle_tree.hpp"
#include "os/recording_fs.hpp"
#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::bundle {

TEST_CASE("build_tree stores no byte of a file reached only through a refused link") {
    if (::geteuid() != 0) {
        MESSAGE("needs root to own a link as another user; skipped");
        return;
    }
    test::TempTree tree;
    tree.write("/vault/secret", "TOPSECRET\n", 0600);
    tree.write("/home/u/prefix/applications/other", "3.3.0105\n");
    tree.symlink("/vault/secret", "/home/u/prefix/applications/VERSION");
    tree.symlink("/vault", "/home/u/prefix/lib");
    for (const char* path : {"/home/u", "/home/u/prefix", "/home/u/prefix/applications",
                             "/home/u/prefix/applications/other",
                             "/home/u/prefix/applications/VERSION", "/home/u/prefix/lib"})
        REQUIRE(::lchown(tree.host(path).c_str(), 65534, 65534) == 0);
    LinkRule rule;
    rule.owner_match = true;
    auto inner = RootedFs::open(tree.root(), RootedFs::Resolution::kernel, false, rule);
    REQUIRE(inner.ok());
    const RecordingFs recorder(*inner);
    const Fs& fs = recorder.fs();
    CHECK_FALSE(fs.read_file("/home/u/prefix/applications/VERSION").ok());
    CHECK_FALSE(fs.map_file("/home/u/prefix/lib/secret", 1U << 20U).ok());
    CHECK_FALSE(fs.list_dir("/home/u/prefix/lib").ok());
    CHECK(fs.read_file("/home/u/prefix/applications/other").ok());

    const Tree built = build_tree(*inner, recorder.recorded(), Caps{});
    for (const auto& item : built.entries) {
        const std::string& path = item.first;  // CAPTURE cannot take a structured binding
        CAPTURE(path);
        CHECK(item.second.bytes.find("TOPSECRET") == std::string::npos);
    }
    CHECK(built.entries.count("/vault/secret") == 0);
    CHECK(built.entries.at("/home/u/prefix/applications/other").bytes == "3.3.0105\n");
    // The refusals are recorded: the replay gives the same gap.
    bool refusal_recorded = false;
    for (const auto& failure : built.failures) {
        if (failure.path == "/home/u/prefix/applications/VERSION" &&
            failure.gap.reason == GapReason::untrusted)
            refusal_recorded = true;
    }
    CHECK(refusal_recorded);
}

}  // namespace rdmi::bundle
