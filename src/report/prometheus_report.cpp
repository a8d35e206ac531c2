// Prometheus text exposition (format 0.0.4) of the report: one gauge family per fact, samples of
// a family together, comments for what is left out. Nothing here reads the OS.
#include "report/prometheus_report.hpp"

#include <fmt/format.h>

#include <array>
#include <ctime>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "build_info.hpp"
#include "model/contract_facts.hpp"
#include "model/registry.hpp"
#include "os/fs.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi::prometheus {
namespace {

constexpr std::array kStatuses = {Status::pass, Status::fail, Status::skip, Status::info,
                                  Status::warn};

using Labels = std::vector<std::pair<std::string_view, std::string>>;

/// One metric family: its samples, and the series left out (each a comment line).
struct Family {
    std::string_view name;
    std::string_view help;
    std::vector<std::string> samples;
    std::vector<std::string> omitted;
    std::set<std::string, std::less<>> series;

    void add(const Labels& labels, std::string_view value) {
        std::string line(name);
        if (!labels.empty()) {
            line += '{';
            for (std::size_t i = 0; i < labels.size(); ++i) {
                if (i > 0) line += ',';
                line +=
                    fmt::format("{}=\"{}\"", labels[i].first, escape_label_value(labels[i].second));
            }
            line += '}';
        }
        // Two series with the same labels make node_exporter reject the whole file (sysfs can
        // name one port twice: ports/1 and ports/01 are both port 1).
        if (!series.insert(line).second) {
            omit("a series listed twice (its first value is exported)");
            return;
        }
        samples.push_back(line + " " + std::string(value));
    }
    // `why` is fixed text: a probed value never reaches a comment.
    void omit(std::string_view why) {
        omitted.push_back(fmt::format("# {} omitted: {}", name, why));
    }

