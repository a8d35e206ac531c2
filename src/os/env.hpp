// Env: the seam through which the probe reads environment variables.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace rdmi {

/// Read access to environment variables.
class Env {
  public:
    virtual ~Env() = default;
    /// The value of `name`, or nullopt when unset.
    [[nodiscard]] virtual std::optional<std::string> get(std::string_view name) const = 0;
};

/// The process environment.
class ProcessEnv final : public Env {
  public:
    [[nodiscard]] std::optional<std::string> get(std::string_view name) const override;
};

/// A fixed set of variables (tests; or a cleaned environment).
class MapEnv final : public Env {
  public:
    MapEnv() = default;
    explicit MapEnv(std::map<std::string, std::string, std::less<>> vars)
        : vars_(std::move(vars)) {}
    [[nodiscard]] std::optional<std::string> get(std::string_view name) const override;
    void set(std::string name, std::string value) { vars_[std::move(name)] = std::move(value); }

  private:
    std::map<std::string, std::string, std::less<>> vars_;
};

}  // namespace rdmi
