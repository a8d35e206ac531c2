// Parser for /proc/mounts; fields are space-separated with "\ooo" escapes (fs/proc_namespace.c).
#include "host/proc_mounts.hpp"

#include <array>

#include "sysfs/attr_text.hpp"
#include "text/text.hpp"

namespace rdmi::host {

// The sysfs layer's attribute parsers, used here by their short names.
using sysfs::malformed;
namespace {

std::string unescape(std::string_view field) {
    std::string out;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && field[i + 1] >= '0' &&
            field[i + 1] <= '3' && field[i + 2] >= '0' && field[i + 2] <= '7' &&
            field[i + 3] >= '0' && field[i + 3] <= '7') {
            out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                                     (field[i + 3] - '0'));
            i += 3;
        } else {
            out += field[i];
        }
    }
    return out;
}

std::string page_size_option(std::string_view options) {
    constexpr std::string_view kKey = "pagesize=";
    while (!options.empty()) {
        const auto comma = options.find(',');
        const std::string_view opt = options.substr(0, comma);
        if (opt.substr(0, kKey.size()) == kKey) return std::string(opt.substr(kKey.size()));
        if (comma == std::string_view::npos) break;
        options.remove_prefix(comma + 1);
    }
    return {};
}

}  // namespace

Result<std::vector<HugetlbfsMount>> parse_hugetlbfs_mounts(std::string_view bytes) {
    std::vector<HugetlbfsMount> mounts;
    std::size_t line_no = 0;
    for (std::string_view line : split_lines(bytes)) {
        ++line_no;
        if (line.empty()) continue;
        std::array<std::string_view, 6> fields{};
        std::size_t count = 0;
        while (!line.empty() && count < fields.size()) {
            const auto sp = line.find(' ');
            fields[count++] = line.substr(0, sp);
            line.remove_prefix(sp == std::string_view::npos ? line.size() : sp + 1);
        }
        if (count < 4 || fields[0].empty() || fields[1].empty() || fields[2].empty())
            return malformed("line " + std::to_string(line_no) + ": not a mount entry");
        if (fields[2] == "hugetlbfs")
            mounts.push_back(HugetlbfsMount{unescape(fields[1]), page_size_option(fields[3])});
    }
    return mounts;
}

}  // namespace rdmi::host
