// Node Feature Discovery local feature file of the report. NFD (source/local) reads each
// non-dot file of features.d, skips `#` lines (`# +` starts a directive: only the opt-in
// expiry time is one) and takes `key=value`; the value becomes a node label, so it must be a
// Kubernetes label value or the node update fails for every label.
#include "report/nfd_features.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "build_info.hpp"
#include "model/contract_facts.hpp"
#include "model/registry.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi::nfd {
namespace {

bool alphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/// A value, or why the key is left out (fixed text).
struct Value {
    std::string text;
    std::string_view omitted;
};

Value of(std::string text) {
    return {std::move(text), {}};
}
Value omit(std::string_view why) {
    return {{}, why};
}
Value boolean(bool value) {
    return of(value ? "true" : "false");
}

Value doca_version(const Facts& facts) {
    if (!facts.install) return omit("the install probe did not run");
    const auto resolved = contract::resolve_doca_version(*facts.install);
    if (!resolved.version.value)
        return omit("no DOCA version source gave a version that parses (see the report)");
    if (label_value_problem(*resolved.version.value))
        return omit("the DOCA version is not a valid label value");
    return of(*resolved.version.value);
}

Value versions_consistent(const Facts& facts) {
    if (!facts.install) return omit("the install probe did not run");
    return boolean(judge_consistency(*facts.install).consistent);
}

// The combined state behind versions-consistent: whether "false" means two sources disagree or
// one is missing (a node missing doca_caps is not a node with two DOCA releases).
Value versions_consistency(const Facts& facts) {
    if (!facts.install) return omit("the install probe did not run");
    return of(std::string(to_string(judge_consistency(*facts.install).state)));
}

// Whether the devices probe looked at a PCI bus whose RDMA devices it could list.
std::string_view devices_unknown(const Facts& facts) {
    if (!facts.devices) return "the devices probe did not run";
    if (!facts.devices->pci_bus_present) return "the root has no /sys/bus/pci/devices";
    return {};
}

Value dpa(const Facts& facts) {
    if (auto why = devices_unknown(facts); !why.empty()) return omit(why);
    bool undecided = false;
    for (const auto& row : facts.devices->summary) {
        if (!row.dpa.value || row.dpa.value->support == sysfs::DpaSupport::unknown) {
            undecided = true;
        } else if (row.dpa.value->support == sysfs::DpaSupport::yes) {
            return boolean(true);
        }
    }
    if (undecided) return omit("no function surely has a DPA, and some could not be decided");
    return boolean(false);
}

Value port_active(const Facts& facts) {
    if (auto why = devices_unknown(facts); !why.empty()) return omit(why);
    for (const auto& row : facts.devices->summary) {
        if (row.port_active) return boolean(true);
    }
    if (facts.devices->inventory.rdma_class_gap)
        return omit("/sys/class/infiniband could not be listed");
    return boolean(false);
}

Value host_kind(const Facts& facts) {
    if (!facts.devices) return omit("the devices probe did not run");
    const auto kind = facts.devices->host.host_kind;
    if (kind == host::HostKind::unknown) return omit("the host kind could not be decided");
    return of(std::string(to_string(kind)));
}

}  // namespace

std::optional<std::string_view> label_value_problem(std::string_view value) {
    if (value.empty()) return "empty";
    if (value.size() > kMaxLabelValue) return "longer than 63 characters";
    for (char c : value) {
        if (!alphanumeric(c) && c != '-' && c != '_' && c != '.')
            return "a character other than letters, digits, '-', '_' and '.'";
    }
    if (!alphanumeric(value.front()) || !alphanumeric(value.back()))
        return "does not start and end with a letter or digit";
    return std::nullopt;
}

std::string features(const Facts& facts, const FeatureFileOptions& options) {
    const Status result = overall_status(report_checks(facts));
    const std::pair<std::string_view, Value> lines[] = {
        // Exactly when `rdmi-probe report --for run` exits 0: a label that schedules workloads
        // answers whether one can run here, not whether one could be built.
        {"ready", boolean(ready_for(facts, Purposes::run))},
        // Exactly when `rdmi-probe report --for build` exits 0.
        {"build-ready", boolean(ready_for(facts, Purposes::build))},
        {"result", of(std::string(to_string(result)))},
        {"doca-version", doca_version(facts)},
        {"versions-consistent", versions_consistent(facts)},
        {"versions-consistency", versions_consistency(facts)},
        {"dpa", dpa(facts)},
        {"port-active", port_active(facts)},
        {"host-kind", host_kind(facts)},
    };
    std::string out = fmt::format(
        "# {} {} report --format nfd: Node Feature Discovery local features; rewritten on every "
        "run\n",
        build_info::kToolName, build_info::kVersion);
    if (options.expiry_time) {
        if (options.expiry_time->empty() ||
            options.expiry_time->find_first_not_of("0123456789-:TZ") != std::string::npos)
            throw std::invalid_argument("nfd: an expiry time that is no RFC 3339 UTC time");
        // Before every key: NFD applies a directive to the lines that follow it
        // (docs/reference/fleet-consumers.md#nfd-expiry-time).
        out += fmt::format("# +expiry-time={}\n", *options.expiry_time);
    }
    for (const auto& [key, value] : lines) {
        // Every value passes the same check, whatever produced it.
        if (value.omitted.empty() && label_value_problem(value.text)) {
            out +=
                fmt::format("# {}{} omitted: its value is not a valid label value\n", kPrefix, key);
        } else if (!value.omitted.empty()) {
            out += fmt::format("# {}{} omitted: {}\n", kPrefix, key, value.omitted);
        } else {
            out += fmt::format("{}{}={}\n", kPrefix, key, value.text);
        }
    }
    return out;
}

}  // namespace rdmi::nfd
