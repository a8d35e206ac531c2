// The per-symbol entries of the symbols document, written straight into the output text.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "elf/symbol_audit.hpp"

namespace rdmi::json {

/// Writes the verdicts of one audit, one after the other, as append_verdict() does, into memory
/// the caller provides: the fixed text between the values is prepared once, and each text the
/// verdicts share (a version node, a library ref) is checked for escaping once. Use one writer
/// for one audit while it lives unchanged: the check is remembered by the text's address.
class VerdictWriter {
  public:
    /// For verdicts nested `indent` spaces deep (their members at indent + 2).
    explicit VerdictWriter(std::size_t indent);

    /// The most bytes write() writes for `verdict`.
    [[nodiscard]] std::size_t bound(const SymbolVerdict& verdict) const;
    /// Writes `verdict` at `at`, which has room for bound(verdict) bytes; returns the end.
    char* write(char* at, const SymbolVerdict& verdict);

  private:
    [[nodiscard]] bool plain(std::string_view text);
    [[nodiscard]] bool plain(const SymbolVerdict& verdict);
    char* write_plain(char* at, const SymbolVerdict& verdict) const;

    std::size_t indent_;
    // The fixed text from after the name up to the first version (or "[]"): by stability,
    // exported, declared and type (null or one of SymbolType's values).
    std::vector<std::string> head_;
    // From the versions' end through "evidence": up to the first detail: by whether there are
    // versions, agreement and the first evidence's source and says (or none: "[]" and "}").
    std::vector<std::string> middle_;
    // Between one evidence's ref and the next one's detail: by the next one's source and says.
    std::vector<std::string> next_item_;
    std::string open_, first_version_, next_version_, ref_, close_;
    // Texts found plain, by address and size (a direct-mapped cache).
    struct Seen {
        const char* data = nullptr;
        std::size_t size = 0;
    };
    std::array<Seen, 64> seen_{};
};

/// Appends `verdict` as a JSON object in json::dump's exact layout, as if it were nested
/// `indent` spaces deep (its members at indent + 2). A 100k-symbol audit spends most of its time
/// here: building and serialising one nlohmann object per symbol cost ten times as much.
void append_verdict(std::string& out, const SymbolVerdict& verdict, std::size_t indent);

}  // namespace rdmi::json
