// Replay: a bundle's root read back as it was gathered (owners and modes from the manifest,
// the recorded read errors, the captured environment and live-only answers).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "bundle/limits.hpp"
#include "os/env.hpp"
#include "os/fs.hpp"
#include "os/live_answers.hpp"

namespace rdmi::bundle {

/// What the manifest says about the gathered files.
struct ReplayIndex {
    std::map<std::string, FileInfo, std::less<>> info;  ///< by real in-root path
    std::map<std::string, Gap, std::less<>> failures;   ///< by "<operation> <path>"
    /// real path -> why; what is below a skipped directory was not stored either
    std::map<std::string, std::string, std::less<>> skipped;
};

/// An Fs over an extracted bundle root: the root's files, with the manifest's owners, modes
/// and sizes, the original run's read errors, and the bundle's own directory hidden.
class BundleFs final : public Fs {
  public:
    BundleFs(std::unique_ptr<Fs> inner, ReplayIndex index)
        : inner_(std::move(inner)), index_(std::move(index)) {}

    [[nodiscard]] Result<std::string> read_file(
        std::string_view path, std::size_t max_bytes = kDefaultReadCap) const override;
    [[nodiscard]] Result<std::shared_ptr<const FileBytes>> map_file(
        std::string_view path, std::size_t max_bytes) const override;
    [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const override;
    [[nodiscard]] Result<FileInfo> stat(std::string_view path, bool follow = true) const override;
    [[nodiscard]] Result<std::string> read_link(std::string_view path) const override;
    [[nodiscard]] Result<std::string> real_path(std::string_view path) const override;
    [[nodiscard]] Result<std::string> host_path(std::string_view path) const override;
    [[nodiscard]] const std::string& root() const override { return inner_->root(); }
    [[nodiscard]] bool is_live() const override { return false; }

  private:
    [[nodiscard]] std::optional<Gap> refused(std::string_view op, std::string_view path) const;
    [[nodiscard]] std::optional<Gap> not_stored(std::string_view path) const;
    /// `failed` itself, or "not in the bundle" when it is "not found" for a path gather left out.
    template <typename T>
    [[nodiscard]] Result<T> or_not_stored(Result<T> failed, std::string_view path) const;

    std::unique_ptr<Fs> inner_;
    ReplayIndex index_;
};

/// A bundle opened for replay.
struct Replay {
    std::unique_ptr<Fs> fs;  ///< a BundleFs
    /// The captured answers: all of a live gather's; of a --root gather, its rpm records' only.
    std::unique_ptr<LiveAnswers> answers;
    std::map<std::string, std::string, std::less<>> env;  ///< the variables set when gathered
    std::string doca_prefix;  ///< the gathered run's --doca-prefix, or empty
};

/// The bundle at `root` (a RootedFs over an extracted bundle; moved into the Replay's Fs), or
/// nullopt when `root` holds no manifest (an ordinary root, left as it is). A Gap (malformed,
/// naming the document) when the manifest or the captured document is not what gather writes
/// or is larger than `limits.document_bytes`. A manifest without `skipped` (older writers)
/// skipped nothing.
Result<std::optional<Replay>> open_replay(std::unique_ptr<Fs>& root,
                                          const BundleLimits& limits = kBundleLimits);

}  // namespace rdmi::bundle
