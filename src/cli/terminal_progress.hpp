// The progress status line: one updating line on a terminal's stderr, nothing anywhere else.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string_view>

#include "core/progress.hpp"
#include "os/env.hpp"

namespace rdmi::cli {

/// Rewrites one "\r"-led line on `fd` for each (throttled) update; finish() erases it.
/// Writes go straight to the descriptor, so a forked child's updates land in the same place.
class TerminalProgress final : public Progress {
  public:
    /// `fd` is a terminal `width` columns wide.
    TerminalProgress(int fd, std::size_t width);

    /// Shows "rdmi-probe: WHAT (DONE/TOTAL)", cut to the width; at most ten times a second,
    /// except the first update and the last item, which always show.
    void update(std::string_view what, std::size_t done, std::size_t total) override;
    /// Erases the line when something was shown.
    void finish() override;

  private:
    int fd_;
    std::size_t width_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point last_{};
};

/// The progress sink of a run: a TerminalProgress on stderr when stderr is a terminal, TERM is
/// not "dumb" and neither --quiet (failures and warnings only) nor --verbose (the logs narrate) is
/// given; otherwise nullptr (use Progress::none()).
std::unique_ptr<Progress> make_progress(bool quiet, int verbose, const Env& env);

}  // namespace rdmi::cli
