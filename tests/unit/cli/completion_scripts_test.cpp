// The completion scripts: registered for every name the program answers to, and holding no option
// (each TAB asks `__complete`, so the model alone decides what completes).
#include "cli/completion_scripts.hpp"

#include <doctest/doctest.h>

#include <string>

#include "cli/option_model.hpp"

namespace rdmi::cli {
namespace {

TEST_CASE("completion: the scripts name rdmi-probe and every helper, and hold no option") {
    for (const std::string shell : {"bash", "zsh"}) {
        const std::string script = completion_script(shell);
        REQUIRE_FALSE(script.empty());
        for (const auto& helper : helper_names())
            CHECK(script.find(helper.name) != std::string::npos);
        // The options come from `__complete` at each TAB, never from a list in the script.
        CHECK(script.find("--strict-contract") == std::string::npos);
    }
    CHECK(completion_script("fish").empty());
}

}  // namespace
}  // namespace rdmi::cli
