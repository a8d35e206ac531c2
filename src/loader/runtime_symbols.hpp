// Resolving symbol names in a loaded shared object, the way an application's loader would, in
// a forked child (the library's constructors run there, never in rdmi-probe itself).
#pragma once

#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/result.hpp"
#include "os/live_answers.hpp"
#include "process/isolated_worker.hpp"

namespace rdmi {

/// What to load and ask.
struct RuntimeQuery {
    std::string path;                ///< host path of the library; trust already checked
    std::vector<std::string> names;  ///< symbols to look up
    /// Version nodes to ask dlvsym about for every name ("EXPERIMENTAL", "DEPRECATED"); only
    /// nodes the library defines, since dlvsym of an undefined node says nothing.
    std::vector<std::string> versions;
};

/// One name, as the loader resolved it.
struct RuntimeSymbol {
    std::string name;
    bool found = false;  ///< dlsym returned an address
    /// The version nodes (of RuntimeQuery::versions) whose dlvsym gave the same address as
    /// dlsym: the default version the application would bind to.
    std::vector<std::string> default_in;
    /// Nodes whose dlvsym found the name at another address (an older, non-default version).
    std::vector<std::string> also_in;
    std::string file;  ///< dladdr's dli_fname: the object that really defines it
};

/// Everything one child learned.
struct RuntimeResolution {
    std::string loaded_path;             ///< the file the loader mapped for the handle (link map)
    std::vector<RuntimeSymbol> symbols;  ///< in query order
};

/// dlopen(path) in a fresh child of `worker` (one that has loaded nothing else: the answer is an
/// application's) with `deadline`, dlsym/dlvsym/dladdr every name. A Gap when the child could
/// not load the library, crashed or timed out (the message says which). The child's answer
/// passes `answers` (a bundle records and replays it), keyed by the library and a digest of the
/// query.
Result<RuntimeResolution> resolve_runtime_symbols(
    const RuntimeQuery& query, IsolatedWorker& worker, const Deadline& deadline,
    const LiveAnswers& answers = LiveAnswers::direct());

}  // namespace rdmi
