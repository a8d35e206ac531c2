// arc4random for the portable release link (RDMI_PROBE_GLIBC_COMPAT).
//
// A statically linked libstdc++ from GCC 12 built on glibc >= 2.36 carries std::random_device's
// arc4random source, and any std::string pulls that object in (stdexcept -> the copy-on-write
// string instantiations -> random_device::_M_init). Its reference would bind to
// arc4random@GLIBC_2.36 and make the whole binary refuse to load on glibc 2.34/2.35 (RHEL 9,
// Ubuntu 22.04), although rdmi-probe never constructs a random_device. Defining the function in
// the executable satisfies that reference first, so no GLIBC_2.36 version is recorded.
//
// The definition is a real one, not a stub: getrandom(2) (glibc 2.25, Linux 3.17) fills the
// word, retrying on EINTR and short reads, and the process aborts rather than return a value
// that is not random (arc4random has no way to report failure).
#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" std::uint32_t arc4random() noexcept;

extern "C" std::uint32_t arc4random() noexcept {
    std::uint32_t value = 0;
    auto* out = reinterpret_cast<unsigned char*>(&value);
    std::size_t got = 0;
    while (got < sizeof value) {
        const auto n = getrandom(out + got, sizeof value - got, 0);
        if (n > 0) {
            got += static_cast<std::size_t>(n);
        } else if (n < 0 && errno != EINTR) {
            std::abort();
        }
    }
    return value;
}
