// The output protocol: how a subcommand's one document reaches stdout or --output, and how a run
// ends, with its document or with an error. Three entry points: emit, finish and fail.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/exit_codes.hpp"
#include "core/progress.hpp"
#include "core/result.hpp"
#include "json/json_common.hpp"
#include "os/output_file.hpp"

namespace spdlog {
class logger;
}

namespace rdmi::cli {

class Watchdog;

/// Who reads a document, which decides how it is written.
enum class Reader {
    /// machine under --json, human otherwise
    as_asked,
    /// a person at a terminal: the text passes through text::terminal_safe (layout kept) first,
    /// so that no probed byte reaches the terminal as a control, then its over-long lines are
    /// broken to fit OutputSettings::width
    human,
    /// a program (JSON, JUnit, GitHub annotations): its writer escapes for its own syntax
    machine,
    /// a machine document another service reads under its own user (a Prometheus textfile,
    /// an NFD feature file): a new --output file is 0644 whatever the umask
    daemon,
    /// a machine document only its owner may read (a bundle holds copies of files only root
    /// may have been able to read): a new --output file is 0600
    owner,
};

/// Hands a document over piece by piece to the sink; false when the sink refused a piece.
using DocumentProducer = std::function<bool(const json::DocumentSink&)>;

/// A document to write: its whole text, viewed (not copied, so pass it where it is written), or
/// a machine document a producer hands over piece by piece (streamed to stdout, never held
/// whole), and who reads it.
class Document {
  public:
    /// A whole text; `reader` as_asked: machine under --json, human otherwise.
    // NOLINTNEXTLINE(google-explicit-constructor): finish(text, code) is the common ending.
    Document(const std::string& text, Reader reader = Reader::as_asked)
        : text_(text), reader_(reader) {}
    /// A machine document `produce` hands over piece by piece.
    static Document streamed(DocumentProducer produce) { return {Pieces{}, std::move(produce)}; }

    [[nodiscard]] bool is_streamed() const { return static_cast<bool>(produce_); }
    [[nodiscard]] std::string_view text() const { return text_; }
    [[nodiscard]] const DocumentProducer& producer() const { return produce_; }
    [[nodiscard]] Reader reader() const { return reader_; }

  private:
    struct Pieces {};
    Document(Pieces /*unused*/, DocumentProducer produce)
        : produce_(std::move(produce)), reader_(Reader::machine) {}

    std::string_view text_;
    DocumentProducer produce_;
    Reader reader_;
};

/// Where a document goes.
enum class Destination {
    /// --output when given (atomically), stdout otherwise
    output,
    /// stdout whatever --output says (gather: --output names the bundle, and stdout carries
    /// the summary or the error document)
    standard_output,
};

/// What the protocol needs of the global options.
struct OutputSettings {
    bool json = false;   ///< --json: as_asked is machine, fail() writes the error document
    std::string output;  ///< --output, or empty: stdout
    std::chrono::milliseconds timeout{};  ///< --timeout: how long a FIFO's reader is waited for
    /// --field: only the values at these JSON pointers are written (--json is implied)
    std::vector<std::string> fields;
    /// the columns a human document is laid out in (fit_to_width); 0 leaves its lines as they are
    std::size_t width = 0;
};

/// Writes the run's one document. The run's watchdog is disarmed and its status line cleared
/// before anything is written: once the document is being written, the run is done. A signal
/// handler or the watchdog that owns the final output first (cli/interrupt.hpp) writes the
/// run's last words instead, and the writing thread waits for the end.
class DocumentOutput {
  public:
    /// `progress` (null: none) and `watchdog` must outlive this.
    DocumentOutput(OutputSettings settings, spdlog::logger& log, Progress* progress,
                   Watchdog& watchdog);

    /// Writes `document` to `where`. Gap when it cannot; then, in --json mode, the error
    /// document has reached stdout already. A reader that went away (EPIPE) ends the process
    /// quietly with kExitBrokenPipe.
    [[nodiscard]] Result<bool> emit(const Document& document,
                                    Destination where = Destination::output) const;

    /// The one "emit or fail" ending of a subcommand: writes `document` to --output or stdout
    /// and returns `exit_code`, or, when it cannot be written, logs why and returns kExitUsage.
    [[nodiscard]] int finish(const Document& document, int exit_code) const;

    /// The one ending on bad input: logs `message` and, when `reader` is (or as_asked means)
    /// machine, writes the error document (a failure to write it is logged too); returns
    /// `exit_code`: kExitUsage, or kExitSkipped for a run that found nothing to check.
    [[nodiscard]] int fail(const std::string& message, Reader reader = Reader::as_asked,
                           int exit_code = kExitUsage) const;

  private:
    [[nodiscard]] Reader resolved(Reader reader) const;
    [[nodiscard]] bool claim_stdout() const;
    [[nodiscard]] Result<bool> write_whole(std::string_view text, bool to_output,
                                           NewFileMode new_mode) const;
    [[nodiscard]] Result<bool> stream_to_stdout(const DocumentProducer& produce) const;

    OutputSettings settings_;
    spdlog::logger* log_;
    Progress* progress_;
    Watchdog* watchdog_;
};

/// Text answered before any session (help, the version, the option model, a completion script
/// or answer) written to stdout: kExitOk, or, when it did not all get there (a full disk, a
/// closed stdout), why on stderr and kExitUsage, so a build writing the man page or a
/// completion script to a file sees the failure; a reader that went away (EPIPE, SIGPIPE
/// ignored) gets kExitBrokenPipe and nothing on stderr.
[[nodiscard]] int write_text_to_stdout(std::string_view text);

}  // namespace rdmi::cli
