// AsUnprivileged: setfsuid/setfsgid to nobody for the scope's lifetime.
#include "support/as_unprivileged.hpp"

#include <sys/fsuid.h>
#include <unistd.h>

namespace rdmi::test {
namespace {
constexpr unsigned kNobody = 65534;
}

AsUnprivileged::AsUnprivileged() {
    if (::geteuid() != 0) return;
    // Dropping the fs uid from 0 clears CAP_DAC_OVERRIDE/READ_SEARCH (capabilities(7)).
    ::setfsgid(kNobody);
    ::setfsuid(kNobody);
    switched_ = true;
}

AsUnprivileged::~AsUnprivileged() {
    if (!switched_) return;
    ::setfsuid(0);
    ::setfsgid(0);
}

}  // namespace rdmi::test
