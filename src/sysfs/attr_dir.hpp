// AttrDir: bounded reads of one sysfs object's attribute files through the Fs seam.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/check.hpp"
#include "os/fs.hpp"

namespace rdmi::sysfs {

/// Bound on one attribute read: sysfs attributes are at most a page.
inline constexpr std::size_t kAttrCap = 4096;

/// The provenance of an in-root path: kind "sysfs" below /sys, "procfs" below /proc, else
/// "file".
Provenance provenance_of(std::string_view path);

/// One directory of attribute files. It reads below `actual` (a resolved path, so that links
/// are walked once per object) but names `shown` (the stable ABI path, e.g.
/// /sys/class/infiniband/mlx5_0) in provenance and in every gap message.
class AttrDir {
  public:
    /// A directory read and shown under the same path.
    AttrDir(const Fs& fs, std::string path) : fs_(&fs), shown_(path), actual_(std::move(path)) {}
    /// A directory shown as `shown` but read through `actual`.
    AttrDir(const Fs& fs, std::string shown, std::string actual)
        : fs_(&fs), shown_(std::move(shown)), actual_(std::move(actual)) {}

    /// The shown path of `name` ("<shown>/<name>").
    [[nodiscard]] std::string shown(std::string_view name) const;
    /// The path actually read for `name`.
    [[nodiscard]] std::string actual(std::string_view name) const;
    /// The shown directory path.
    [[nodiscard]] const std::string& shown_dir() const { return shown_; }
    /// The directory path actually read.
    [[nodiscard]] const std::string& actual_dir() const { return actual_; }
    /// The Fs the directory is read through.
    [[nodiscard]] const Fs& fs() const { return *fs_; }

    /// Provenance naming the shown path of `name`.
    [[nodiscard]] Provenance source(std::string_view name) const;

    /// The raw bytes of `name`, at most kAttrCap; Fs gaps are renamed to the shown path.
    [[nodiscard]] Result<std::string> read(std::string_view name) const;

    /// A gap whose message is "<shown>/<name>: <problem>" (for parser gaps and Fs gaps alike).
    [[nodiscard]] Gap located(std::string_view name, const Gap& gap) const;

    /// Reads `name` and parses it with `parse` (bytes -> Result<T>); the value or the gap, with
    /// provenance either way.
    template <typename T, typename Parse>
    [[nodiscard]] Sourced<T> get(std::string_view name, Parse parse) const {
        auto bytes = read(name);
        if (!bytes) return Sourced<T>::missing(bytes.gap(), source(name));
        Result<T> parsed = parse(*bytes);
        if (!parsed) return Sourced<T>::missing(located(name, parsed.gap()), source(name));
        return Sourced<T>::of(std::move(parsed).value(), source(name));
    }

    /// The basename of the link `name` points to (e.g. `driver` -> "mlx5_core").
    [[nodiscard]] Sourced<std::string> link_name(std::string_view name) const;

    /// The same object's child directory `name`.
    [[nodiscard]] AttrDir child(std::string_view name) const;

  private:
    const Fs* fs_;
    std::string shown_;
    std::string actual_;
};

}  // namespace rdmi::sysfs
