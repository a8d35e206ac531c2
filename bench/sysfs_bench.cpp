// Benchmarks the sysfs scan over the generated fixture roots (time per scan and per function).
#include <benchmark/benchmark.h>

#include <string>

#include "os/rooted_fs.hpp"
#include "sysfs/devices.hpp"
#include "sysfs/platform.hpp"

namespace {

rdmi::RootedFs open_root(const char* scenario) {
    auto fs = rdmi::RootedFs::open(std::string(RDMI_SYSFS_FIXTURES_DIR) + "/" + scenario);
    if (!fs.ok()) throw std::runtime_error(fs.gap().message);
    return fs.value();
}

void scan_devices_of(benchmark::State& state, const char* scenario) {
    const auto fs = open_root(scenario);
    std::size_t functions = 0;
    for (auto _ : state) {
        auto inventory = rdmi::sysfs::scan_devices(fs);
        functions = inventory.functions.size();
        benchmark::DoNotOptimize(inventory);
    }
    state.counters["functions"] = static_cast<double>(functions);
    // Seconds per function per scan: the linearity figure.
    state.counters["per_function"] = benchmark::Counter(
        static_cast<double>(functions),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_scan_devices_scale(benchmark::State& state) {
    scan_devices_of(state, "scale");
}
void BM_scan_devices_cx7_vfs(benchmark::State& state) {
    scan_devices_of(state, "cx7-vfs");
}
void BM_scan_devices_bf3_arm(benchmark::State& state) {
    scan_devices_of(state, "bf3-arm");
}

void BM_scan_platform_scale(benchmark::State& state) {
    const auto fs = open_root("scale");
    for (auto _ : state) {
        auto facts = rdmi::sysfs::scan_platform(fs, std::nullopt);
        benchmark::DoNotOptimize(facts);
    }
}

}  // namespace

BENCHMARK(BM_scan_devices_scale)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_scan_devices_cx7_vfs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_scan_devices_bf3_arm)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_scan_platform_scale)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
