// Tests for the /proc/modules parser.
#include "host/proc_modules.hpp"

#include <doctest/doctest.h>

namespace rdmi::host {

TEST_CASE("parse_proc_modules") {
    const auto names = parse_proc_modules(
        "mlx5_ib 458752 0 - Live 0xffffffffc0a00000\n"
        "mlx5_core 2154496 1 mlx5_ib, Live 0xffffffffc0600000 (OE)\n"
        "\n"
        "mlxfw 36864 1 mlx5_core, Live 0x0");
    CHECK(names.value() == std::vector<std::string>{"mlx5_ib", "mlx5_core", "mlxfw"});
    CHECK(parse_proc_modules("").value().empty());
    CHECK(parse_proc_modules("ok 1 0 - Live 0x0\n 2 0 - Live\n").gap().message ==
          "line 2: not a module entry: \" 2 0 - Live\"");
    CHECK_FALSE(parse_proc_modules("mlx5/core 1 0 - Live 0x0\n").ok());
}

}  // namespace rdmi::host
