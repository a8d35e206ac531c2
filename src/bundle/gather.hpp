// gather_bundle: a recorded run made into a bundle (tree, redaction, documents, manifest, tar.gz).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bundle/writer.hpp"
#include "os/live_answers.hpp"
#include "os/recording_env.hpp"
#include "os/recording_fs.hpp"

namespace rdmi::bundle {

/// What a recorded run left.
struct Recorded {
    const RecordingFs& fs;
    const RecordingEnv& env;
    const RecordingAnswers& answers;
    std::string report;       ///< the run's report JSON
    std::string doca_prefix;  ///< --doca-prefix as the run used it, or empty
};

/// A finished bundle.
struct Gathered {
    std::string archive;              ///< the tar.gz bytes
    nlohmann::ordered_json manifest;  ///< also inside the archive
};

/// Builds the bundle of `recorded`. `info.redacted` redacts every stored file and document;
/// `mtime` stamps the archive's entries. A Gap only when the archive cannot be built.
Result<Gathered> gather_bundle(const Recorded& recorded, BundleInfo info, long long mtime);

}  // namespace rdmi::bundle
