// The one rule for "are the DOCA versions consistent": the state of each version source, of each
// four-way match, and of the install as a whole. Every view (report, env, check, diff) uses it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/check.hpp"
#include "probes/install.hpp"

namespace rdmi {

/// What one version source gave. The names are part of the JSON interface.
enum class SourceState {
    present,         ///< read and parsed as a DOCA version
    absent,          ///< the file, module or tool does not exist
    unreadable,      ///< it exists but could not be read (the gap says why)
    unparseable,     ///< read, but the text is not a DOCA version (the text is kept)
    not_applicable,  ///< the source does not apply here (no BFB on a host, no live call under
                     ///< --root)
};

/// How one four-way match stands. The names are part of the JSON interface.
enum class MatchState {
    agree,       ///< every applicable source is present, at least two, all the same version
    disagree,    ///< two present sources name different versions
    incomplete,  ///< none disagree, but an applicable source is absent, unreadable or unparseable
    too_few,     ///< fewer than two sources apply here, so there is nothing to compare
};

std::string_view to_string(SourceState state);
std::string_view to_string(MatchState state);

/// The state of one source: a parsed version is present; a kept text that does not parse is
/// unparseable; otherwise the gap's reason decides (not_found/not_installed: absent,
/// not_applicable: not applicable, anything else: unreadable).
SourceState source_state(const VersionSource& src);

/// The state of a match from its sources' states (disagreement first, then gaps, then count).
MatchState match_state(const VersionMatch& match);

/// The verdict a check gives a match: agree passes, disagree fails, the rest cannot be judged.
Status match_status(MatchState state);

/// One line on what one source gave: "3.3.0105", "absent", "unreadable (why)",
/// "unparseable ('text')", "not applicable (why)".
std::string describe_source(const VersionSource& src);

/// One line on why a match is in its state, naming the sources that make it so
/// ("doca-dpa.pc is 3.2.1025 while the rest say 3.3.0105").
std::string describe_match(const VersionMatch& match);

/// The action for a source that exists but could not be read, by why: "rerun as a user who can
/// read X" (permission), "rerun with a larger --timeout", and for a .pc that does not parse
/// "repair or reinstall the package that ships X" (the module check's words, so the fix plan
/// gives both checks one step); else "make X readable (see its gap)".
std::string unreadable_fix(const std::string& name, const std::optional<Gap>& gap);

/// The one action that makes a match agree: for the RDMI stack "install doca-dpa from DOCA
/// 3.3.0105 (...)", for the contract's sources the release to reinstall; "" when it agrees.
std::string match_fix(const VersionMatch& match, bool rdmi_stack);

/// The rule, in one sentence, for documents that report the verdict.
inline constexpr std::string_view kConsistencyRule =
    "consistent only when both four-way matches agree: the RDMI stack (doca-common.pc, "
    "doca-verbs.pc, doca-dpa.pc, doca-rdmi.pc, the runtime library) and the DOCA version "
    "sources (doca-common.pc, applications/VERSION, doca_caps --version, the BFB); every "
    "source that applies here must be present and parse as a DOCA version, at least two per "
    "match; absent, unreadable or unparseable is not consistent (state incomplete), two "
    "versions that differ is not consistent (state disagree)";

/// The install's consistency: true only when both four-way matches agree.
struct Consistency {
    bool consistent = false;
    MatchState stack = MatchState::too_few;
    MatchState contract = MatchState::too_few;
    std::string reason;  ///< one line: why it is (not) consistent
};

/// The single definition of "consistent" (the README's "Version consistency" states it).
Consistency judge_consistency(const InstallFacts& install);

}  // namespace rdmi
