// Env implementations.
#include "os/env.hpp"

#include <cstdlib>

namespace rdmi {

std::optional<std::string> ProcessEnv::get(std::string_view name) const {
    const char* value = std::getenv(std::string(name).c_str());  // NOLINT(concurrency-mt-unsafe)
    if (value == nullptr) return std::nullopt;
    return std::string(value);
}

std::optional<std::string> MapEnv::get(std::string_view name) const {
    auto it = vars_.find(name);
    if (it == vars_.end()) return std::nullopt;
    return it->second;
}

}  // namespace rdmi
