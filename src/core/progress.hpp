// Progress: how a long-running probe says how far it got, without printing (probes never print).
#pragma once

#include <cstddef>
#include <string_view>

namespace rdmi {

/// A sink for progress reports. The CLI decides whether anything becomes visible (a status line
/// on a terminal's stderr); probes only report. Calls may come from a forked child.
class Progress {
  public:
    Progress() = default;
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    Progress(Progress&&) = delete;
    Progress& operator=(Progress&&) = delete;
    virtual ~Progress() = default;

    /// Working on `what`, item `done` of `total` (total 0: no count to show).
    virtual void update(std::string_view what, std::size_t done, std::size_t total) = 0;
    /// The long operation is over: whatever was shown goes away.
    virtual void finish() = 0;

    /// A sink that shows nothing: the default of every probe context.
    static Progress& none();
};

}  // namespace rdmi
