// Parser for /proc/modules; format from kernel/module/procfs.c (m_show).
#include "host/proc_modules.hpp"

#include <algorithm>

#include "sysfs/attr_text.hpp"
#include "text/text.hpp"

namespace rdmi::host {

// The sysfs layer's attribute parsers, used here by their short names.
using sysfs::malformed;
using sysfs::quote_for_message;
namespace {

bool is_module_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

}  // namespace

Result<std::vector<std::string>> parse_proc_modules(std::string_view bytes) {
    std::vector<std::string> names;
    std::size_t line_no = 0;
    for (const std::string_view line : split_lines(bytes)) {
        ++line_no;
        if (line.empty()) continue;
        const std::string_view name = line.substr(0, line.find(' '));
        if (name.empty() || !std::all_of(name.begin(), name.end(), is_module_char)) {
            return malformed("line " + std::to_string(line_no) +
                             ": not a module entry: " + quote_for_message(line));
        }
        names.emplace_back(name);
    }
    return names;
}

}  // namespace rdmi::host
