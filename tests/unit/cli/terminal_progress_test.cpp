// The progress status line (src/cli/terminal_progress): what reaches the descriptor.
#include "cli/terminal_progress.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <string>

#include "os/env.hpp"

namespace rdmi::cli {
namespace {

// A pipe standing in for the terminal: everything written to it, read back without blocking.
class Capture {
  public:
    Capture() { REQUIRE(::pipe2(fds_.data(), O_NONBLOCK) == 0); }
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;
    ~Capture() {
        ::close(fds_[0]);
        ::close(fds_[1]);
    }
    [[nodiscard]] int fd() const { return fds_[1]; }
    std::string take() {
        std::string out;
        std::array<char, 4096> buf{};
        ssize_t n = 0;
        while ((n = ::read(fds_[0], buf.data(), buf.size())) > 0)
            out.append(buf.data(), static_cast<std::size_t>(n));
        return out;
    }

  private:
    std::array<int, 2> fds_{};
};

class FixedEnv final : public Env {
  public:
    [[nodiscard]] std::optional<std::string> get(std::string_view /*name*/) const override {
        return std::nullopt;
    }
};

TEST_CASE("a status line: erase, the text and the count; finish erases it") {
    Capture tty;
    TerminalProgress progress(tty.fd(), 80);
    progress.finish();
    CHECK(tty.take().empty());  // nothing shown, nothing to erase
    progress.update("libibverbs: opening mlx5_0", 0, 2);
    CHECK(tty.take() == "\r\033[Krdmi-probe: libibverbs: opening mlx5_0 (1/2)");
    progress.update("libibverbs: opening mlx5_1", 1, 2);  // the last item: never throttled
    CHECK(tty.take() == "\r\033[Krdmi-probe: libibverbs: opening mlx5_1 (2/2)");
    progress.finish();
    CHECK(tty.take() == "\r\033[K");
    progress.finish();
    CHECK(tty.take().empty());
}

TEST_CASE("updates are throttled, a step without a count shows none, lines fit the width") {
    Capture tty;
    TerminalProgress progress(tty.fd(), 30);
    progress.update("loopback: write", 0, 1000);
    progress.update("loopback: write", 1, 1000);  // within 100 ms of the first: dropped
    const std::string shown = tty.take();
    CHECK(shown == "\r\033[Krdmi-probe: loopback: write (");
    CHECK(shown.size() - 4 == 29);  // width - 1 columns after the erase sequence
    TerminalProgress wide(tty.fd(), 200);
    wide.update("loopback: open-device", 0, 0);
    CHECK(tty.take() == "\r\033[Krdmi-probe: loopback: open-device");
}

TEST_CASE("make_progress: nothing with --quiet, --verbose, or when stderr is not a terminal") {
    const FixedEnv env;
    CHECK(make_progress(true, 0, env) == nullptr);
    CHECK(make_progress(false, 1, env) == nullptr);
    if (::isatty(STDERR_FILENO) != 1) CHECK(make_progress(false, 0, env) == nullptr);
}

}  // namespace
}  // namespace rdmi::cli
