// The fake DOCA's control surface for the loopback tests.
#include "loopback_fake.hpp"

#include <stdexcept>

namespace rdmi::test {

FakeDoca& FakeDoca::get() {
    static FakeDoca fake;
    return fake;
}

FakeDoca::FakeDoca() : library_(DynamicLibrary::open(RDMI_TEST_FAKE_DOCA).value()) {}

void FakeDoca::reset() {
    library_.function<void (*)()>("fake_doca_reset")();
}

void FakeDoca::set(const char* key, const char* value) {
    if (library_.function<int (*)(const char*, const char*)>("fake_doca_set")(key, value) != 0)
        throw std::invalid_argument(std::string("fake_doca_set: unknown key ") + key);
}

long FakeDoca::live() const {
    return library_.function<long (*)()>("fake_doca_live_objects")();
}

long FakeDoca::violations() const {
    return library_.function<long (*)()>("fake_doca_violations")();
}

std::string FakeDoca::last_violation() const {
    return library_.function<const char* (*)()>("fake_doca_last_violation")();
}

std::string FakeDoca::call_log() const {
    return library_.function<const char* (*)()>("fake_doca_call_log")();
}

LoopbackOptions fake_options(int level) {
    LoopbackOptions options;
    options.level = level;
    options.plugin_path = RDMI_TEST_FAKE_PLUGIN;
    return options;
}

LoopbackVerdict run_fake(const LoopbackOptions& options, std::chrono::milliseconds wait) {
    loopback::StepJournal journal;
    return loopback::run_loopback_from_files({RDMI_TEST_FAKE_DOCA}, options, Deadline(wait),
                                             journal);
}

const LoopbackStep* find_step(const LoopbackVerdict& verdict, std::string_view id) {
    for (const auto& step : verdict.steps) {
        if (step.id == id) return &step;
    }
    return nullptr;
}

}  // namespace rdmi::test
