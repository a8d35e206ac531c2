// The progress status line on stderr.
#include "cli/terminal_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <string>

#include "report/terminal_text.hpp"

namespace rdmi::cli {
namespace {

constexpr auto kMinInterval = std::chrono::milliseconds(100);
constexpr std::string_view kEraseLine = "\r\033[K";

void write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n <= 0) return;  // a status line is not worth retrying or reporting
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

}  // namespace

TerminalProgress::TerminalProgress(int fd, std::size_t width) : fd_(fd), width_(width) {}

void TerminalProgress::update(std::string_view what, std::size_t done, std::size_t total) {
    const auto now = std::chrono::steady_clock::now();
    const bool last_item = total > 0 && done + 1 >= total;
    if (shown_ && !last_item && now - last_ < kMinInterval) return;
    last_ = now;
    // `what` names probed files: shown escaped like every human output.
    std::string line = "rdmi-probe: " + text::terminal_safe(what);
    if (total > 0) line += " (" + std::to_string(done + 1) + "/" + std::to_string(total) + ")";
    // One column short of the width: a full line would wrap on some terminals.
    if (width_ > 1 && line.size() > width_ - 1) {
        std::size_t cut = width_ - 1;
        // Never end inside a UTF-8 sequence.
        while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xc0U) == 0x80U) --cut;
        line.resize(cut);
    }
    write_all(fd_, std::string(kEraseLine) + line);
    shown_ = true;
}

void TerminalProgress::finish() {
    if (!shown_) return;
    write_all(fd_, kEraseLine);
    shown_ = false;
}

std::unique_ptr<Progress> make_progress(bool quiet, int verbose, const Env& env) {
    if (quiet || verbose > 0 || ::isatty(STDERR_FILENO) != 1) return nullptr;
    if (auto term = env.get("TERM"); term && *term == "dumb") return nullptr;
    std::size_t width = 80;
    winsize size{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) width = size.ws_col;
    return std::make_unique<TerminalProgress>(STDERR_FILENO, width);
}

}  // namespace rdmi::cli
