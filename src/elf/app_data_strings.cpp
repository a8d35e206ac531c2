// Finds library symbol names among the strings of an application's data sections.
#include "elf/app_data_strings.hpp"

#include <elf.h>

#include <algorithm>
#include <set>

namespace rdmi {
namespace {

// Allocated contents the program can read: data, and code too (a constant can be placed in an
// executable section: `__attribute__((section(".text.x")))`). Non-loaded sections (symbol and
// string tables, debug info) are not where a name handed to dlsym() lives.
bool data_section(const SectionExtent& section) {
    return section.type == SHT_PROGBITS && (section.flags & SHF_ALLOC) != 0 && section.size > 0;
}

// Every string of `data` (ended by a NUL or by the section's end) that starts at a `prefix` and
// is wanted; with no prefix, every string that starts after a NUL (or at the start). Linear in
// the data: the end of a run is found once for all the prefixes inside it, and a text longer
// than every wanted name is not hashed.
void scan(std::string_view data, const std::unordered_set<std::string_view>& wanted,
          std::size_t longest, std::string_view prefix, std::set<std::string>& found) {
    std::size_t at = 0;
    std::size_t end = std::string_view::npos;  // the NUL ending the run last looked at
    while (at < data.size()) {
        std::size_t start = at;
        if (!prefix.empty()) {
            start = data.find(prefix, at);
            if (start == std::string_view::npos) return;
        }
        if (end == std::string_view::npos || end < start) {
            end = data.find('\0', start);
            // A run the section does not terminate may still be a C string: in memory the next
            // section, or the linker's zero padding before it, follows.
            if (end == std::string_view::npos) end = data.size();
        }
        if (end - start <= longest) {
            if (const auto text = data.substr(start, end - start); wanted.contains(text))
                found.emplace(text);
        }
        at = prefix.empty() ? end + 1 : start + 1;
    }
}

}  // namespace

std::vector<std::string> names_in_data(std::string_view bytes, const ElfImage& image,
                                       const std::unordered_set<std::string_view>& wanted,
                                       std::string_view prefix) {
    std::set<std::string> found;
    if (wanted.empty()) return {};
    std::size_t longest = 0;
    for (const auto name : wanted) longest = std::max(longest, name.size());
    for (const auto& section : image.sections) {
        // The reader checked every section against the file's size; checked again here, as
        // `bytes` is the caller's.
        if (!data_section(section) || section.offset > bytes.size() ||
            section.size > bytes.size() - section.offset)
            continue;
        scan(bytes.substr(section.offset, section.size), wanted, longest, prefix, found);
    }
    return {found.begin(), found.end()};
}

}  // namespace rdmi
