// Tests for check --wait's loop, on a fake clock that the evaluations and the sleeps advance:
// when it evaluates, when it stops, what it says between evaluations.
#include <doctest/doctest.h>

#include <vector>

#include "cli/wait_loop.hpp"

namespace rdmi::cli {
namespace {

using std::chrono::milliseconds;

/// Time moves only when the loop sleeps or an evaluation says how long it took.
class FakeClock final : public WaitClock {
  public:
    [[nodiscard]] time_point now() const override { return now_; }
    void sleep_until(time_point until) override {
        sleeps.push_back(std::chrono::duration_cast<milliseconds>(until - now_));
        now_ = std::max(now_, until);
    }
    void advance(milliseconds by) { now_ += by; }
    [[nodiscard]] milliseconds since_start() const {
        return std::chrono::duration_cast<milliseconds>(now_ - time_point{});
    }
    std::vector<milliseconds> sleeps;

  private:
    time_point now_{};
};

/// An evaluation that takes `cost` of fake time and passes from its `passes_from`-th call on
/// (0: never), recording when each began.
struct Evaluations {
    FakeClock& clock;
    milliseconds cost{0};
    std::size_t passes_from = 0;
    std::vector<milliseconds> started_at{};

    bool operator()() {
        started_at.push_back(clock.since_start());
        clock.advance(cost);
        return passes_from != 0 && started_at.size() >= passes_from;
    }
};

WaitSummary run(const WaitSettings& settings, FakeClock& clock, Evaluations& evaluations,
                std::vector<WaitPause>* pauses = nullptr) {
    return wait_until_passed(settings, clock, std::ref(evaluations), [&](const WaitPause& p) {
        if (pauses != nullptr) pauses->push_back(p);
    });
}

TEST_CASE("a first evaluation that passes ends the wait at once, without a pause") {
    FakeClock clock;
    Evaluations evaluations{clock, milliseconds(30), 1};
    std::vector<WaitPause> pauses;
    const auto summary = run({milliseconds(5000), milliseconds(1000)}, clock, evaluations, &pauses);
    CHECK(summary.passed);
    CHECK(summary.evaluations == 1);
    CHECK(summary.waited == milliseconds(30));
    CHECK(pauses.empty());
    CHECK(clock.sleeps.empty());
}

TEST_CASE("the requirements passing on the third evaluation end the wait there") {
    FakeClock clock;
    Evaluations evaluations{clock, milliseconds(10), 3};
    std::vector<WaitPause> pauses;
    const auto summary = run({milliseconds(5000), milliseconds(200)}, clock, evaluations, &pauses);
    CHECK(summary.passed);
    CHECK(summary.evaluations == 3);
    // The interval is the pause after each evaluation: 0, 10+200, 2 * 210.
    CHECK(evaluations.started_at ==
          std::vector<milliseconds>{milliseconds(0), milliseconds(210), milliseconds(420)});
    CHECK(summary.waited == milliseconds(430));
    REQUIRE(pauses.size() == 2);
    CHECK(pauses[0].evaluations == 1);
    CHECK(pauses[0].pause == milliseconds(200));
    CHECK(pauses[0].left == milliseconds(4990));
    CHECK(pauses[1].evaluations == 2);
    CHECK(pauses[1].left == milliseconds(4780));
}

TEST_CASE("requirements that never pass are evaluated one last time at the wait's end") {
    FakeClock clock;
    Evaluations evaluations{clock, milliseconds(0), 0};
    const auto summary = run({milliseconds(1000), milliseconds(300)}, clock, evaluations);
    CHECK_FALSE(summary.passed);
    // 0, 300, 600, 900, then the shortened pause to the end at 1000, which is evaluated.
    CHECK(evaluations.started_at == std::vector<milliseconds>{milliseconds(0), milliseconds(300),
                                                              milliseconds(600), milliseconds(900),
                                                              milliseconds(1000)});
    CHECK(clock.sleeps.back() == milliseconds(100));
    CHECK(summary.evaluations == 5);
    CHECK(summary.waited == milliseconds(1000));
}

TEST_CASE("an evaluation that outlasts the wait is the last one") {
    FakeClock clock;
    Evaluations evaluations{clock, milliseconds(1500), 0};
    const auto summary = run({milliseconds(1000), milliseconds(100)}, clock, evaluations);
    CHECK_FALSE(summary.passed);
    CHECK(summary.evaluations == 1);
    CHECK(summary.waited == milliseconds(1500));
    CHECK(clock.sleeps.empty());
}

TEST_CASE("the verdict is the last evaluation's, not any earlier one's") {
    // Passing, then failing, would be a wait that ended at the first: the loop never reaches a
    // second evaluation after a pass.
    FakeClock clock;
    std::size_t calls = 0;
    const auto summary = wait_until_passed(
        {milliseconds(1000), milliseconds(100)}, clock,
        [&] {
            ++calls;
            clock.advance(milliseconds(1));
            return calls == 2;
        },
        [](const WaitPause&) {});
    CHECK(summary.passed);
    CHECK(calls == 2);
    CHECK(summary.evaluations == 2);
}

TEST_CASE("an interval longer than what is left pauses only until the end") {
    FakeClock clock;
    Evaluations evaluations{clock, milliseconds(700), 0};
    std::vector<WaitPause> pauses;
    const auto summary = run({milliseconds(1000), milliseconds(500)}, clock, evaluations, &pauses);
    CHECK(summary.evaluations == 2);
    REQUIRE(pauses.size() == 1);
    CHECK(pauses[0].pause == milliseconds(300));
    CHECK(pauses[0].left == milliseconds(300));
    CHECK(evaluations.started_at == std::vector<milliseconds>{milliseconds(0), milliseconds(1000)});
}

TEST_CASE("the wait's last evaluation that did not pass is concluded, and its answer stands") {
    // check --wait's polls judge from fewer reads than a document needs: the one the wait ends
    // on is made whole by `conclude`, which may find that the requirements pass by now.
    for (const bool concluded_pass : {false, true}) {
        CAPTURE(concluded_pass);
        FakeClock clock;
        Evaluations evaluations{clock, milliseconds(10), 0};
        std::size_t conclusions = 0;
        const auto summary = wait_until_passed(
            {milliseconds(300), milliseconds(100)}, clock, std::ref(evaluations),
            [](const WaitPause&) {},
            [&] {
                ++conclusions;
                clock.advance(milliseconds(20));
                return concluded_pass;
            });
        CHECK(conclusions == 1);
        CHECK(summary.passed == concluded_pass);
        CHECK(summary.evaluations == evaluations.started_at.size());
        CHECK(summary.waited == clock.since_start());  // the conclusion is part of the wait
    }
}

TEST_CASE("an evaluation that passes, or one before the wait's end, is not concluded") {
    FakeClock clock;
    Evaluations evaluations{clock, milliseconds(10), 3};
    std::size_t conclusions = 0;
    const auto summary = wait_until_passed(
        {milliseconds(5000), milliseconds(100)}, clock, std::ref(evaluations),
        [](const WaitPause&) {},
        [&] {
            ++conclusions;
            return false;
        });
    CHECK(summary.passed);
    CHECK(summary.evaluations == 3);
    CHECK(conclusions == 0);
}

TEST_CASE("the steady clock sleeps at least until the time asked for") {
    WaitClock& clock = WaitClock::steady();
    const auto until = clock.now() + milliseconds(20);
    clock.sleep_until(until);
    CHECK(clock.now() >= until);
}

}  // namespace
}  // namespace rdmi::cli
