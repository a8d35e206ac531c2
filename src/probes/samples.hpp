// The samples probe: which public DOCA libraries ship a samples directory under the prefix.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "probes/install/install.hpp"

namespace rdmi {

/// One library's samples directory (<prefix>/samples/doca_<lib>) that exists.
struct SamplePath {
    std::string library;  ///< pkg-config name ("doca-rdma")
    std::string path;     ///< in-root directory
};

/// What the samples probe found.
struct SamplesFacts {
    std::vector<SamplePath> paths;  ///< by library name
    std::optional<Gap> gap;         ///< why <prefix>/samples could not be listed
};

/// Every public DOCA library of the install: the doca-* modules of DOCA's pc dir and the RDMI
/// stack modules, by name, each once. Pure.
std::vector<const ModuleFacts*> public_libraries(const InstallFacts& install);

/// Lists <prefix>/samples and keeps the directories of the public libraries.
SamplesFacts probe_samples(const ProbeContext& ctx, const InstallFacts& install);

}  // namespace rdmi
