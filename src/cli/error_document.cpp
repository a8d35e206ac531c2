// The error document.
#include "cli/error_document.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "build_info.hpp"

namespace rdmi::cli {
namespace {

// Stand-ins that occur nowhere else in the document: the schema id, the tool's name and its
// version hold no '@' and no run of ten digits.
constexpr std::string_view kMessageMark = "@MESSAGE@";
constexpr int kExitCodeMark = 1987654321;

}  // namespace

std::string error_document(const std::string& message, int exit_code) {
    nlohmann::ordered_json doc{
        {"schema", kErrorSchemaId},
        {"schema_version", "1.1.0"},
        {"tool", {{"name", build_info::kToolName}, {"version", build_info::kVersion}}},
        {"error", {{"message", message}, {"exit_code", exit_code}}}};
    // Replace invalid UTF-8 (a file name from a broken tree) rather than throw.
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

ErrorDocumentPieces::ErrorDocumentPieces() {
    const std::string whole = error_document(std::string(kMessageMark), kExitCodeMark);
    const std::string code = std::to_string(kExitCodeMark);
    const auto message_at = whole.find(kMessageMark);
    const auto code_at = whole.find(code, message_at);
    if (message_at == std::string::npos || code_at == std::string::npos) {
        throw std::logic_error("the error document holds no message or exit code");
    }
    head_ = whole.substr(0, message_at);
    middle_ =
        whole.substr(message_at + kMessageMark.size(), code_at - message_at - kMessageMark.size());
    tail_ = whole.substr(code_at + code.size());
}

bool ErrorDocumentPieces::splice_safe(std::string_view message) noexcept {
    for (const char c : message) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') return false;
    }
    return true;
}

std::string ErrorDocumentPieces::document(std::string_view message, int exit_code) const {
    if (!splice_safe(message)) return error_document(std::string(message), exit_code);
    const std::string code = std::to_string(exit_code);
    std::string out;
    out.reserve(head_.size() + message.size() + middle_.size() + code.size() + tail_.size());
    out.append(head_).append(message).append(middle_).append(code).append(tail_);
    return out;
}

}  // namespace rdmi::cli
