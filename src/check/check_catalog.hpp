// The whole finding catalog: every check id the program can emit, gathered from where each is
// declared (the probe rows' entries, the registry's, and the tables of the commands that have no
// row), in the one order `check --list-checks`, `--explain` and the README's list show.
#pragma once

#include <span>
#include <string_view>

#include "core/finding_catalog.hpp"

namespace rdmi {

/// The whole catalog, in its order: each probe row's entries (registry order), the registry's
/// own ("<probe>-probe"), then the `symbols` command's, the `loopback` command's and the gate's.
std::span<const FindingInfo* const> check_catalog();

/// The entry of check_catalog() whose id is `id` or whose pattern matches it; nullptr when
/// none does.
const FindingInfo* find_check(std::string_view id);

}  // namespace rdmi
