// The words of the version consistency rule, in one place: the finding catalog (and so
// --list-checks, --explain and docs/checks.md), check --require-consistent's help (and
// so the man page), docs/report.md's generated rule and env's x_rdmi_probe.consistency.rule all
// print this text, so no view can state another rule than the one judge_consistency() applies.
#pragma once

#include <string_view>

namespace rdmi {

/// The rule, as the reader of every view gets it.
inline constexpr std::string_view kConsistencyRule =
    "One combined state over two four-way matches, the RDMI stack (doca-common.pc, "
    "doca-verbs.pc, doca-dpa.pc, doca-rdmi.pc, the runtime library) and the DOCA version "
    "sources (doca-common.pc, applications/VERSION, doca_caps --version, the BFB): disagree "
    "when two present sources of either match name different versions; else incomplete when a "
    "source that applies here is absent, unreadable or unparseable, or a match has fewer than "
    "two; else agree. consistent is true exactly when the state is agree. check "
    "--require-consistent fails on disagree, skips (exit 3, naming what is missing) on "
    "incomplete and passes on agree; --waive-source NAME leaves a source out of the match for "
    "that run.";

/// What to do when the rule does not hold: the catalog's fix for consistent-versions.
inline constexpr std::string_view kConsistencyFix =
    "On disagree, reinstall DOCA from one release (and the BFB matching it on a DPU); on "
    "incomplete, install or restore the missing source, or leave it out with "
    "check --require-consistent --waive-source NAME.";

}  // namespace rdmi
