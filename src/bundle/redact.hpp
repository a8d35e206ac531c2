// Redactor: replaces MAC addresses, GUIDs, serial numbers, host names and IP addresses with
// placeholders of the same shape, the same value always by the same placeholder (one bundle).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bundle/identity_scan.hpp"
#include "core/result.hpp"

namespace rdmi::bundle {

/// The redaction rules' version, stated in every redacted bundle's manifest: raised whenever
/// what is found or what it becomes changes. 1 was the regular-expression redactor (its
/// bundles have no such field); 2 the linear scanner, same-length binaries, kept GID prefixes.
inline constexpr int kRedactorVersion = 2;

/// One bundle's redaction: placeholders are numbered in the order values are first seen.
class Redactor {
  public:
    /// `host_names`: the names to hide wherever they appear (the live host name, the root's
    /// /etc/hostname), any case, with every shorter dotted form of each ("node7.lab" of
    /// "node7.lab.example.com"); empty, one- or two-letter names and "localhost" are ignored.
    explicit Redactor(std::vector<std::string> host_names);

    /// `text` with every value replaced. `path` (in-root, or a document's name) lets a file that
    /// is a serial number by its name (…/product_serial, …/serial_number) be replaced whole.
    [[nodiscard]] std::string text(std::string_view text, std::string_view path);

    /// Text that no replay reads as a path (the --root path): host names are replaced inside
    /// path components too.
    [[nodiscard]] std::string metadata(std::string_view text);

    /// A binary file (is_binary()) with every value replaced by a placeholder of the same
    /// length, so that offsets stay valid. In an ELF file only data sections are rewritten; a
    /// value in its string tables (symbol, version, library names, RUNPATH) cannot be replaced
    /// without making it another library: a Gap saying so (naming the kind, never the value),
    /// and the file is not stored.
    [[nodiscard]] Result<std::string> binary(std::string_view bytes);

    /// How many distinct values of each kind were replaced ("mac", "guid", "serial",
    /// "host_name", "ipv4", "ipv6").
    [[nodiscard]] std::map<std::string, std::size_t> counts() const;

    /// True when `text` still holds a value a redaction would replace (a placeholder this
    /// redactor gave is not one): what the fuzz target checks its output with.
    [[nodiscard]] bool holds_identity(std::string_view text, ScanMode mode) const;

  private:
    [[nodiscard]] bool identifies(IdentityKind kind, std::string_view value) const;
    std::string replaced(std::string_view text, const std::vector<IdentitySpan>& spans,
                         bool same_length);
    std::string placeholder(IdentityKind kind, std::string_view value, bool same_length);
    std::string ipv6_placeholder(std::string_view value, bool same_length);
    std::size_t number(IdentityKind kind, const std::string& key);

    IdentityScanner scanner_;
    std::map<std::string, std::map<std::string, std::size_t>> seen_;  ///< kind -> key -> n
    std::set<std::string> masks_;  ///< every placeholder given (lower case)
};

/// True when the file at `path` holds a serial number by its name alone.
bool is_serial_file(std::string_view path);

/// True when `bytes` is an ELF file or holds a NUL byte: redacted with Redactor::binary().
bool is_binary(std::string_view bytes);

}  // namespace rdmi::bundle
