// Resolving -d/--device before the run collects, and refusing a name that matches nothing.
#include "cli/device_scope_option.hpp"

#include "model/device_scope.hpp"
#include "report/terminal_text.hpp"
#include "text/shell_word.hpp"
#include "text/text.hpp"

namespace rdmi::cli {
namespace {

// A host with hundreds of functions (SR-IOV VFs) would make the one-line message a screenful.
constexpr std::size_t kFunctionsNamed = 16;

// The message is one line, whatever the names hold: a user's name is shell-quoted (so an empty
// or blank one shows), a scanned one escaped.
std::string unknown_names(const std::vector<std::string>& names) {
    std::vector<std::string> quoted;
    quoted.reserve(names.size());
    for (const auto& name : names) quoted.push_back(text::terminal_safe(shell_word(name)));
    return join(quoted);
}

std::string present_functions(const std::vector<std::string>& present) {
    if (present.empty()) return "there is none";
    std::vector<std::string> named;
    for (std::size_t i = 0; i < present.size() && i < kFunctionsNamed; ++i)
        named.push_back(text::terminal_safe(present[i]));
    std::string out = "there are: " + join(named, "; ");
    if (present.size() > kFunctionsNamed)
        out += "; and " + std::to_string(present.size() - kFunctionsNamed) + " more";
    return out;
}

}  // namespace

std::optional<int> scope_to_devices(const Session& session, std::string_view command,
                                    const std::vector<std::string>& names, Facts& facts,
                                    ProbeRequest& request, OnProbeError on_error) {
    if (names.empty()) return std::nullopt;
    collect(session.probe_context(), {ProbeId::system}, facts, {}, on_error);
    // A scan that failed found no function: every name is then unknown, and the error says
    // there are none rather than guessing.
    static const sysfs::DeviceInventory kNone{};
    const auto& inventory = facts.system ? facts.system->inventory : kNone;
    auto resolution = resolve_device_scope(inventory, names);
    if (!resolution.unknown.empty()) {
        const std::string where =
            session.options().root_given ? session.options().root : std::string("this host");
        return session.output().fail(std::string(command) + ": --device " +
                                     unknown_names(resolution.unknown) +
                                     ": no such NVIDIA function on " + text::terminal_safe(where) +
                                     "; " + present_functions(resolution.present));
    }
    narrow_to_scope(*facts.system, resolution.scope);
    request.devices = resolution.scope;
    facts.device_scope = std::move(resolution.scope);
    return std::nullopt;
}

}  // namespace rdmi::cli
