// Tests for RealPaths against realpath(3) itself, on a real tree of links: the same canonical
// path or the same errno for every path, asked of a fresh resolver, of one that has resolved
// every other path before (its remembered directories in play), and in the reverse order.
#include "loader/real_paths.hpp"

#include <doctest/doctest.h>
#include <pthread.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "support/child_output.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
// Named: the unity build joins this file with others, whose helpers may have these names.
namespace real_paths_test {

// A tree with every kind of link the checks meet: relative and absolute targets, targets with
// "..", ".", a trailing slash, chains, loops, dangling links, a file where a directory must be.
// Chains "c0" (40 links to reach lib) and "d0" (41) sit at the loop limit.
void make_tree(const test::TempTree& tree) {
    tree.mkdir("/usr/lib/x86_64-linux-gnu/libibverbs");
    tree.write("/usr/lib/x86_64-linux-gnu/libx.so.1.2", "x");
    tree.write("/usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so", "x");
    tree.symlink("libx.so.1.2", "/usr/lib/x86_64-linux-gnu/libx.so.1");
    tree.symlink("usr/lib", "/lib");                                    // merged /usr
    tree.symlink(tree.host("/usr/lib"), "/abslib");                     // absolute target
    tree.symlink("../../usr/lib/x86_64-linux-gnu", "/deep/a/triplet");  // ".." in the target
    tree.symlink("lib/", "/slashy");                                    // a trailing slash
    tree.symlink(".", "/self");                                         // "."
    tree.symlink("chain2", "/chain1");
    tree.symlink("lib", "/chain2");                               // a link to a link
    tree.symlink("nowhere", "/dangle");                           // missing target
    tree.symlink("lib/x86_64-linux-gnu/libx.so.1", "/filelink");  // a link to a file
    tree.symlink("loop", "/loop");                                // a link to itself
    tree.symlink("b_loop", "/a_loop");
    tree.symlink("a_loop", "/b_loop");
    tree.write("/etc/conf", "x");
    for (int i = 0; i < 40; ++i) {
        const std::string next = i == 39 ? "usr/lib" : "c" + std::to_string(i + 1);
        tree.symlink(next, "/c" + std::to_string(i));
    }
    for (int i = 0; i < 41; ++i) {
        const std::string next = i == 40 ? "usr/lib" : "d" + std::to_string(i + 1);
        tree.symlink(next, "/d" + std::to_string(i));
    }
}

std::vector<std::string> paths(const test::TempTree& tree) {
    std::vector<std::string> in_tree = {
        "/usr/lib/x86_64-linux-gnu/libx.so.1.2",
        "/usr/lib/x86_64-linux-gnu/libx.so.1",
        "/lib/x86_64-linux-gnu/libx.so.1",
        "/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so",
        "/lib/x86_64-linux-gnu",
        "/lib/x86_64-linux-gnu/",
        "/lib/x86_64-linux-gnu/.",
        "/lib/x86_64-linux-gnu/..",
        "/lib/x86_64-linux-gnu/../x86_64-linux-gnu/libx.so.1",
        "/lib/../etc/conf",
        "/lib",
        "/lib/",
        "/abslib/x86_64-linux-gnu/libx.so.1",
        "/abslib/..",
        "/deep/a/triplet/libx.so.1",
        "/deep/a/triplet/../../..",
        "/slashy/x86_64-linux-gnu/libx.so.1",
        "/slashy",
        "/self/self/lib/x86_64-linux-gnu/libx.so.1",
        "/chain1/x86_64-linux-gnu/libx.so.1",
        "/chain1",
        "//lib//x86_64-linux-gnu///libx.so.1",
        "/lib///",
        "/dangle",
        "/dangle/x",
        "/nope",
        "/lib/nope",
        "/nope/x",
        "/filelink",
        "/filelink/x",
        "/filelink/",
        "/filelink/.",
        "/filelink/..",
        "/etc/conf/x",
        "/etc/conf/..",
        "/loop",
        "/loop/x",
        "/a_loop/x",
        "/c20/x86_64-linux-gnu/libx.so.1",  // a prefix of the next, resolved first
        "/c0/x86_64-linux-gnu",
        "/c0/x86_64-linux-gnu/libx.so.1",  // 40 links, then one more: ELOOP
        "/c0",
        "/d1/x86_64-linux-gnu/libx.so.1",  // 40 links
        "/d0/x86_64-linux-gnu/libx.so.1",  // 41: ELOOP
        "/d0",
        "/c39/../c5/x86_64-linux-gnu",  // ".." after a remembered link, into another chain
        "/d5/../d0",
        "/c1/../d3",
        "/",
    };
    std::vector<std::string> out;
    out.reserve(in_tree.size() + 1);
    for (const auto& p : in_tree) out.push_back(p == "/" ? std::string("/") : tree.host(p));
    out.push_back(tree.root());
    return out;
}

}  // namespace real_paths_test

