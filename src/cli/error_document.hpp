// The JSON document printed instead of a result when a run cannot produce one.
#pragma once

#include <string>
#include <string_view>

namespace rdmi::cli {

/// The error schema's id.
inline constexpr const char* kErrorSchemaId = "urn:rdmi-probe:schema:error";

/// A complete JSON document (schemas/rdmi-probe-error.schema.json) with a trailing newline.
std::string error_document(const std::string& message, int exit_code);

/// error_document() cut where its message and its exit code go: the interrupt handlers prepare a
/// document for each of some 45 signals on every --json run, and building a JSON tree for each
/// cost a fifth of a live run. The pieces come from one error_document() call, so the documents
/// they make are its bytes by construction.
class ErrorDocumentPieces {
  public:
    ErrorDocumentPieces();

    /// error_document(message, exit_code), byte for byte, for a message that JSON writes as it
    /// is (printable ASCII without '"' or '\\': splice_safe()); any other message is written by
    /// error_document() itself.
    [[nodiscard]] std::string document(std::string_view message, int exit_code) const;

    /// The document up to its message's first byte.
    [[nodiscard]] const std::string& head() const { return head_; }
    /// What stands between the message's last byte and the exit code's first digit.
    [[nodiscard]] const std::string& middle() const { return middle_; }
    /// The document after the exit code's last digit.
    [[nodiscard]] const std::string& tail() const { return tail_; }

    /// Whether `message` is written into the document byte for byte.
    [[nodiscard]] static bool splice_safe(std::string_view message) noexcept;

  private:
    std::string head_;
    std::string middle_;
    std::string tail_;
};

}  // namespace rdmi::cli
