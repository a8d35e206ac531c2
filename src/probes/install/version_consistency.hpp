// The one rule for "are the DOCA versions consistent": the state of each version source, of each
// four-way match, and of the install as a whole. Every view (report, env, check, diff) uses it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.hpp"
#include "core/consistency_rule.hpp"
#include "probes/install/install.hpp"

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

/// The actions that make a match agree: for the RDMI stack "install doca-dpa from DOCA
/// 3.3.0105 (...)", for the contract's sources the release to reinstall; a source that is
/// absent is to be restored or waived, never told to "agree". "" when it agrees.
std::string match_fix(const VersionMatch& match, bool rdmi_stack);

/// The install's one consistency state over both four-way matches. The names are part of the
/// JSON interface (x_rdmi_probe.consistency.state) and of the NFD and Prometheus outputs.
enum class ConsistencyState {
    agree,       ///< both matches agree
    disagree,    ///< either match disagrees
    incomplete,  ///< neither disagrees, but one is incomplete or has too few sources
};

std::string_view to_string(ConsistencyState state);

/// The three states, in the order the outputs list them.
inline constexpr std::array kConsistencyStates = {
    ConsistencyState::agree, ConsistencyState::disagree, ConsistencyState::incomplete};

/// disagree if either match disagrees; else incomplete if either is incomplete or too_few;
/// else agree.
ConsistencyState combined_state(MatchState stack, MatchState contract);

/// The install's consistency: one state, and the contract's boolean (state == agree).
struct Consistency {
    ConsistencyState state = ConsistencyState::incomplete;
    bool consistent = false;  ///< state == agree
    MatchState stack = MatchState::too_few;
    MatchState contract = MatchState::too_few;
    std::string reason;  ///< one line: why it is in its state, naming the sources
};

/// The single definition of "consistent" (kConsistencyRule states it).
Consistency judge_consistency(const InstallFacts& install);

/// A version source `check --waive-source NAME` may leave out of the match.
struct WaivableSource {
    std::string_view name;    ///< what the user types (a module, or env's version key)
    std::string_view source;  ///< the VersionSource it names
};

/// Every source a waiver may name. The list is the one that --waive-source's help, its usage
/// error and the policy file's waive_sources accept.
inline constexpr std::array<WaivableSource, 8> kWaivableSources = {{
    {"doca-common", "doca-common.pc"},
    {"doca-verbs", "doca-verbs.pc"},
    {"doca-dpa", "doca-dpa.pc"},
    {"doca-rdmi", "doca-rdmi.pc"},
    {"runtime", "runtime"},
    {"applications_version", "applications/VERSION"},
    {"doca_caps", "doca_caps --version"},
    {"bfb", "bfb"},
}};

/// The entry `name` names; nullptr when none does.
const WaivableSource* find_waivable(std::string_view name);

/// "doca-common, doca-verbs, ..., bfb": the names a waiver accepts, for help and errors.
std::string waivable_names();

/// `install` with the named sources (kWaivableSources names) taken out of both matches: each
/// becomes not applicable ("waived by --waive-source NAME") and the matches are judged again.
InstallFacts waive_sources(const InstallFacts& install, const std::vector<std::string>& names);

}  // namespace rdmi
