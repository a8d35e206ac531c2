// LiveAnswers: the seam every live-only answer passes (a library loaded in a child, a tool run,
// a trust decision, uname), so that a run can record them and a bundle can replay them.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace rdmi {

/// Where the answers that only a live machine can give come from.
class LiveAnswers {
  public:
    /// The live call itself: its text answer or the gap it met.
    using Ask = std::function<Result<std::string>()>;

    virtual ~LiveAnswers() = default;

    /// The answer to the call named `key` (stable across machines: in-root paths, no host
    /// names). Live: `ask()`. Replayed: the captured answer, never `ask`.
    [[nodiscard]] virtual Result<std::string> answer(const std::string& key,
                                                     const Ask& ask) const = 0;

    /// True when the answers come from a capture (a bundle), not from this machine: live-only
    /// questions are then asked although the root is not the live one.
    [[nodiscard]] virtual bool captured() const { return false; }

    /// True when the answers are read from a bundle, also one gathered under --root: such a
    /// run asks live-only questions of this machine itself (the rpm records' librpm) only.
    [[nodiscard]] virtual bool replayed() const { return captured(); }

    /// "captured" when the answers are replayed, else `live_kind` ("api", "command"): the
    /// provenance kind of a datum that came from a live answer.
    [[nodiscard]] std::string kind(const std::string& live_kind) const {
        return captured() ? "captured" : live_kind;
    }

    /// The machine itself: every answer is asked.
    static const LiveAnswers& direct();
};

/// One recorded answer.
struct RecordedAnswer {
    std::string key;
    Result<std::string> answer;
};

/// Asks `inner` and keeps every answer, in the order asked (gather).
class RecordingAnswers final : public LiveAnswers {
  public:
    explicit RecordingAnswers(const LiveAnswers& inner) : inner_(inner) {}
    [[nodiscard]] Result<std::string> answer(const std::string& key, const Ask& ask) const override;
    /// The answers recorded so far; a key asked twice keeps its last answer.
    [[nodiscard]] std::vector<RecordedAnswer> recorded() const;

  private:
    const LiveAnswers& inner_;
    mutable std::mutex mutex_;
    mutable std::vector<RecordedAnswer> answers_;
};

/// Replays captured answers; a key that was never captured is a not_applicable gap.
class CapturedAnswers final : public LiveAnswers {
  public:
    /// `live`: the bundle was gathered on the live root (its live-only questions are asked
    /// again, and answered from here); false for one gathered under --root, whose only
    /// answers are those of this machine's own librpm.
    explicit CapturedAnswers(std::map<std::string, Result<std::string>, std::less<>> answers,
                             bool live = true)
        : answers_(std::move(answers)), live_(live) {}
    [[nodiscard]] Result<std::string> answer(const std::string& key, const Ask& ask) const override;
    [[nodiscard]] bool captured() const override { return live_; }
    [[nodiscard]] bool replayed() const override { return true; }

  private:
    std::map<std::string, Result<std::string>, std::less<>> answers_;
    bool live_ = true;
};

}  // namespace rdmi
