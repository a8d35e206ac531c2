// Redactor: replaces MAC addresses, GUIDs, serial numbers, host names and IP addresses with
// placeholders of the same shape, the same value always by the same placeholder (one bundle).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi::bundle {

/// One bundle's redaction: placeholders are numbered in the order values are first seen.
class Redactor {
  public:
    /// `host_names`: the names to hide wherever they appear (the live host name, the root's
    /// /etc/hostname); empty ones are ignored.
    explicit Redactor(std::vector<std::string> host_names);

    /// `text` with every value replaced. `path` (in-root, or a document's name) lets a file that
    /// is a serial number by its name (…/product_serial, …/serial_number) be replaced whole.
    [[nodiscard]] std::string text(std::string_view text, std::string_view path);

    /// How many distinct values of each kind were replaced ("mac", "guid", "serial",
    /// "host_name", "ipv4", "ipv6").
    [[nodiscard]] std::map<std::string, std::size_t> counts() const;

  private:
    std::string placeholder(const std::string& kind, const std::string& value);

    std::vector<std::string> host_names_;
    std::map<std::string, std::map<std::string, std::string>> seen_;  ///< kind -> value -> mask
    std::set<std::string> masks_;  ///< every placeholder given (lower case)
};

/// True when the file at `path` holds a serial number by its name alone.
bool is_serial_file(std::string_view path);

}  // namespace rdmi::bundle
