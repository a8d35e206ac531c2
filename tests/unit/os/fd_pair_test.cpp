// FdPair closes both of its descriptors, neighbours or not, and only those.
#include "os/fd_pair.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

namespace rdmi {
namespace {

bool is_open(int fd) {
    return ::fcntl(fd, F_GETFD) != -1;
}

// /dev/null as descriptor `number`, which no one else in this process holds.
int null_at(int number) {
    REQUIRE_FALSE(is_open(number));
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const int placed = ::dup3(fd, number, O_CLOEXEC);
    ::close(fd);
    REQUIRE(placed == number);
    return placed;
}

TEST_CASE("an FdPair closes its two descriptors and leaves the others open") {
    SUBCASE("neighbours, with an open descriptor on either side") {
        const int below = null_at(700);
        const int first = null_at(701);
        const int second = null_at(702);
        const int above = null_at(703);
        { const FdPair pair(second, first); }  // either order
        CHECK_FALSE(is_open(first));
        CHECK_FALSE(is_open(second));
        CHECK(is_open(below));
        CHECK(is_open(above));
        ::close(below);
        ::close(above);
    }
    SUBCASE("apart: the descriptor between them stays open") {
        const int first = null_at(710);
        const int between = null_at(711);
        const int second = null_at(712);
        { const FdPair pair(first, second); }
        CHECK_FALSE(is_open(first));
        CHECK_FALSE(is_open(second));
        CHECK(is_open(between));
        ::close(between);
    }
    SUBCASE("one of them missing") {
        const int only = null_at(720);
        {
            const FdPair pair(-1, only);
            CHECK(pair.opened() == only);
        }
        CHECK_FALSE(is_open(only));
    }
}

}  // namespace
}  // namespace rdmi
