// Human text for the contract documents, rendered from the document body so that text and
// JSON can never disagree.
#include "report/contract_text.hpp"

#include <cstdio>

#include "report/terminal_text.hpp"

namespace rdmi::text {
namespace {

using contract::Json;

std::string str(const Json& value) {
    if (value.is_null()) return "none";
    if (value.is_string()) {
        const auto& s = value.get_ref<const std::string&>();
        return s.empty() ? "?" : terminal_safe(s);
    }
    if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
    return terminal_safe(value.dump());
}

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string line(std::string_view label, const std::string& value) {
    return "  " + pad(std::string(label), 18) + value + "\n";
}

std::string devices(const Json& list, bool with_name) {
    std::string out = "Devices (" + std::to_string(list.size()) + "):\n";
    if (list.empty()) out += "  (none visible)\n";
    for (const auto& d : list) {
        std::string row = "  " + pad(str(d["pcie_address"]), 14) + pad(str(d["kind"]), 4);
        if (with_name) row += pad(str(d["name"]), 16);
        row += pad(str(d["state"]), 8);
        row += d["mtu"].get<long long>() > 0 ? "mtu " + str(d["mtu"]) : std::string("mtu ?");
        if (!d["representor_of"].is_null()) row += "  representor of " + str(d["representor_of"]);
        out += row + "\n";
    }
    return out;
}

std::string env_body(const Json& b) {
    const auto& v = b["version"];
    std::string out = "DOCA versions:\n";
    out += line("pkg-config", str(v["pkg_config"]));
    out += line("applications", str(v["applications_version"]));
    out += line("doca_caps", str(v["doca_caps"]));
    out += line("BFB", str(v["bfb"]));
    out += line("consistent", str(v["consistent"]));
    out += "Host:\n";
    out += line("host kind", str(b["host_kind"]));
    out += line("BlueField mode", str(b["bf_mode"]));
    out += line("kernel", str(b["drivers"]["kernel_version"]));
    out +=
        line("mlx5_core", b["drivers"]["mlx5_core_loaded"].get<bool>() ? "loaded" : "not loaded");
    out += line("mlx5_ib", b["drivers"]["mlx5_ib_loaded"].get<bool>() ? "loaded" : "not loaded");
    out += line("hugepages free", str(b["hugepages"]["available_2m"]) + " x 2M, " +
                                      str(b["hugepages"]["available_1g"]) + " x 1G");
    out += line("hugetlbfs", str(b["hugepages"]["mount_point"]));
    out += devices(b["devices"], true);
    std::size_t installed = 0;
    for (const auto& lib : b["libraries"]) installed += lib["installed"].get<bool>() ? 1 : 0;
    out += "Libraries (" + std::to_string(installed) + " of " +
           std::to_string(b["libraries"].size()) + " installed):\n";
    for (const auto& lib : b["libraries"]) {
        out += "  " + pad(str(lib["pkg_config_name"]), 18) +
               (lib["installed"].get<bool>() ? str(lib["pc_path"]) : std::string("not installed")) +
               "\n";
    }
    out += "Samples (" + std::to_string(b["sample_paths"].size()) + "):\n";
    for (const auto& s : b["sample_paths"])
        out += "  " + pad(str(s["library"]), 18) + str(s["path"]) + "\n";
    return out;
}

std::string state_body(const Json& b) {
    std::string out = "State of the " + str(b["side"]) + " side:\n";
    out += line("DOCA version", str(b["doca_version"]));
    out += line("firmware", str(b["firmware_version"]));
    out += line("kernel", str(b["kernel_version"]));
    std::string mods;
    for (const auto& m : b["mlx5_modules"]) mods += (mods.empty() ? "" : ", ") + str(m);
    out += line("mlx5 modules", mods.empty() ? "none" : mods);
    out += line("BlueField mode", str(b["bf_mode"]));
    out += devices(b["devices"], false);
    return out;
}

std::string caps_body(const Json& b) {
    std::string out = "Capability snapshot at " + str(b["snapshot_at"]) + ":\n";
    out += line("DOCA version", str(b["doca_version"]));
    out += line("host kind", str(b["host_kind"]));
    out += "Devices (" + std::to_string(b["devices"].size()) + "):\n";
    if (b["devices"].empty()) out += "  (none: see below)\n";
    for (const auto& d : b["devices"]) {
        out += "  " + str(d["pcie_address"]) + "\n";
        for (const auto& [library, flags] : d["library_capabilities"].items()) {
            std::string list;
            for (const auto& f : flags) list += (list.empty() ? "" : " ") + str(f);
            out += "    " + pad(terminal_safe(library), 16) + (list.empty() ? "(no flags)" : list) +
                   "\n";
        }
    }
    return out;
}

// What the document could not say: the warnings of a contract document.
std::string gaps_text(const TextStyle& style, const contract::Document& doc) {
    std::string out = "Not available:\n";
    for (const auto& g : doc.gaps) {
        out += "  " +
               wrap(style,
                    terminal_safe(g.pointer + ": " + std::string(to_string(g.gap.reason)) + ": " +
                                  g.gap.message),
                    2, 4) +
               "\n";
    }
    return out;
}

}  // namespace

std::string contract_document(const TextStyle& style, const contract::Document& doc,
                              const std::string& exe_path, const json::RunFacts& run) {
    // Quiet is warnings only (a contract document judges nothing): what could not be read.
    if (style.verbosity < 0) return doc.gaps.empty() ? std::string() : gaps_text(style, doc);
    std::string out = "using structured rdmi-probe (path: " + terminal_safe(exe_path) + ")\n";
    out += doc.kind + (run.live ? "" : " of root " + terminal_safe(run.root)) + "\n\n";
    if (doc.kind == "doca-env") {
        out += env_body(doc.body);
    } else if (doc.kind == "capability-snapshot") {
        out += caps_body(doc.body);
    } else {
        out += state_body(doc.body);
    }
    if (!doc.fallbacks.empty()) {
        out += "\nFrom a fallback:\n";
        for (const auto& f : doc.fallbacks)
            out += "  " + wrap(style, terminal_safe(f.pointer + ": " + f.note), 2, 4) + "\n";
    }
    if (!doc.gaps.empty()) out += "\n" + gaps_text(style, doc);
    return out;
}

}  // namespace rdmi::text
