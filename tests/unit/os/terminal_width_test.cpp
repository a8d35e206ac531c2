// The terminal's width, from a real pseudo-terminal sized with TIOCSWINSZ, then COLUMNS.
#include "os/terminal_width.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <string>

#include <doctest/doctest.h>

#include "os/unique_fd.hpp"

namespace rdmi {

namespace {

// A real pseudo-terminal whose window is `columns` wide (TIOCSWINSZ, as a terminal emulator
// sizes it); both ends closed at the end of the test.
struct SizedTerminal {
    explicit SizedTerminal(unsigned short columns) {
        primary = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        REQUIRE(primary >= 0);
        REQUIRE(::grantpt(primary) == 0);
        REQUIRE(::unlockpt(primary) == 0);
        replica = ::open(::ptsname(primary), O_RDWR | O_NOCTTY | O_CLOEXEC);
        REQUIRE(replica >= 0);
        winsize size{};
        size.ws_row = 24;
        size.ws_col = columns;
        REQUIRE(::ioctl(replica, TIOCSWINSZ, &size) == 0);
    }
    ~SizedTerminal() {
        if (replica >= 0) ::close(replica);
        if (primary >= 0) ::close(primary);
    }
    SizedTerminal(const SizedTerminal&) = delete;
    SizedTerminal& operator=(const SizedTerminal&) = delete;
    int primary = -1;
    int replica = -1;
};

// COLUMNS for one test, restored after it.
class ColumnsVariable {
  public:
    explicit ColumnsVariable(const char* value) {
        if (const char* old = std::getenv("COLUMNS")) saved_ = old;
        had_ = std::getenv("COLUMNS") != nullptr;
        if (value != nullptr) {
            ::setenv("COLUMNS", value, 1);
        } else {
            ::unsetenv("COLUMNS");
        }
    }
    ~ColumnsVariable() {
        if (had_) {
            ::setenv("COLUMNS", saved_.c_str(), 1);
        } else {
            ::unsetenv("COLUMNS");
        }
    }
    ColumnsVariable(const ColumnsVariable&) = delete;
    ColumnsVariable& operator=(const ColumnsVariable&) = delete;

  private:
    std::string saved_;
    bool had_ = false;
};

}  // namespace

TEST_CASE("terminal_width: a terminal's own width wins over COLUMNS") {
    const SizedTerminal terminal(63);
    const ColumnsVariable columns("120");
    CHECK(terminal_columns(terminal.replica) == std::optional<std::size_t>(63));
    CHECK(terminal_width(terminal.replica, 100) == 63);
}

TEST_CASE("terminal_width: no terminal, COLUMNS; neither, the fallback") {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    const UniqueFd read_end(fds[0]);
    const UniqueFd write_end(fds[1]);
    CHECK_FALSE(terminal_columns(fds[1]));
    {
        const ColumnsVariable columns("72");
        CHECK(terminal_width(fds[1], 100) == 72);
    }
    {
        const ColumnsVariable columns(nullptr);
        CHECK(terminal_width(fds[1], 100) == 100);
        CHECK(terminal_width(fds[1], 80) == 80);
    }
    {
        const ColumnsVariable columns("wide");
        CHECK(terminal_width(fds[1], 100) == 100);
    }
}

TEST_CASE("columns_variable takes a whole number from 1 to 10000 only") {
    CHECK(columns_variable("80") == std::optional<std::size_t>(80));
    CHECK(columns_variable("10000") == std::optional<std::size_t>(10000));
    CHECK_FALSE(columns_variable(""));
    CHECK_FALSE(columns_variable("0"));
    CHECK_FALSE(columns_variable("10001"));
    CHECK_FALSE(columns_variable("80x"));
    CHECK_FALSE(columns_variable("-80"));
    CHECK_FALSE(columns_variable(" 80"));
}

}  // namespace rdmi
