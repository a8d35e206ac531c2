// The handler only calls async-signal-safe functions (kill, unlink, write, _exit) and reads
// strings prepared before it was installed.
#include "cli/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "cli/error_document.hpp"
#include "cli/exit_codes.hpp"
#include "os/child_groups.hpp"
#include "os/mapped_regions.hpp"
#include "os/private_dir.hpp"

namespace rdmi::cli {
namespace {

std::atomic<int> g_owner{0};

// The message of each member of kInterruptSignals, in its order.
constexpr std::array<const char*, 13> kInterruptMessages{
    "interrupted by SIGINT",   "interrupted by SIGTERM", "interrupted by SIGHUP",
    "interrupted by SIGQUIT",  "interrupted by SIGXCPU", "interrupted by SIGALRM",
    "interrupted by SIGUSR1",  "interrupted by SIGUSR2", "interrupted by SIGVTALRM",
    "interrupted by SIGPROF",  "interrupted by SIGIO",   "interrupted by SIGPWR",
    "interrupted by SIGSTKFLT"};
static_assert(std::size(kInterruptSignals) == kInterruptMessages.size());

struct Prepared {
    int signal = 0;
    std::string message;   // "interrupted by SIGRTMIN+3"
    std::string line;      // for stderr
    std::string document;  // for stdout, or empty without --json
};
// kInterruptSignals, then SIGRTMIN..SIGRTMAX (at most 32 of them).
std::array<Prepared, kInterruptMessages.size() + 32> g_prepared{};
std::size_t g_prepared_count = 0;

// The message of `signal`, one of for_each_interrupt_signal()'s.
std::string message_of(int signal) {
    for (std::size_t i = 0; i < kInterruptMessages.size(); ++i) {
        if (kInterruptSignals[i] == signal) return kInterruptMessages[i];
    }
    const int above = signal - SIGRTMIN;
    return "interrupted by SIGRTMIN" + (above == 0 ? std::string() : "+" + std::to_string(above));
}

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
    // A document being written to --output leaves stdout to the error document.
    const bool mine = claim_output(OutputOwner::interrupt) ||
                      hand_over_output(OutputOwner::output_file, OutputOwner::interrupt);
    if (mine || claim_output(OutputOwner::document)) {
        for (std::size_t i = 0; i < g_prepared_count; ++i) {
            const Prepared& p = g_prepared[i];
            if (p.signal != signal) continue;
            write_all(STDERR_FILENO, p.line);
            if (mine) write_all(STDOUT_FILENO, p.document);
        }
    }
    ::_exit(128 + signal);
}

// The error document around its message, split before the handler may need it: the message names
// a file only known when the signal arrives.
std::string g_bus_document_head;
std::string g_bus_document_tail;
constexpr std::string_view kBusMessage = ": the file shrank while it was mapped (SIGBUS)";

// JSON string contents, one byte at a time and without allocating. A byte of 0x80 or above
// becomes '?': valid UTF-8 cannot be told from invalid here, and the document must stay JSON.
void write_json_text(int fd, std::string_view text) noexcept {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            const std::array<char, 2> escaped{'\\', c};
            write_all(fd, {escaped.data(), escaped.size()});
        } else if (byte < 0x20) {
            constexpr std::string_view kHex = "0123456789abcdef";
            const std::array<char, 6> escaped{
                '\\', 'u', '0', '0', kHex[byte >> 4U], kHex[byte & 15U]};
            write_all(fd, {escaped.data(), escaped.size()});
        } else {
            const char plain = byte >= 0x80 ? '?' : c;
            write_all(fd, {&plain, 1});
        }
    }
}

std::string_view c_text(const char* text) noexcept {
    std::size_t n = 0;
    while (text[n] != '\0') ++n;
    return {text, n};
}

// A read of a mapped file past the end it has now (it was truncated or replaced in place): the
// run cannot go on with that file, so it ends as unreadable input does, naming the file.
void on_bus_error(int signal, siginfo_t* info, void* /*context*/) {
    const char* path = info != nullptr ? mapped_path_at(info->si_addr) : nullptr;
    if (path == nullptr) {
        // Not a mapped file: a fault of the program itself, left to the default action.
        (void)::signal(signal, SIG_DFL);
        return;
    }
    kill_child_groups();
    remove_pending_file();
    remove_private_dir_now();
    const bool mine = claim_output(OutputOwner::interrupt);
    if (mine || claim_output(OutputOwner::document)) {
        write_all(STDERR_FILENO, "rdmi-probe: ");
        write_all(STDERR_FILENO, c_text(path));
        write_all(STDERR_FILENO, kBusMessage);
        write_all(STDERR_FILENO, "\n");
        if (mine && !g_bus_document_head.empty()) {
            write_all(STDOUT_FILENO, g_bus_document_head);
            write_json_text(STDOUT_FILENO, c_text(path));
            write_all(STDOUT_FILENO, kBusMessage);
            write_all(STDOUT_FILENO, g_bus_document_tail);
        }
    }
    ::_exit(kExitUsage);
}

