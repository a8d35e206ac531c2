// The handler only calls async-signal-safe functions (kill, unlink, write, _exit) and reads
// strings prepared before it was installed.
#include "cli/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <string>
#include <string_view>

#include "cli/error_document.hpp"
#include "os/child_groups.hpp"
#include "os/private_dir.hpp"

namespace rdmi::cli {
namespace {

std::atomic<int> g_owner{0};

struct Prepared {
    int signal;
    const char* message;
    std::string line;      // for stderr
    std::string document;  // for stdout, or empty without --json
};
std::array<Prepared, 4> g_prepared{Prepared{SIGINT, "interrupted by SIGINT", {}, {}},
                                   Prepared{SIGTERM, "interrupted by SIGTERM", {}, {}},
                                   Prepared{SIGHUP, "interrupted by SIGHUP", {}, {}},
                                   Prepared{SIGQUIT, "interrupted by SIGQUIT", {}, {}}};

void write_all(int fd, std::string_view text) noexcept {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void on_interrupt(int signal) {
    kill_child_groups();
    remove_pending_file();
    remove_private_dir_now();
    // The document may be on its way to stdout already (a FIFO nobody reads): then only
    // stderr says why the run ended. The watchdog, once it fired, speaks for itself.
    const bool mine = claim_output(OutputOwner::interrupt);
    if (mine || claim_output(OutputOwner::document)) {
        for (const auto& p : g_prepared) {
            if (p.signal != signal) continue;
            write_all(STDERR_FILENO, p.line);
            if (mine) write_all(STDOUT_FILENO, p.document);
        }
    }
    ::_exit(128 + signal);
}

}  // namespace

void reset_output_owner() noexcept {
    g_owner.store(0);
}

bool claim_output(OutputOwner who) noexcept {
    int expected = 0;
    const int mine = static_cast<int>(who);
    return g_owner.compare_exchange_strong(expected, mine) || expected == mine;
}

const char* interrupt_message(int signal) noexcept {
    for (const auto& p : g_prepared) {
        if (p.signal == signal) return p.message;
    }
    return "interrupted";
}

void install_interrupt_handlers(bool json) {
    for (auto& p : g_prepared) {
        p.line = std::string("rdmi-probe: ") + p.message + "\n";
        p.document = json ? error_document(p.message, 128 + p.signal) : std::string();
    }
    struct sigaction action {};
    action.sa_handler = &on_interrupt;
    sigemptyset(&action.sa_mask);
    // While one handler runs, the others wait: one message, one exit.
    for (const auto& p : g_prepared) sigaddset(&action.sa_mask, p.signal);
    for (const auto& p : g_prepared) {
        struct sigaction old {};
        ::sigaction(p.signal, nullptr, &old);
        // A run started with the signal ignored (nohup, a background job) keeps it ignored.
        if (old.sa_handler == SIG_IGN) continue;
        ::sigaction(p.signal, &action, nullptr);
    }
    ::signal(SIGPIPE, SIG_IGN);
}

}  // namespace rdmi::cli
