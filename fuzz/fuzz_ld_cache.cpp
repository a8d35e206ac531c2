// libFuzzer target: the /etc/ld.so.cache parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "loader/loader_path.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto entries = rdmi::parse_ld_so_cache(bytes);
    if (!entries && entries.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
    (void)rdmi::split_library_path(bytes);
    return 0;
}