    [[nodiscard]] std::string render() const {
        std::string out;
        for (const auto& line : omitted) out += line + "\n";
        if (samples.empty()) return out;
        out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
        for (const auto& line : samples) out += line + "\n";
        return out;
    }
};

std::string_view flag(bool value) {
    return value ? "1" : "0";
}

Family check_status(const Facts& facts) {
    Family f{"rdmi_probe_check_status",
             "State set of each report check: 1 for the check's status, 0 for the other "
             "statuses (pass, fail, skip, info, warn).",
             {},
             {},
             {}};
    std::set<std::string, std::less<>> seen;
    for (const auto& check : report_checks(facts)) {
        const std::string id(check.id.str());
        if (!usable_label_value(id)) {
            f.omit("a check whose id is not printable ASCII");
            continue;
        }
        // Two series with the same labels would make the whole file unreadable to the collector.
        if (!seen.insert(id).second) {
            f.omit("a check id listed twice (its first status is exported)");
            continue;
        }
        for (Status status : kStatuses) {
            f.add({{"check", id}, {"status", std::string(to_string(status))}},
                  flag(status == check.status));
        }
    }
    return f;
}

// Both series always: a missing one would read as "no data" where the answer is known.
Family ready(const Facts& facts) {
    Family f{"rdmi_probe_ready",
             "1 when `rdmi-probe report --for <purpose>` exits 0 (no check of that purpose failed "
             "or was skipped), else 0; purpose run: an installed RDMI application can run here, "
             "build: one and its DPA kernels can be built here.",
             {},
             {},
             {}};
    for (Purposes purpose : {Purposes::run, Purposes::build}) {
        f.add({{"purpose", std::string(for_name(purpose))}}, flag(ready_for(facts, purpose)));
    }
    return f;
}

Family info(const Facts& facts) {
    Family f{"rdmi_probe_info",
             "Constant 1; the labels carry rdmi-probe's version and the DOCA version it found "
             "(empty when none).",
             {},
             {},
             {}};
    std::string doca_version;
    if (facts.install) {
        const auto resolved = contract::resolve_doca_version(*facts.install);
        if (resolved.version.value && usable_label_value(*resolved.version.value)) {
            doca_version = *resolved.version.value;
        } else if (resolved.version.value) {
            f.omit("doca_version left empty: the version is not printable ASCII");
        }
    }
    f.add({{"version", build_info::kVersion}, {"doca_version", doca_version}}, "1");
    return f;
}

// A PF's or VF's rdma device name for the `device` label; "" (no label) when it has none.
std::optional<std::string> first_rdma_device(const std::vector<std::string>& names) {
    if (names.empty()) return std::string();
    if (!usable_label_value(names.front())) return std::nullopt;
    return names.front();
}

Family dpa_capable(const Facts& facts) {
    Family f{"rdmi_probe_device_dpa_capable",
             "1 when the PCI function has a DPA (DOCA's answer, else inferred from the device "
             "id), 0 when it has none; absent when unknown.",
             {},
             {},
             {}};
    if (!facts.devices) return f;
    for (const auto& row : facts.devices->summary) {
        // A scalable function is no PCI function: it shares its PF's DPA, which has its own row.
        if (row.kind == "SF") continue;
        if (!usable_label_value(row.function)) {
            f.omit("a function whose PCI address is not printable ASCII");
            continue;
        }
        const auto device = first_rdma_device(row.rdma_devices);
        if (!device) {
            f.omit("a function whose rdma device name is not printable ASCII");
            continue;
        }
        if (!row.dpa.value || row.dpa.value->support == sysfs::DpaSupport::unknown) {
            f.omit("a function whose DPA support is unknown (see the report's devices)");
            continue;
        }
        // `device` as node_exporter's infiniband collector names the rdma device, so that its
        // node_infiniband_info joins on(device).
        f.add({{"pci", row.function}, {"device", *device}},
              flag(row.dpa.value->support == sysfs::DpaSupport::yes));
    }
    return f;
}

Family port_active(const Facts& facts) {
    Family f{"rdmi_probe_port_active",
             "1 when the port of the PCI function's rdma device is ACTIVE, 0 in any other "
             "state; absent when its state could not be read.",
             {},
             {},
             {}};
    if (!facts.devices) return f;
    const auto& inventory = facts.devices->inventory;
    for (const auto& device : inventory.rdma_devices) {
        const sysfs::Function* function =
            device.function.value ? inventory.find_function(*device.function.value) : nullptr;
        if (function == nullptr || function->kind == sysfs::FunctionKind::sf) continue;
        if (!usable_label_value(function->name) || !usable_label_value(device.name)) {
            f.omit("a port whose PCI address or rdma device name is not printable ASCII");
            continue;
        }
        for (const auto& port : device.ports) {
            if (!port.state.value) {
                f.omit("a port whose state could not be read (see the report's devices)");
                continue;
            }
            // `device` and `port` exactly as node_exporter's infiniband collector labels its port
            // series (the rdma device's name, the port number in decimal), so that on(device,
            // port) joins them without label_replace:
            // docs/reference/fleet-consumers.md#node-exporter-infiniband-labels
            f.add({{"device", device.name},
                   {"port", std::to_string(port.number)},
                   {"pci", function->name}},
                  flag(port.state.value->name == "ACTIVE"));
        }
    }
    return f;
}

Family versions_consistent(const Facts& facts) {
    Family f{"rdmi_probe_doca_versions_consistent",
             "1 when both four-way DOCA version matches agree (env's version.consistent), "
             "else 0.",
             {},
             {},
             {}};
    if (facts.install) {
        f.add({}, flag(judge_consistency(*facts.install).consistent));
    } else {
        f.omit("the install probe did not run");
    }
    return f;
}

Family versions_consistency(const Facts& facts) {
    Family f{"rdmi_probe_doca_versions_consistency",
             "State set of the combined DOCA version consistency: 1 for the install's state, 0 "
             "for the others (agree, disagree, incomplete); consistent is agree.",
             {},
             {},
             {}};
    if (!facts.install) {
        f.omit("the install probe did not run");
        return f;
    }
    const ConsistencyState state = judge_consistency(*facts.install).state;
    for (ConsistencyState each : kConsistencyStates)
        f.add({{"state", std::string(to_string(each))}}, flag(each == state));
    return f;
}

// "doca_rdmi" for ".../libdoca_rdmi.so.3": the name the library is linked by (-ldoca_rdmi), the
// same across DOCA releases, unlike the soname.
std::string library_stem(const std::string& path) {
    std::string name(base_name(path));
    if (name.starts_with("lib")) name.erase(0, 3);
    if (auto so = name.find(".so"); so != std::string::npos) name.erase(so);
    return name;
}

Family experimental_symbols(const Facts& facts) {
    Family f{"rdmi_probe_experimental_symbols",
             "Number of the library's audited symbols classified experimental (symbols of "
             "unknown stability are not counted).",
             {},
             {},
             {}};
    if (!facts.symbols) {
        f.omit("no doca-rdmi library to audit");
        return f;
    }
    if (!*facts.symbols) {
        f.omit("the symbol audit could not read the library (see the report's symbols)");
        return f;
    }
    const SymbolsFacts& symbols = **facts.symbols;
    const std::string library = library_stem(symbols.library.path);
    if (!usable_label_value(library)) {
        f.omit("a library whose name is not printable ASCII");
        return f;
    }
    f.add({{"library", library}}, std::to_string(symbols.audit.counts.experimental));
    return f;
}

Family containment(const Facts& facts) {
    Family f{"rdmi_probe_containment",
             "State set of how the children that load vendor libraries and run tools were "
             "contained: 1 for the run's state, 0 for the others (full, partial, none, "
             "not_applicable).",
             {},
             {},
             {}};
    for (ContainmentState state : {ContainmentState::full, ContainmentState::partial,
                                   ContainmentState::none, ContainmentState::not_applicable}) {
        f.add({{"state", std::string(to_string(state))}},
              flag(state == facts.run.containment.state));
    }
    return f;
}

Family run_duration(const Facts& facts) {
    Family f{
        "rdmi_probe_run_duration_seconds", "How long the probes of this run took.", {}, {}, {}};
    f.add({}, fmt::format("{:.6f}", facts.run.duration_ms / 1000.0));
    return f;
}

// The run's time as written in every document ("2026-12-01T10:00:00Z"), in seconds since the
// epoch; nullopt for any other text.
std::optional<long long> epoch_seconds(const std::string& iso) {
    std::tm tm{};
    char z = 0;
    int consumed = 0;
    // NOLINTNEXTLINE(cert-err34-c): the fields are range-checked below, and timegm normalises.
    if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &tm.tm_year, &tm.tm_mon,
                    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z, &consumed) != 7 ||
        z != 'Z' || static_cast<std::size_t>(consumed) != iso.size() || tm.tm_mon < 1 ||
        tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
        tm.tm_sec > 60) {
        return std::nullopt;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return static_cast<long long>(::timegm(&tm));
}

