// `rdmi-probe loopback`: a DPA kernel does one loopback RDMA write and the bytes are verified.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <system_error>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
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
        add_modelled(sub, name(), "--level", options_.level);
        add_modelled(sub, name(), "--device", options_.device);
        add_modelled(sub, name(), "--bytes", options_.bytes);
        add_modelled(sub, name(), "--iterations", options_.iterations);
        add_modelled(sub, name(), "--lifecycle-selftest", options_.lifecycle_selftest);
        add_modelled(sub, name(), "--trace", options_.trace_path);
        add_modelled(sub, name(), "--plugin", plugin_);
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
