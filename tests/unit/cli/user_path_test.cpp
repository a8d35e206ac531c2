// Tests for user_path() (the working directory in front, `..` left for the kernel) and
// read_user_file().
#include "cli/user_path.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rdmi::cli {

TEST_CASE("a path through a symbolic link and .. names what the shell names") {
    namespace fs = std::filesystem;
    const fs::path base = fs::temp_directory_path() / ("user-path-" + std::to_string(getpid()));
    fs::remove_all(base);
    fs::create_directories(base / "real/sub");
    std::ofstream(base / "real/app") << "x";
    fs::create_directory_symlink(base / "real/sub", base / "link");
    const fs::path old = fs::current_path();
    fs::current_path(base);
    const std::string path = user_path("link/../app");
    // Lexically, link/../app is base/app, which does not exist; open(2) reaches real/app.
    CHECK(path == (base / "link/../app").string());
    CHECK(fs::exists(path));
    CHECK(user_path("./link//../app") == path);
    CHECK(user_path("app/") == (base / "app/").string());
    CHECK(user_path("/abs/../x") == "/abs/../x");
    CHECK(user_path("").empty());
    fs::current_path(old);
    fs::remove_all(base);
}

TEST_CASE("read_user_file names the option and the full path tried, and keeps the bound") {
    namespace fs = std::filesystem;
    const fs::path base = fs::temp_directory_path() / ("user-file-" + std::to_string(getpid()));
    fs::remove_all(base);
    fs::create_directories(base);
    std::ofstream(base / "names.txt") << "doca_a\ndoca_b\n";
    const std::string path = (base / "names.txt").string();

    auto text = read_user_file("--allow-experimental", path, 1024, LinkRule::for_this_process());
    REQUIRE(text.ok());
    CHECK(*text == "doca_a\ndoca_b\n");

    auto missing = read_user_file("--policy", (base / "none.json").string(), 1024,
                                  LinkRule::for_this_process());
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.gap().reason == GapReason::not_found);
    CHECK(missing.gap().message.starts_with("--policy " + (base / "none.json").string() + ": "));

    auto large = read_user_file("--policy", path, 4, LinkRule::for_this_process());
    REQUIRE_FALSE(large.ok());
    CHECK(large.gap().message.starts_with("--policy " + path + ": "));

    auto directory = read_user_file("--policy", base.string(), 1024, LinkRule::for_this_process());
    REQUIRE_FALSE(directory.ok());
    CHECK(directory.gap().message.starts_with("--policy " + base.string() + ": "));
    fs::remove_all(base);
}

TEST_CASE("experimental_allow_list: @FILE lines, comments, CRLF; a lone @ names the problem") {
    namespace fs = std::filesystem;
    const fs::path base = fs::temp_directory_path() / ("allow-list-" + std::to_string(getpid()));
    fs::remove_all(base);
    fs::create_directories(base);
    std::ofstream(base / "names.txt")
        << "# accepted\r\ndoca_a # reviewed\r\n\r\n  doca_b,doca_c\n#\n";
    auto names = experimental_allow_list({"doca_x", "@" + (base / "names.txt").string()},
                                         LinkRule::for_this_process());
    REQUIRE(names.ok());
    CHECK(*names == std::vector<std::string>{"doca_x", "doca_a", "doca_b", "doca_c"});

    auto lone = experimental_allow_list({"@"}, LinkRule::for_this_process());
    REQUIRE_FALSE(lone.ok());
    CHECK(lone.gap().message == "--allow-experimental @: no file name after the @");
    fs::remove_all(base);
}

}  // namespace rdmi::cli
