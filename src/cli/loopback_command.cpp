// `rdmi-probe loopback`: a DPA kernel does one loopback RDMA write and the bytes are verified.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <system_error>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "model/registry.hpp"
#include "os/append_file.hpp"
#include "probes/loopback/loopback.hpp"
#include "report/loopback_json.hpp"
#include "report/loopback_text.hpp"

namespace rdmi::cli {
namespace {

/// rdmi-probe-dpa.so beside the running binary, where the build and `install` put it.
std::string plugin_beside_binary() {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return {};
    auto candidate = self.parent_path() / "rdmi-probe-dpa.so";
    return std::filesystem::exists(candidate, error) ? candidate.string() : std::string();
}

class LoopbackCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "loopback"; }
    [[nodiscard]] std::string_view summary() const override {
        return "DPA kernel does one loopback RDMA write; bytes verified (levels 0-3)";
    }

    void add_options(CLI::App& sub) override {
        sub.add_option("--level", options_.level,
                       "stop after level N: 0 static, 1 device + DPA context, 2 empty kernel, "
                       "3 loopback write")
            ->check(CLI::Range(0, kLoopbackMaxLevel))
            ->default_str("3");
        sub.add_option("--device", options_.device,
                       "PCI address or ibdev name (default: the first DPA-capable PF)");
        sub.add_option("--bytes", options_.bytes, "bytes to write")
            ->check(CLI::Range(std::size_t{1}, kLoopbackMaxBytes))
            ->default_str("4096");
        sub.add_option("--iterations", options_.iterations,
                       "kernel launches; reports min/median/max latency and bandwidth")
            ->check(CLI::Range(1, kLoopbackMaxIterations))
            ->default_str("1");
        sub.add_flag("--lifecycle-selftest", options_.lifecycle_selftest,
                     "attach a completion after start on disposable objects; expect "
                     "DOCA_ERROR_BAD_STATE");
        sub.add_option("--trace", options_.trace_path,
                       "write every DOCA call (arguments, return value, error name, time, thread) "
                       "to FILE as JSON lines, as it returns")
            ->type_name("FILE");
        sub.add_option("--plugin", plugin_,
                       "the DPA plugin (default: rdmi-probe-dpa.so beside the binary)");
    }

    int run(const Session& session) override {
        LoopbackOptions options = options_;
        options.plugin_path = plugin_.empty() ? plugin_beside_binary() : plugin_;
        if (!options.trace_path.empty()) {
            // Created and emptied here, so that a bad path is a usage error before anything
            // runs; the DOCA child appends to it.
            if (auto trace = AppendFile::open(options.trace_path, true); !trace) {
                return session.output().fail("loopback: --trace: " + trace.gap().message);
            }
        }
        Facts facts;
        ProbeRequest request;
        request.loopback = options;
        collect(session.probe_context(), {ProbeId::loopback}, facts, request);
        const LoopbackVerdict& verdict = *facts.loopback;
        const RunInfo run = session.run_info();
        const std::string document = session.options().json
                                         ? json::dump(json::loopback_document(run, verdict))
                                         : text::loopback(session.style(), verdict);
        return session.output().finish(document, exit_code_for(verdict.result));
    }

  private:
    LoopbackOptions options_;
    std::string plugin_;
};

}  // namespace

std::unique_ptr<Command> make_loopback_command() {
    return std::make_unique<LoopbackCommand>();
}

}  // namespace rdmi::cli
