// Tests for the loader-path prediction: the ld.so.cache parser (synthetic and the host's own,
// compared with `ldconfig -p`) and the search order over a temporary root.
#include "loader/loader_path.hpp"

#include <doctest/doctest.h>
#include <elf.h>

#include <chrono>
#include <set>
#include <tuple>

#include "os/rooted_fs.hpp"
#include "process/process.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

struct RawEntry {
    std::int32_t flags;
    std::string soname;
    std::string path;
    std::uint64_t hwcap = 0;
};

void put(std::string& out, std::uint64_t value, std::size_t width, bool big) {
    for (std::size_t i = 0; i < width; ++i) {
        const std::size_t shift = 8 * (big ? width - 1 - i : i);
        out.push_back(static_cast<char>((value >> shift) & 0xffU));
    }
}

// A "glibc-ld.so.cache1.1" file as ldconfig writes it: header, entries, then the strings.
std::string make_cache(const std::vector<RawEntry>& entries, bool big = false) {
    std::string strings;
    const std::size_t base = 48 + 24 * entries.size();
    std::vector<std::pair<std::size_t, std::size_t>> offsets;
    for (const auto& e : entries) {
        const std::size_t key = base + strings.size();
        strings += e.soname + '\0';
        const std::size_t value = base + strings.size();
        strings += e.path + '\0';
        offsets.emplace_back(key, value);
    }
    std::string out = "glibc-ld.so.cache1.1";
    put(out, entries.size(), 4, big);
    put(out, strings.size(), 4, big);
    out.push_back(big ? '\3' : '\2');
    out.append(3, '\0');
    put(out, 0, 4, big);
    out.append(12, '\0');
    for (std::size_t i = 0; i < entries.size(); ++i) {
        put(out, static_cast<std::uint32_t>(entries[i].flags), 4, big);
        put(out, offsets[i].first, 4, big);
        put(out, offsets[i].second, 4, big);
        put(out, 0, 4, big);
        put(out, entries[i].hwcap, 8, big);
    }
    return out + strings;
}

LoaderQuery x86_query(std::string soname, std::optional<std::string> ld_library_path = {}) {
    return LoaderQuery{std::move(soname), EM_X86_64, 64, std::move(ld_library_path)};
}

}  // namespace

TEST_CASE("ld.so.cache: entries, flags and hwcap read in either byte order") {
    const std::vector<RawEntry> raw{
        {0x0303, "libdoca_rdmi.so.3", "/opt/doca/lib/libdoca_rdmi.so.3"},
        {0x0a03, "libdoca_rdmi.so.3", "/arm/libdoca_rdmi.so.3"},
        {0x0303, "libz.so.1", "/lib/libz.so.1", 1ULL << 62U}};
    for (bool big : {false, true}) {
        CAPTURE(big);
        auto entries = parse_ld_so_cache(make_cache(raw, big));
        REQUIRE(entries.ok());
        REQUIRE(entries->size() == 3);
        CHECK((*entries)[0].soname == "libdoca_rdmi.so.3");
        CHECK((*entries)[0].path == "/opt/doca/lib/libdoca_rdmi.so.3");
        CHECK((*entries)[0].flags == 0x0303);
        CHECK((*entries)[1].flags == 0x0a03);
        CHECK((*entries)[2].hwcap == 1ULL << 62U);
        // The views read the same entries, pointing into the bytes.
        const std::string bytes = make_cache(raw, big);
        auto views = parse_ld_so_cache_views(bytes);
        REQUIRE(views.ok());
        REQUIRE(views->size() == 3);
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK((*views)[i].soname == (*entries)[i].soname);
            CHECK((*views)[i].path == (*entries)[i].path);
            CHECK((*views)[i].flags == (*entries)[i].flags);
            CHECK((*views)[i].hwcap == (*entries)[i].hwcap);
            CHECK((*views)[i].path.data() >= bytes.data());
            CHECK((*views)[i].path.data() < bytes.data() + bytes.size());
        }
    }
    CHECK(parse_ld_so_cache_views("garbage").gap().reason == GapReason::malformed);
}

TEST_CASE("ld.so.cache: malformed inputs are gaps, never crashes") {
    CHECK(parse_ld_so_cache("").gap().reason == GapReason::malformed);
    CHECK(parse_ld_so_cache("garbage garbage garbage garbage garbage garbage garbage")
              .gap()
              .message == "not a glibc-ld.so.cache1.1 file");
    CHECK(parse_ld_so_cache(std::string("ld.so-1.7.0") + std::string(64, '\0'))
              .gap()
              .message.find("old ld.so-1.7.0") != std::string::npos);
    std::string cache = make_cache({{0x0303, "liba.so.1", "/lib/liba.so.1"}});
    SUBCASE("more entries claimed than the file holds") {
        cache[20] = '\x7f';
        CHECK(parse_ld_so_cache(cache).gap().message.find("do not fit") != std::string::npos);
    }
    SUBCASE("a string offset past the end") {
        cache[48 + 8] = '\xff';
        cache[48 + 9] = '\xff';
        CHECK(parse_ld_so_cache(cache).gap().message.find("past the end") != std::string::npos);
    }
    SUBCASE("a string without its terminating NUL") {
        cache.pop_back();
        CHECK_FALSE(parse_ld_so_cache(cache).ok());
    }
    SUBCASE("truncated at every length") {
        // Every proper prefix lacks at least the last string's NUL: none may parse.
        for (std::size_t n = 0; n < cache.size(); ++n) {
            CAPTURE(n);
            CHECK_FALSE(parse_ld_so_cache(cache.substr(0, n)).ok());
        }
    }
}

