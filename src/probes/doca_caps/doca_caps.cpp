// probe_doca_caps(): which DOCA libraries to load, the trust rule, the call in the run's worker
// child, and the JSON wire format between child and parent.
#include "probes/doca_caps/doca_caps.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "context/wire_json.hpp"

namespace rdmi {
namespace {

using Json = nlohmann::json;

// The trusted paths, NUL-separated (paths hold no NUL), for the worker child.
std::string join_nul(const std::vector<std::string>& paths) {
    std::string out;
    for (const auto& path : paths) {
        out += path;
        out.push_back('\0');
    }
    return out;
}

// In the worker child. Request: join_nul() of the libraries to load, libdoca_common first.
std::string doca_caps_in_child(std::string_view request) {
    std::vector<std::string> libraries;
    while (!request.empty()) {
        const auto nul = request.find('\0');
        libraries.emplace_back(request.substr(0, nul));
        request.remove_prefix(nul == std::string_view::npos ? request.size() : nul + 1);
    }
    return encode_doca_caps(query_doca_caps(libraries));
}

bool is_major_soname(const std::string& name, std::string& stem) {
    const auto so = name.find(".so");
    if (name.rfind("libdoca_", 0) != 0 || so == std::string::npos) return false;
    const std::string suffix = name.substr(so + 3);
    stem = name.substr(0, so);
    if (suffix.empty()) return true;
    if (suffix.front() != '.' || suffix.size() < 2) return false;
    return suffix.find('.', 1) == std::string::npos &&
           std::all_of(suffix.begin() + 1, suffix.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

Json pairs_json(const std::vector<std::pair<std::string, std::uint64_t>>& pairs) {
    Json out = Json::array();
    for (const auto& [name, value] : pairs) out.push_back({name, value});
    return out;
}

std::vector<std::pair<std::string, std::uint64_t>> pairs_from(const Json& j) {
    std::vector<std::pair<std::string, std::uint64_t>> out;
    for (const auto& p : j)
        out.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::uint64_t>());
    return out;
}

}  // namespace

std::vector<std::string> doca_libraries_to_load(const Fs& fs, const InstallFacts& install) {
    const InstalledFile* common = nullptr;
    for (const auto& lib : install.libraries)
        if (lib.name == "doca-common" && lib.present) common = &lib;
    if (common == nullptr) return {};
    std::vector<std::string> out{common->path};
    const std::string dir = common->path.substr(0, common->path.rfind('/'));
    auto entries = fs.list_dir(dir);
    if (!entries) return out;
    std::map<std::string, std::string> best;  // stem -> file; ".so.N" wins over ".so"
    for (const auto& entry : *entries) {
        std::string stem;
        if (!is_major_soname(entry.name, stem) || stem == "libdoca_common") continue;
        auto& slot = best[stem];
        if (slot.empty() || slot.size() < entry.name.size()) slot = entry.name;
    }
    for (const auto& [stem, name] : best) out.push_back(dir + "/" + name);
    return out;
}

DocaCapsFacts probe_doca_caps(const ProbeContext& ctx, const std::optional<InstallFacts>& install) {
    DocaCapsFacts facts;
    if (!ctx.live()) {
        facts.gap = Gap{GapReason::not_applicable, "DOCA libraries are not loaded under --root"};
        return facts;
    }
    const auto wanted =
        install ? doca_libraries_to_load(ctx.fs, *install) : std::vector<std::string>{};
    if (wanted.empty()) {
        facts.gap =
            Gap{GapReason::not_installed, "libdoca_common was not found by the install probe"};
        return facts;
    }
    std::vector<std::string> trusted;
    bool common_loadable = false;  // wanted[0] is libdoca_common: nothing works without it
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        auto host = ctx.loadable(wanted[i]);
        if (!host) {
            facts.library_gaps.push_back(host.gap());
            continue;
        }
        common_loadable = common_loadable || i == 0;
        trusted.push_back(*host);
    }
    if (!common_loadable) {
        facts.gap = Gap{GapReason::untrusted, "libdoca_common was not loaded (see library gaps)"};
        return facts;
    }
    // The child opens every device DOCA lists; with many devices that takes seconds.
    ctx.progress.update("DOCA: querying the devices' capabilities", 0, 0);
    std::string key = "doca capabilities via";
    for (const auto& lib : trusted) key += " " + lib;
    auto answer = ctx.answers.answer(key, [&]() {
        return ctx.isolated(&doca_caps_in_child, join_nul(trusted),
                            "doca_devinfo_create_list via " + trusted.front());
    });
    ctx.progress.finish();
    if (!answer) {
        facts.gap = answer.gap();
        return facts;
    }
    auto decoded = decode_doca_caps(*answer);
    if (!decoded) {
        facts.gap = decoded.gap();
        return facts;
    }
    auto gaps = std::move(facts.library_gaps);
    facts = std::move(decoded).value();
    facts.library_gaps.insert(facts.library_gaps.begin(), gaps.begin(), gaps.end());
    return facts;
}

std::string encode_doca_caps(const DocaCapsFacts& facts) {
    Json devices = Json::array();
    for (const auto& d : facts.devices) {
        Json answers = Json::array();
        for (const auto& a : d.answers)
            answers.push_back({a.library, a.flag, a.symbol, a.supported, a.error, a.description});
        Json errors = Json::array();
        for (const auto& e : d.errors) errors.push_back({e.symbol, e.error, e.description});
        Json verbs = nullptr;
        if (d.verbs) {
            verbs = Json{pairs_json(d.verbs->values), d.verbs->atomic_cap, d.verbs->supported,
                         d.verbs->missing, gap_to_wire(d.verbs->gap)};
        }
        devices.push_back(Json{{"pci", d.pci_address},
                               {"ibdev", d.ibdev_name},
                               {"iface", d.iface_name},
                               {"func", d.pci_func_type},
                               {"dpa", d.dpa ? Json(*d.dpa) : Json(nullptr)},
                               {"answers", answers},
                               {"supported", d.supported},
                               {"rdma", pairs_json(d.rdma_values)},
                               {"errors", errors},
                               {"verbs", verbs}});
    }
    Json gaps = Json::array();
    for (const auto& g : facts.library_gaps) gaps.push_back(gap_to_wire(g));
    return Json{{"libraries", facts.libraries},   {"library_gaps", gaps},
                {"predicates", facts.predicates}, {"error_names", facts.error_names},
                {"gap", gap_to_wire(facts.gap)},  {"devices", devices}}
        .dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<DocaCapsFacts> decode_doca_caps(std::string_view text) {
    return decode_wire_json<DocaCapsFacts>(
        text, "DOCA child's answer", "DOCA child sent an unreadable answer", [](const Json& j) {
            DocaCapsFacts facts;
            facts.libraries = j.at("libraries").get<std::vector<std::string>>();
            for (const auto& g : j.at("library_gaps")) {
                auto gap = gap_from_wire(g);
                if (!gap) throw std::runtime_error("a library gap is null");
                facts.library_gaps.push_back(std::move(*gap));
            }
            facts.predicates = j.at("predicates").get<std::vector<std::string>>();
            facts.error_names = j.at("error_names").get<std::string>();
            facts.gap = gap_from_wire(j.at("gap"));
            for (const auto& d : j.at("devices")) {
                DocaDevice device;
                device.pci_address = d.at("pci").get<std::string>();
                device.ibdev_name = d.at("ibdev").get<std::string>();
                device.iface_name = d.at("iface").get<std::string>();
                device.pci_func_type = d.at("func").get<std::string>();
                if (!d.at("dpa").is_null()) device.dpa = d.at("dpa").get<bool>();
                for (const auto& a : d.at("answers")) {
                    device.answers.push_back(
                        {a.at(0).get<std::string>(), a.at(1).get<std::string>(),
                         a.at(2).get<std::string>(), a.at(3).get<bool>(),
                         a.at(4).get<std::string>(), a.at(5).get<std::string>()});
                }
                device.supported =
                    d.at("supported").get<std::map<std::string, std::vector<std::string>>>();
                device.rdma_values = pairs_from(d.at("rdma"));
                for (const auto& e : d.at("errors")) {
                    device.errors.push_back({e.at(0).get<std::string>(), e.at(1).get<std::string>(),
                                             e.at(2).get<std::string>()});
                }
                if (const auto& v = d.at("verbs"); !v.is_null()) {
                    device.verbs = DocaVerbsAttrs{pairs_from(v.at(0)), v.at(1).get<std::string>(),
                                                  v.at(2).get<std::vector<std::string>>(),
                                                  v.at(3).get<std::vector<std::string>>(),
                                                  gap_from_wire(v.at(4))};
                }
                facts.devices.push_back(std::move(device));
            }
            return facts;
        });
}

}  // namespace rdmi
