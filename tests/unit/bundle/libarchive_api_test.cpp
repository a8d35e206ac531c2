// load_libarchive(): the table binds from the system's libarchive.so.13, and a file the loader
// would find first that is not libarchive is refused with one line naming the soname.
#include "bundle/libarchive_api.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace rdmi::bundle {
namespace fs = std::filesystem;

TEST_CASE("load_libarchive binds every entry from the system library") {
    const MapEnv env;
    auto loaded = load_libarchive(env);
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.gap().message));
    CHECK(loaded->path.find("libarchive.so.13") != std::string::npos);
    CHECK((loaded->api.archive_write_new != nullptr));
    CHECK((loaded->api.archive_entry_set_size != nullptr));
    archive* a = loaded->api.archive_read_new();
    REQUIRE(a != nullptr);
    CHECK(loaded->api.archive_read_free(a) == ARCHIVE_OK);
}

TEST_CASE("load_libarchive refuses what LD_LIBRARY_PATH puts first when it is not usable") {
    const fs::path dir =
        fs::temp_directory_path() / ("rdmi-libarchive-test." + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directory(dir);
    ::chmod(dir.c_str(), 0755);
    std::ofstream(dir / "libarchive.so.13") << "not a shared object\n";
    ::chmod((dir / "libarchive.so.13").c_str(), 0644);
    MapEnv env;
    env.set("LD_LIBRARY_PATH", dir.string());
    auto loaded = load_libarchive(env);
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.gap().message.rfind("libarchive.so.13: ", 0) == 0);
    CHECK(loaded.gap().message.find('\n') == std::string::npos);
    CHECK(loaded.gap().message.find("libarchive13") != std::string::npos);
    SUBCASE("a directory anyone may write to is not searched") {
        ::chmod(dir.c_str(), 0777);
        auto again = load_libarchive(env);
        REQUIRE_FALSE(again.ok());
        CHECK(again.gap().reason == GapReason::untrusted);
        CHECK(again.gap().message.find(dir.string()) != std::string::npos);
    }
    fs::remove_all(dir);
}

}  // namespace rdmi::bundle