TEST_CASE("ld.so.cache: a name or path longer than PATH_MAX is malformed") {
    // ldconfig writes paths of at most 4095 bytes. A hostile cache's entries may all name one
    // string megabytes long: each would be searched (and once copied) in full.
    const std::string longest = "/" + std::string(4094, 'a');
    // Views into the cache's bytes: the cache must outlive them.
    const std::string fitting = make_cache({{0x0303, "liba.so.1", longest}});
    auto fits = parse_ld_so_cache_views(fitting);
    REQUIRE(fits.ok());
    CHECK((*fits)[0].path == longest);
    const std::string cache = make_cache({{0x0303, "liba.so.1", longest + "a"}});
    auto views = parse_ld_so_cache_views(cache);
    REQUIRE_FALSE(views.ok());
    CHECK(views.gap().reason == GapReason::malformed);
    CHECK(views.gap().message.find("entry 0") != std::string::npos);
    CHECK(views.gap().message.find("4095 bytes") != std::string::npos);
}

TEST_CASE("prediction notes a few hwcaps variants of a name, then how many more") {
    // Hostile: 10,000 hwcaps entries for the soname, each a 4,000-byte path. One note each
    // would be 40 MB of notes in the document.
    test::TempTree tree;
    std::vector<RawEntry> raw;
    for (int i = 0; i < 10000; ++i) {
        raw.push_back({0x0303, "libdoca_rdmi.so.3",
                       "/v" + std::to_string(i) + "/" + std::string(4000, 'x'), 1});
    }
    tree.write("/etc/ld.so.cache", make_cache(raw));
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    auto p = predict_loader_path(*fs, x86_query("libdoca_rdmi.so.3"));
    CHECK_FALSE(p.path);
    REQUIRE(p.notes.size() == 9);
    CHECK(p.notes[0].starts_with("ld.so.cache also lists /v0/"));
    CHECK(p.notes[7].starts_with("ld.so.cache also lists /v7/"));
    CHECK(p.notes[8] == "ld.so.cache lists 9992 more hwcaps variants of libdoca_rdmi.so.3");
}

TEST_CASE("ld.so.cache: the host's cache parses to what `ldconfig -p` prints") {
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    auto bytes = fs->read_file("/etc/ld.so.cache", kMaxLdCacheBytes);
    auto ldconfig = run_process({"/sbin/ldconfig", "-p"}, Deadline(10s));
    if (!bytes.ok() || !ldconfig.ok() || ldconfig->exit_code != 0) {
        MESSAGE("no host ld.so.cache or ldconfig; skipped");
        return;
    }
    auto entries = parse_ld_so_cache(*bytes);
    REQUIRE(entries.ok());
    std::multiset<std::pair<std::string, std::string>> ours;
    for (const auto& e : *entries) ours.emplace(e.soname, e.path);
    // "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1"
    std::multiset<std::pair<std::string, std::string>> theirs;
    std::size_t pos = ldconfig->stdout_text.find('\n') + 1;  // "N libs found in cache"
    while (pos < ldconfig->stdout_text.size()) {
        const auto end = ldconfig->stdout_text.find('\n', pos);
        const std::string line = ldconfig->stdout_text.substr(pos, end - pos);
        pos = end == std::string::npos ? ldconfig->stdout_text.size() : end + 1;
        const auto arrow = line.find(" => ");
        const auto paren = line.find(" (");
        if (arrow == std::string::npos || paren == std::string::npos) continue;
        theirs.emplace(line.substr(1, paren - 1), line.substr(arrow + 4));
    }
    CHECK(theirs.size() > 10);
    CHECK(ours == theirs);
}

TEST_CASE("cache flags and default directories follow the library's machine") {
    CHECK(ld_cache_flags(EM_X86_64, 64) == 0x0303);
    CHECK(ld_cache_flags(EM_AARCH64, 64) == 0x0a03);
    CHECK(ld_cache_flags(EM_386, 32) == 0x0003);
    CHECK(ld_cache_flags(0xbeef, 64) == 0);
    CHECK(default_library_dirs(EM_AARCH64, 64) ==
          std::vector<std::string>{"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib64",
                                   "/usr/lib64", "/lib", "/usr/lib"});
    CHECK(default_library_dirs(EM_386, 32) == std::vector<std::string>{"/lib/i386-linux-gnu",
                                                                       "/usr/lib/i386-linux-gnu",
                                                                       "/lib", "/usr/lib"});
}

