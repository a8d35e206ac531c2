// Parser for /proc/mounts, reduced to what the probe needs: hugetlbfs mount points.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace rdmi::host {

/// One hugetlbfs mount.
struct HugetlbfsMount {
    std::string mount_point;  ///< octal escapes ("\040") decoded
    std::string page_size;    ///< the "pagesize=" option ("2M", "1G"); empty when not given
};

/// Every hugetlbfs mount in /proc/mounts, in file order. Lines that are not
/// "<source> <target> <fstype> <options> <freq> <passno>" make the file malformed.
Result<std::vector<HugetlbfsMount>> parse_hugetlbfs_mounts(std::string_view bytes);

}  // namespace rdmi::host
