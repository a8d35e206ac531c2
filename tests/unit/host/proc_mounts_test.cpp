// Tests for the /proc/mounts hugetlbfs parser.
#include "host/proc_mounts.hpp"

#include <doctest/doctest.h>

namespace rdmi::host {

TEST_CASE("parse_hugetlbfs_mounts") {
    const auto mounts = parse_hugetlbfs_mounts(
        "sysfs /sys sysfs rw 0 0\n"
        "hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n"
        "none /mnt/huge\\0401G hugetlbfs rw,pagesize=1024M 0 0\n"
        "nodev /mnt/h hugetlbfs rw 0 0\n");
    REQUIRE(mounts.ok());
    REQUIRE(mounts->size() == 3);
    CHECK(mounts->at(0).mount_point == "/dev/hugepages");
    CHECK(mounts->at(0).page_size == "2M");
    CHECK(mounts->at(1).mount_point == "/mnt/huge 1G");
    CHECK(mounts->at(1).page_size == "1024M");
    CHECK(mounts->at(2).page_size.empty());
    CHECK(parse_hugetlbfs_mounts("").value().empty());
    CHECK(parse_hugetlbfs_mounts("a b\n").gap().message == "line 1: not a mount entry");
    CHECK(parse_hugetlbfs_mounts("x /y\\04 hugetlbfs rw 0 0\n").value().at(0).mount_point ==
          "/y\\04");
}

}  // namespace rdmi::host