TEST_CASE("LD_LIBRARY_PATH splits at ':' and ';', keeping empty entries") {
    CHECK(split_library_path("/a:/b/;/c") == std::vector<std::string>{"/a", "/b", "/c"});
    CHECK(split_library_path("/a::/b") == std::vector<std::string>{"/a", "", "/b"});
    CHECK(split_library_path("") == std::vector<std::string>{""});
}

TEST_CASE("prediction follows LD_LIBRARY_PATH, then ld.so.cache, then the default dirs") {
    test::TempTree tree;
    tree.write("/opt/new/libdoca_rdmi.so.3", "x");
    tree.write("/opt/old/libdoca_rdmi.so.3", "x");
    tree.write("/usr/lib/x86_64-linux-gnu/libdoca_rdmi.so.3", "x");
    tree.write("/etc/ld.so.cache",
               make_cache({{0x0a03, "libdoca_rdmi.so.3", "/arm/libdoca_rdmi.so.3"},
                           {0x0303, "libdoca_rdmi.so.3", "/opt/old/libdoca_rdmi.so.3"}}));
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());

    SUBCASE("LD_LIBRARY_PATH wins; relative entries are noted, not followed") {
        auto p = predict_loader_path(*fs, x86_query("libdoca_rdmi.so.3", "rel:/nowhere:/opt/new"));
        REQUIRE(p.path);
        CHECK(*p.path == "/opt/new/libdoca_rdmi.so.3");
        CHECK(p.source == LoaderSource::ld_library_path);
        CHECK(p.searched ==
              std::vector<std::string>{"/nowhere/libdoca_rdmi.so.3", "/opt/new/libdoca_rdmi.so.3"});
        REQUIRE(p.notes.size() == 1);
        CHECK(p.notes[0].find("'rel'") != std::string::npos);
    }
    SUBCASE("the cache entry of the right architecture is next") {
        auto p = predict_loader_path(*fs, x86_query("libdoca_rdmi.so.3", "/nowhere"));
        REQUIRE(p.path);
        CHECK(*p.path == "/opt/old/libdoca_rdmi.so.3");
        CHECK(p.source == LoaderSource::ld_so_cache);
    }
    SUBCASE("an aarch64 library gets the aarch64 entry, which is missing: default dirs next") {
        auto p = predict_loader_path(*fs, LoaderQuery{"libdoca_rdmi.so.3", EM_AARCH64, 64, {}});
        CHECK_FALSE(p.path);
        CHECK(p.source == LoaderSource::none);
        CHECK(p.notes.at(0) == "ld.so.cache names /arm/libdoca_rdmi.so.3, which is missing");
        CHECK(p.searched.back() == "/usr/lib/libdoca_rdmi.so.3");
    }
    SUBCASE("without a cache the default dirs decide") {
        test::TempTree bare;
        bare.write("/usr/lib/x86_64-linux-gnu/libdoca_rdmi.so.3", "x");
        auto bare_fs = RootedFs::open(bare.root());
        auto p = predict_loader_path(*bare_fs, x86_query("libdoca_rdmi.so.3"));
        REQUIRE(p.path);
        CHECK(*p.path == "/usr/lib/x86_64-linux-gnu/libdoca_rdmi.so.3");
        CHECK(p.source == LoaderSource::default_dirs);
        CHECK(p.notes.at(0).find("/etc/ld.so.cache") == 0);
    }
    SUBCASE("a garbage cache is noted and skipped") {
        tree.write("/etc/ld.so.cache", "not a cache at all, not at all, not at all, no");
        auto p = predict_loader_path(*fs, x86_query("libdoca_rdmi.so.3"));
        REQUIRE(p.path);
        CHECK(p.source == LoaderSource::default_dirs);
        CHECK(p.notes.at(0) == "/etc/ld.so.cache: not a glibc-ld.so.cache1.1 file");
    }
    SUBCASE("a soname with a slash is a path") {
        auto p = predict_loader_path(*fs, x86_query("/opt/new/libdoca_rdmi.so.3"));
        REQUIRE(p.path);
        CHECK(*p.path == "/opt/new/libdoca_rdmi.so.3");
        CHECK_FALSE(predict_loader_path(*fs, x86_query("/opt/none.so")).path);
    }
    SUBCASE("hwcaps entries are noted, the baseline entry is the prediction") {
        tree.write(
            "/etc/ld.so.cache",
            make_cache({{0x0303, "libdoca_rdmi.so.3", "/opt/new/libdoca_rdmi.so.3", 1ULL << 62U},
                        {0x0303, "libdoca_rdmi.so.3", "/opt/old/libdoca_rdmi.so.3"}}));
        auto p = predict_loader_path(*fs, x86_query("libdoca_rdmi.so.3"));
        REQUIRE(p.path);
        CHECK(*p.path == "/opt/old/libdoca_rdmi.so.3");
        CHECK(p.notes.at(0).find("hwcaps") != std::string::npos);
    }
}

}  // namespace rdmi