TEST_CASE("RealPaths gives realpath(3)'s answer for every kind of link") {
    test::TempTree tree;
    real_paths_test::make_tree(tree);
    const std::vector<std::string> all = real_paths_test::paths(tree);

    RealPaths in_order;
    for (const auto& path : all) {
        CAPTURE(path);
        const RealPaths::Answer want = RealPaths::libc(path);
        RealPaths fresh;
        const RealPaths::Answer alone = fresh.resolve(path);
        CHECK(alone.err == want.err);
        CHECK(alone.path == want.path);
        const RealPaths::Answer shared = in_order.resolve(path);
        CHECK(shared.err == want.err);
        CHECK(shared.path == want.path);
        const RealPaths::Answer again = in_order.resolve(path);
        CHECK(again.err == want.err);
        CHECK(again.path == want.path);
    }
    RealPaths reversed;
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        const std::string& path = *it;
        CAPTURE(path);
        const RealPaths::Answer want = RealPaths::libc(path);
        const RealPaths::Answer got = reversed.resolve(path);
        CHECK(got.err == want.err);
        CHECK(got.path == want.path);
    }
}

TEST_CASE("RealPaths answers the errors the trust checks rely on") {
    test::TempTree tree;
    real_paths_test::make_tree(tree);
    RealPaths resolver;
    CHECK(resolver.resolve(tree.host("/nope")).err == ENOENT);
    CHECK(resolver.resolve(tree.host("/dangle")).err == ENOENT);
    CHECK(resolver.resolve(tree.host("/loop")).err == ELOOP);
    CHECK(resolver.resolve(tree.host("/d0")).err == ELOOP);
    CHECK(resolver.resolve(tree.host("/c0")).err == 0);
    CHECK(resolver.resolve(tree.host("/filelink/x")).err == ENOTDIR);
    CHECK(resolver.resolve("").err == ENOENT);
    CHECK(resolver.resolve(tree.host("/lib/x86_64-linux-gnu/libx.so.1")).path ==
          RealPaths::libc(tree.root()).path + "/usr/lib/x86_64-linux-gnu/libx.so.1.2");
}

TEST_CASE("under a low descriptor limit RealPaths holds none and answers as realpath(3)") {
    test::TempTree tree;
    real_paths_test::make_tree(tree);
    const std::vector<std::string> all = real_paths_test::paths(tree);
    // The child exits with the number of paths answered differently.
    const int wrong = test::exit_status_in_child([&all] {
        const rlimit low{16, 16};
        if (::setrlimit(RLIMIT_NOFILE, &low) != 0) return 100;
        RealPaths resolver;
        int differ = 0;
        for (const auto& path : all) {
            const RealPaths::Answer want = RealPaths::libc(path);
            const RealPaths::Answer got = resolver.resolve(path);
            if (got.err != want.err || got.path != want.path) ++differ;
        }
        return differ;
    });
    CHECK(wrong == 0);
}

TEST_CASE("RealPaths follows links of thousands of components within a small stack") {
    test::TempTree tree;
    tree.write("/d/lib/libz.so", "x");
    // 40 links, each naming the next followed by 2,000 "." components: the kernel and
    // realpath(3) follow them; a walk with a stack frame per component would need 80,000.
    std::string dots;
    for (int i = 0; i < 2000; ++i) dots += "/.";
    for (int i = 0; i < 40; ++i) {
        const std::string next = i == 39 ? "d" : "L" + std::to_string(i + 1);
        tree.symlink(next + dots, "/L" + std::to_string(i));
    }
    const std::string path = tree.host("/L0/lib/libz.so");
    const RealPaths::Answer want = RealPaths::libc(path);
    REQUIRE(want.err == 0);
    // The child exits 0 when the answer is realpath(3)'s, 1 when another; a thread of 256 KiB
    // of stack that overflows ends it with SIGSEGV, which fails the test.
    const int status = test::exit_status_in_child([&path, &want] {
        RealPaths::Answer got;
        pthread_attr_t attr;
        ::pthread_attr_init(&attr);
        // Sanitized -O0 frames are several times larger: 8 MiB there still ends a walk of
        // 80,000 frames long before its end, and holds the 256 the resolver allows.
#ifdef RDMI_PROBE_SANITIZED
        ::pthread_attr_setstacksize(&attr, 8192 * 1024);
#else
        ::pthread_attr_setstacksize(&attr, 256 * 1024);
#endif
        struct Job {
            const std::string* path;
            RealPaths::Answer* got;
        } job{&path, &got};
        pthread_t thread;
        if (::pthread_create(
                &thread, &attr,
                [](void* arg) -> void* {
                    auto* j = static_cast<Job*>(arg);
                    RealPaths resolver;
                    *j->got = resolver.resolve(*j->path);
                    return nullptr;
                },
                &job) != 0)
            return 2;
        ::pthread_join(thread, nullptr);
        return got.err == want.err && got.path == want.path ? 0 : 1;
    });
    CHECK(status == 0);
}

TEST_CASE("RealPaths leaves a relative path to realpath(3)") {
    RealPaths resolver;
    const RealPaths::Answer got = resolver.resolve(".");
    CHECK(got.err == 0);
    CHECK(got.path == RealPaths::libc(".").path);
}

}  // namespace rdmi
