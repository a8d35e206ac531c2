// RecordingEnv: pass-through with a memory.
#include "os/recording_env.hpp"

namespace rdmi {

std::optional<std::string> RecordingEnv::get(std::string_view name) const {
    auto value = inner_.get(name);
    const std::scoped_lock lock(mutex_);
    asked_[std::string(name)] = value;
    return value;
}

std::map<std::string, std::optional<std::string>> RecordingEnv::recorded() const {
    const std::scoped_lock lock(mutex_);
    return asked_;
}

}  // namespace rdmi