// The SIGBUS document's pieces, from the error document's.
void prepare_bus_document(const ErrorDocumentPieces* pieces) {
    g_bus_document_head.clear();
    g_bus_document_tail.clear();
    if (pieces == nullptr) return;
    g_bus_document_head = pieces->head();
    g_bus_document_tail = pieces->middle() + std::to_string(kExitUsage) + pieces->tail();
}

void install_bus_handler() {
    struct sigaction action {};
    action.sa_sigaction = &on_bus_error;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for_each_interrupt_signal([&action](int sig) { sigaddset(&action.sa_mask, sig); });
    ::sigaction(SIGBUS, &action, nullptr);
}

}  // namespace

void install_bus_error_handler(bool json) {
    if (json) {
        const ErrorDocumentPieces pieces;
        prepare_bus_document(&pieces);
    } else {
        prepare_bus_document(nullptr);
    }
    install_bus_handler();
}

void reset_output_owner() noexcept {
    g_owner.store(0);
}

void wait_for_the_owner_to_exit() noexcept {
    // pause() returns after each handled signal; the owner's _exit() is what ends the wait.
    while (true) ::pause();
}

bool claim_output(OutputOwner who) noexcept {
    int expected = 0;
    const int mine = static_cast<int>(who);
    return g_owner.compare_exchange_strong(expected, mine) || expected == mine;
}

bool hand_over_output(OutputOwner from, OutputOwner to) noexcept {
    int expected = static_cast<int>(from);
    return g_owner.compare_exchange_strong(expected, static_cast<int>(to));
}

const char* interrupt_message(int signal) noexcept {
    for (std::size_t i = 0; i < g_prepared_count; ++i) {
        if (g_prepared[i].signal == signal) return g_prepared[i].message.c_str();
    }
    for (std::size_t i = 0; i < kInterruptMessages.size(); ++i) {
        if (kInterruptSignals[i] == signal) return kInterruptMessages[i];
    }
    return "interrupted";
}

void install_interrupt_handlers(bool json) {
    g_prepared_count = 0;
    // One error document cut into pieces serves every signal's and SIGBUS's.
    std::optional<ErrorDocumentPieces> pieces;
    if (json) pieces.emplace();
    for_each_interrupt_signal([&pieces](int sig) {
        if (g_prepared_count == g_prepared.size()) return;
        Prepared& p = g_prepared[g_prepared_count++];
        p.signal = sig;
        p.message = message_of(sig);
        p.line = "rdmi-probe: " + p.message + "\n";
        p.document = pieces ? pieces->document(p.message, 128 + sig) : std::string();
    });
    struct sigaction action {};
    action.sa_handler = &on_interrupt;
    sigemptyset(&action.sa_mask);
    // While one handler runs, the others wait: one message, one exit.
    for (std::size_t i = 0; i < g_prepared_count; ++i)
        sigaddset(&action.sa_mask, g_prepared[i].signal);
    for (std::size_t i = 0; i < g_prepared_count; ++i) {
        const int sig = g_prepared[i].signal;
        struct sigaction old {};
        ::sigaction(sig, nullptr, &old);
        // A run started with the signal ignored (nohup, a background job) keeps it ignored.
        if (old.sa_handler == SIG_IGN) continue;
        ::sigaction(sig, &action, nullptr);
    }
    // A mask inherited through exec would hold them back for the whole run (a service
    // manager's SIGTERM never delivered, then its SIGKILL): unblocked, once handled.
    sigset_t handled;
    sigemptyset(&handled);
    for (std::size_t i = 0; i < g_prepared_count; ++i) sigaddset(&handled, g_prepared[i].signal);
    ::pthread_sigmask(SIG_UNBLOCK, &handled, nullptr);
    (void)::signal(SIGPIPE, SIG_IGN);
    // Past ulimit -f a write fails with EFBIG, which names the file and removes the temporary,
    // instead of SIGXFSZ ending the run with neither.
    (void)::signal(SIGXFSZ, SIG_IGN);
    prepare_bus_document(pieces ? &*pieces : nullptr);
    install_bus_handler();
}

std::string_view interrupt_document(int signal) noexcept {
    for (std::size_t i = 0; i < g_prepared_count; ++i) {
        if (g_prepared[i].signal == signal) return g_prepared[i].document;
    }
    return {};
}

}  // namespace rdmi::cli
