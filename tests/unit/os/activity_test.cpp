// Tests for the activity record: what the watchdog names when a run overruns.
#include "os/activity.hpp"

#include <doctest/doctest.h>

#include <string>
#include <thread>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {

TEST_CASE("an activity is in progress inside its scope and remembered after it") {
    {
        const activity::Scope scope(activity::Kind::listing, "/sys/class/infiniband");
        const auto now = activity::snapshot();
        CHECK(now.recorded);
        CHECK(now.in_progress);
        CHECK(now.description == "listing /sys/class/infiniband");
    }
    const auto after = activity::snapshot();
    CHECK(after.recorded);
    CHECK_FALSE(after.in_progress);
    CHECK(after.description == "listing /sys/class/infiniband");
}

TEST_CASE("an activity's path is kept on one line and bounded") {
    {
        const activity::Scope scope(activity::Kind::reading,
                                    "/a\nb\x7f"
                                    "c");
        CHECK(activity::snapshot().description == "reading /a?b?c");
    }
    const std::string long_path(activity::kMaxPathBytes + 100, 'x');
    const activity::Scope scope(activity::Kind::examining, long_path);
    const auto now = activity::snapshot();
    CHECK(now.description == "examining " + std::string(activity::kMaxPathBytes, 'x') + "...");
}

TEST_CASE("an inner scope ending clears the mark; an outer one ending later leaves a newer one") {
    {
        const activity::Scope outer(activity::Kind::reading, "/outer");
        {
            const activity::Scope inner(activity::Kind::examining, "/inner");
            CHECK(activity::snapshot().description == "examining /inner");
        }
        CHECK_FALSE(activity::snapshot().in_progress);
        const activity::Scope newer(activity::Kind::listing, "/newer");
        CHECK(activity::snapshot().in_progress);
    }
    CHECK_FALSE(activity::snapshot().in_progress);
}

TEST_CASE("RootedFs records each call, and another thread can read the record meanwhile") {
    test::TempTree tree;
    tree.write("/etc/os-release", "ID=debian\n");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    REQUIRE(fs->read_file("/etc/os-release").ok());
    CHECK(activity::snapshot().description == "reading /etc/os-release");
    REQUIRE(fs->list_dir("/etc").ok());
    CHECK(activity::snapshot().description == "listing /etc");
    (void)fs->stat("/nothing");
    CHECK(activity::snapshot().description == "examining /nothing");
    CHECK_FALSE(activity::snapshot().in_progress);
    // A reader racing the writer sees whole records only (ThreadSanitizer-clean by design: one
    // mutex); this also exercises the sanitizer builds.
    std::thread reader([] {
        for (int i = 0; i < 2000; ++i) {
            const auto s = activity::snapshot();
            // (before the writer's first call the record is still the stat above)
            CHECK((s.description == "reading /etc/os-release" || s.description == "listing /etc" ||
                   s.description == "examining /nothing"));
        }
    });
    for (int i = 0; i < 2000; ++i) {
        (void)fs->read_file("/etc/os-release");
        (void)fs->list_dir("/etc");
    }
    reader.join();
}

}  // namespace rdmi
