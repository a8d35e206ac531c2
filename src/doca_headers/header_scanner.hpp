// Finds the exported declarations in a C header and the DOCA stability macro attached to each.
#pragma once

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi {

/// The stability macro a declaration carries (`doca_compat.h`).
enum class Annotation { none, experimental, stable, deprecated };

/// "none", "experimental", "stable", "deprecated".
std::string_view to_string(Annotation annotation);

/// What a declaration declares.
enum class DeclKind { function, data };

/// "function", "data".
std::string_view to_string(DeclKind kind);

/// One function or extern-data declaration found in a header. Its texts are views: `name` into
/// the text given to scan_header(), `file` into the file name given to it, `macro` into a
/// constant. Keep both for as long as the declaration: a 100,000-declaration header then costs
/// no string of its own.
struct HeaderDecl {
    std::string_view name;
    DeclKind kind = DeclKind::function;
    Annotation annotation = Annotation::none;
    std::string_view macro;  ///< the macro as spelled ("DOCA_EXPERIMENTAL"); empty for none
    std::string_view file;   ///< the file name given to scan_header()
    std::size_t line = 0;    ///< 1-based line of the declared name
    /// True when `name` is known to be a C identifier of ASCII letters, digits, '_' and '$'
    /// (scan_header() says so for each such name it lexes): printable ASCII that no writer has
    /// to escape. A name with UTF-8 letters, or one made by hand, leaves it false.
    bool identifier = false;
};

/// Everything one header yielded, plus notes on text the scanner could not close.
struct HeaderScan {
    std::vector<HeaderDecl> decls;
    /// One line each: "line 12: unterminated comment", "unbalanced '}' at line 40", ...
    std::vector<std::string> notes;
};

/// Scans C (or C++) header text in one linear pass, without a full C parser: comments,
/// string literals and preprocessor lines are skipped; `extern "C" {` and `namespace` blocks are
/// transparent; function bodies (`static inline`), struct/enum bodies and initializers are
/// skipped; typedefs and `static` declarations are not exported and are ignored. A stability
/// macro anywhere in a declaration (the line before, the same line, or after the parameter
/// list) applies to it. Of several `name(` groups the last one not spelled in capitals is the
/// declarator, so a function-like macro before the declaration is not taken for it.
/// The declarations view `text` and `file_name` (see HeaderDecl).
HeaderScan scan_header(std::string_view text, std::string_view file_name);
/// A temporary string would leave every declaration's name dangling: keep the text in a variable.
template <class Text>
requires std::same_as<Text, std::string> HeaderScan scan_header(Text&& text,
                                                                std::string_view file_name)
= delete;

}  // namespace rdmi
