// Tests for shell_word(): a probed path in a suggested command stays one inert word.
#include "text/shell_word.hpp"

#include <doctest/doctest.h>

namespace rdmi {

TEST_CASE("plain paths stay as they are; anything a shell would act on is single-quoted") {
    CHECK(shell_word("/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig") ==
          "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig");
    CHECK(shell_word("/opt/my doca") == "'/opt/my doca'");
    CHECK(shell_word("/x$(touch pwned)") == "'/x$(touch pwned)'");
    CHECK(shell_word("/x`id`;rm") == "'/x`id`;rm'");
    CHECK(shell_word("it's") == "'it'\\''s'");
    CHECK(shell_word("a\nb") == "'a\nb'");
    CHECK(shell_word("") == "''");
}

}  // namespace rdmi
