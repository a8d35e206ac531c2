// The output protocol: one document to stdout or --output, and the run's two endings.
#include "cli/document_output.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/error_document.hpp"
#include "cli/exit_codes.hpp"
#include "cli/field_output.hpp"
#include "cli/interrupt.hpp"
#include "cli/watchdog.hpp"
#include "os/private_dir.hpp"
#include "report/terminal_text.hpp"
#include "text/fit_width.hpp"

namespace rdmi::cli {
namespace {

// Why the document did not reach stdout ("No space left on device" on a full disk, "Bad file
// descriptor" when stdout was closed): the reader of stderr can act on that.
std::string stdout_write_failure(int err) {
    std::string message = "stdout: write failed";
    if (err != 0) message += std::string(": ") + std::strerror(err);
    // SIGXFSZ is ignored: past ulimit -f a redirected stdout fails here instead of killing.
    if (err == EFBIG) message += " (EFBIG: the file size limit)";
    return message;
}

// A write to stdout failed: a reader that went away (`rdmi-probe --json | head -1`) ends the
// run with nothing to say, to no one; anything else is the gap to report.
Gap stdout_failed(int err) {
    if (err == EPIPE) {
        remove_private_dir_now();
        ::_exit(kExitBrokenPipe);
    }
    return Gap{GapReason::error, stdout_write_failure(err)};
}

NewFileMode new_file_mode(Reader reader) {
    switch (reader) {
        case Reader::daemon:
            return NewFileMode::world_readable;
        case Reader::owner:
            return NewFileMode::owner_only;
        case Reader::as_asked:
        case Reader::human:
        case Reader::machine:
            break;
    }
    return NewFileMode::umask_0644;
}

}  // namespace

DocumentOutput::DocumentOutput(OutputSettings settings, spdlog::logger& log, Progress* progress,
                               Watchdog& watchdog)
    : settings_(std::move(settings)), log_(&log), progress_(progress), watchdog_(&watchdog) {}

Reader DocumentOutput::resolved(Reader reader) const {
    if (reader != Reader::as_asked) return reader;
    return settings_.json ? Reader::machine : Reader::human;
}

Result<bool> DocumentOutput::emit(const Document& document, Destination where) const {
    const bool to_output = where == Destination::output && !settings_.output.empty();
    const Reader reader = resolved(document.reader());
    if (document.is_streamed()) {
        if (!to_output) return stream_to_stdout(document.producer());
        // --output is replaced atomically: the pieces are gathered first.
        std::string whole;
        document.producer()([&whole](std::string_view piece) {
            whole.append(piece);
            return true;
        });
        return write_whole(whole, to_output, new_file_mode(reader));
    }
    if (reader == Reader::human) {
        // Escaped first: an escape is wider than the byte it stands for.
        std::string shown = text::terminal_safe(document.text(), text::Keep::layout);
        if (settings_.width > 0) shown = text::fit_to_width(shown, settings_.width);
        return write_whole(shown, to_output, new_file_mode(reader));
    }
    return write_whole(document.text(), to_output, new_file_mode(reader));
}

int DocumentOutput::finish(const Document& document, int exit_code) const {
    // --field: what is written is the values of the JSON document, whatever the verdict; a
    // pointer that names nothing is a usage error.
    if (!settings_.fields.empty() && resolved(document.reader()) == Reader::machine) {
        std::string whole;
        if (document.is_streamed()) {
            // The values are read from the whole document: it is held, this once.
            document.producer()([&whole](std::string_view piece) {
                whole.append(piece);
                return true;
            });
        }
        auto values = field_values(
            document.is_streamed() ? std::string_view(whole) : document.text(), settings_.fields);
        if (!values) return fail(values.gap().message);
        auto written = emit({*values, Reader::machine});
        if (written) return exit_code;
        log_->error("{}", written.gap().message);
        return kExitUsage;
    }
    auto written = emit(document);
    if (written) return exit_code;
    // emit() has already put the error document on stdout in --json mode.
    log_->error("{}", written.gap().message);
    return kExitUsage;
}

int DocumentOutput::fail(const std::string& message, Reader reader, int exit_code) const {
    log_->error("{}", message);
    if (resolved(reader) == Reader::machine) {
        const std::string error = error_document(message, exit_code);
        if (auto written = emit({error, Reader::machine}); !written)
            log_->error("{}", written.gap().message);
    }
    return exit_code;
}

bool DocumentOutput::claim_stdout() const {
    // A status line left on the terminal would run into the document.
    if (progress_ != nullptr) progress_->finish();
    watchdog_->disarm();
    // An interrupt being handled writes the run's last words instead.
    return claim_output(OutputOwner::document);
}

Result<bool> DocumentOutput::write_whole(std::string_view text, bool to_output,
                                         NewFileMode new_mode) const {
    if (!claim_stdout()) wait_for_the_owner_to_exit();
    if (to_output) {
        // While the document goes to --output (a FIFO waits up to --timeout for its reader),
        // stdout stays free: an interrupt meanwhile puts its error document there.
        (void)hand_over_output(OutputOwner::document, OutputOwner::output_file);
        // The run's watchdog is off by now; a FIFO's or socket's reader gets --timeout afresh.
        auto written = write_output_file(settings_.output, text, settings_.timeout, new_mode);
        if (!hand_over_output(OutputOwner::output_file, OutputOwner::document))
            wait_for_the_owner_to_exit();
        // The document could not go to --output; in --json mode the error document still
        // reaches stdout, as for every other error.
        if (!written && settings_.json) {
            const std::string error = error_document(written.gap().message, kExitUsage);
            std::fwrite(error.data(), 1, error.size(), stdout);  // NOLINT(cert-err33-c)
            std::fflush(stdout);                                 // NOLINT(cert-err33-c)
        }
        return written;
    }
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        return stdout_failed(errno);
    return true;
}

Result<bool> DocumentOutput::stream_to_stdout(const DocumentProducer& produce) const {
    if (!claim_stdout()) wait_for_the_owner_to_exit();
    errno = 0;
    const bool written = produce([](std::string_view piece) {
        return std::fwrite(piece.data(), 1, piece.size(), stdout) == piece.size();
    });
    if (!written || std::fflush(stdout) != 0) return stdout_failed(errno);
    return true;
}

int write_text_to_stdout(std::string_view text) {
    errno = 0;
    const bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    if (written && std::fflush(stdout) == 0) return kExitOk;
    const int err = errno;
    if (err == EPIPE) return kExitBrokenPipe;
    const std::string message = stdout_write_failure(err);
    std::fprintf(stderr, "rdmi-probe: error: %s\n", message.c_str());  // NOLINT(cert-err33-c)
    return kExitUsage;
}

}  // namespace rdmi::cli
