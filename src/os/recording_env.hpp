// RecordingEnv: an Env that remembers every variable asked for (a bundle replays them).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "os/env.hpp"

namespace rdmi {

/// Answers from `inner` and records each name asked with its value (nullopt: unset).
class RecordingEnv final : public Env {
  public:
    explicit RecordingEnv(const Env& inner) : inner_(inner) {}
    [[nodiscard]] std::optional<std::string> get(std::string_view name) const override;
    /// Every name asked so far, sorted.
    [[nodiscard]] std::map<std::string, std::optional<std::string>> recorded() const;

  private:
    const Env& inner_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::optional<std::string>> asked_;
};

}  // namespace rdmi