Family last_run(const Facts& facts) {
    Family f{"rdmi_probe_last_run_timestamp_seconds",
             "When this run happened, in seconds since the epoch (SOURCE_DATE_EPOCH when set).",
             {},
             {},
             {}};
    if (auto seconds = epoch_seconds(facts.run.generated_at)) {
        f.add({}, std::to_string(*seconds));
    } else {
        f.omit("the run's time is not known");
    }
    return f;
}

}  // namespace

std::string escape_label_value(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        switch (c) {
            case '\\':
                out += "\\\\";
                break;
            case '"':
                out += "\\\"";
                break;
            case '\n':
                out += "\\n";
                break;
            default:
                out += c;
        }
    }
    return out;
}

bool usable_label_value(std::string_view value) {
    if (value.empty() || value.size() > kMaxLabelValue) return false;
    for (char c : value) {
        if (c < 0x20 || c > 0x7e) return false;
    }
    return true;
}

std::string report(const Facts& facts) {
    std::string out;
    for (const Family& family :
         {check_status(facts), ready(facts), info(facts), dpa_capable(facts), port_active(facts),
          versions_consistent(facts), versions_consistency(facts), experimental_symbols(facts),
          containment(facts), run_duration(facts), last_run(facts)}) {
        out += family.render();
    }
    return out;
}

}  // namespace rdmi::prometheus
