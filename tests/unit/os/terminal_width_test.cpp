// terminal_width: the terminal's own width first, COLUMNS next, the default last; a real pty
// answers TIOCGWINSZ, a pipe does not.
#include "os/terminal_width.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

#include "os/unique_fd.hpp"

namespace rdmi {
namespace {

TEST_CASE("terminal_width: the terminal wins over COLUMNS, COLUMNS over the default") {
    CHECK(terminal_width(132, "60") == 132);
    CHECK(terminal_width(std::nullopt, "60") == 60);
    CHECK(terminal_width(std::nullopt, std::nullopt) == 80);
    CHECK(terminal_width(std::nullopt, std::nullopt, 100) == 100);
    // A pty nobody sized says 0 columns: no answer, so COLUMNS decides.
    CHECK(terminal_width(0, "72") == 72);
}

TEST_CASE("terminal_width: a COLUMNS that is no whole positive number is ignored") {
    for (const char* bad : {"", "0", "-1", "80x", " 80", "abc", "99999999999999999999999"}) {
        INFO(bad);
        CHECK(terminal_width(std::nullopt, bad) == 80);
    }
}

TEST_CASE("terminal_width: clamped to what a layout can use") {
    CHECK(terminal_width(std::nullopt, "5") == kNarrowestWidth);
    CHECK(terminal_width(3, std::nullopt) == kNarrowestWidth);
    CHECK(terminal_width(std::nullopt, "5000000") == kWidestWidth);
    CHECK(terminal_width(65535, std::nullopt) == kWidestWidth);
}

TEST_CASE("window_columns: a real pty's size, and nothing from a pipe") {
    UniqueFd master(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
    REQUIRE(master.get() >= 0);
    REQUIRE(::grantpt(master.get()) == 0);
    REQUIRE(::unlockpt(master.get()) == 0);
    const char* name = ::ptsname(master.get());
    REQUIRE(name != nullptr);
    UniqueFd slave(::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC));
    REQUIRE(slave.get() >= 0);
    winsize size{};
    size.ws_row = 24;
    size.ws_col = 97;
    REQUIRE(::ioctl(master.get(), TIOCSWINSZ, &size) == 0);
    CHECK(window_columns(slave.get()) == 97u);
    CHECK(terminal_width(window_columns(slave.get()), "60") == 97);

    int pipe_fds[2];
    REQUIRE(::pipe2(pipe_fds, O_CLOEXEC) == 0);
    const UniqueFd read_end(pipe_fds[0]);
    const UniqueFd write_end(pipe_fds[1]);
    CHECK_FALSE(window_columns(write_end.get()).has_value());
}

}  // namespace
}  // namespace rdmi
