// LiveAnswers: asked directly, recorded, or replayed from a capture.
#include "os/live_answers.hpp"

namespace rdmi {
namespace {

class DirectAnswers final : public LiveAnswers {
  public:
    [[nodiscard]] Result<std::string> answer(const std::string& /*key*/,
                                             const Ask& ask) const override {
        return ask();
    }
};

}  // namespace

const LiveAnswers& LiveAnswers::direct() {
    static const DirectAnswers answers;
    return answers;
}

Result<std::string> RecordingAnswers::answer(const std::string& key, const Ask& ask) const {
    Result<std::string> got = inner_.answer(key, ask);
    const std::scoped_lock lock(mutex_);
    for (auto& recorded : answers_) {
        if (recorded.key == key) {
            recorded.answer = got;
            return got;
        }
    }
    answers_.push_back({key, got});
    return got;
}

std::vector<RecordedAnswer> RecordingAnswers::recorded() const {
    const std::scoped_lock lock(mutex_);
    return answers_;
}

Result<std::string> CapturedAnswers::answer(const std::string& key, const Ask& /*ask*/) const {
    if (auto it = answers_.find(key); it != answers_.end()) return it->second;
    return make_gap(GapReason::not_applicable, key + ": not captured in the bundle");
}

}  // namespace rdmi
