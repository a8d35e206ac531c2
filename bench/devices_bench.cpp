// Benchmarks the devices probe (sysfs inventory, platform, host kind, summary, checks) over
// generated roots of 8..64 PFs x 8 VFs: median wall time and cost per device, to show that the
// cost grows linearly with the device count. Prints figures; asserts nothing.
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "probes/devices.hpp"

namespace {

std::string make_root(int pfs) {
    const std::string dir = std::string(RDMI_BENCH_WORK_DIR) + "/scale-" + std::to_string(pfs);
    const std::string cmd = "/usr/bin/python3 -c \"import sys; sys.path.insert(0, '" +
                            std::string(RDMI_SYSFS_FIXTURE_SCRIPT_DIR) +
                            "'); import make_sysfs_root as m; m.prepare('" + dir +
                            "', True); m.scenario_scale(m.Root('" + dir +
                            "'), pfs=" + std::to_string(pfs) + ")\"";
    if (std::system(cmd.c_str()) != 0) {  // NOLINT(cert-env33-c): fixed command line
        std::fprintf(stderr, "devices_bench: could not generate %s\n", dir.c_str());
        std::exit(1);
    }
    return dir;
}

}  // namespace

int main() {
    auto log = spdlog::null_logger_mt("bench");
    rdmi::MapEnv env;
    std::printf("%6s %8s %12s %16s\n", "PFs", "devices", "median ms", "per device us");
    for (int pfs : {8, 16, 32, 64}) {
        const std::string root = make_root(pfs);
        auto fs = rdmi::RootedFs::open(root);
        if (!fs.ok()) return 1;
        std::vector<double> ms;
        std::size_t devices = 0;
        for (int run = 0; run < 15; ++run) {
            rdmi::ProbeContext ctx{*fs,
                                   env,
                                   *log,
                                   rdmi::Deadline(std::chrono::seconds(60)),
                                   std::chrono::seconds(10),
                                   std::nullopt,
                                   false};
            const auto start = std::chrono::steady_clock::now();
            auto facts = rdmi::probe_devices(ctx, std::nullopt);
            const auto end = std::chrono::steady_clock::now();
            devices = facts.summary.size();
            ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        }
        std::sort(ms.begin(), ms.end());
        const double median = ms[ms.size() / 2];
        std::printf("%6d %8zu %12.2f %16.1f\n", pfs, devices, median,
                    median * 1000.0 / static_cast<double>(devices));
    }
    return 0;
}
