// probe_system(): the sysfs scans and the host classification, in that order.
#include "probes/system.hpp"

#include <nlohmann/json.hpp>

#include "context/wire_json.hpp"
#include "sysfs/devices.hpp"

namespace rdmi {
namespace {

// uname(2) and the credentials as a live answer: a bundle replays the gathering host's.
std::string encode_live_host(const host::LiveHost& live) {
    return nlohmann::json{{"machine", live.machine},
                          {"release", live.release},
                          {"uid", live.uid},
                          {"gid", live.gid},
                          {"groups", live.groups}}
        .dump();
}

std::optional<host::LiveHost> live_host(const ProbeContext& ctx) {
    if (!ctx.live()) return std::nullopt;
    auto text = ctx.answers.answer("uname and credentials", [&ctx]() -> Result<std::string> {
        auto live = host::query_live_host(ctx.fs);
        if (!live) return make_gap(GapReason::not_applicable, "uname(2) failed");
        return encode_live_host(*live);
    });
    if (!text) return std::nullopt;
    auto parsed = parse_wire_json(*text, "uname answer");
    if (!parsed) return std::nullopt;
    try {
        host::LiveHost live;
        live.machine = parsed->at("machine").get<std::string>();
        live.release = parsed->at("release").get<std::string>();
        live.uid = parsed->at("uid").get<std::uint32_t>();
        live.gid = parsed->at("gid").get<std::uint32_t>();
        live.groups = parsed->at("groups").get<std::vector<std::uint32_t>>();
        return live;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

SystemFacts probe_system(const ProbeContext& ctx) {
    SystemFacts facts;
    // Live (or replaying a live bundle), the GID tables wait for the verbs worker's answer:
    // one ibv_query_gid_table per device instead of sysfs's file per entry, 255 a port on
    // real hardware (finish_gid_tables(), which reads sysfs where there is no answer).
    facts.inventory =
        sysfs::scan_devices(ctx.fs, ctx.live() ? sysfs::GidTables::defer : sysfs::GidTables::read);
    facts.pci_bus_present = ctx.fs.stat("/sys/bus/pci/devices").ok();
    facts.platform = host::scan_platform(ctx.fs, live_host(ctx));
    facts.host = host::classify_host(facts.platform, facts.inventory);
    return facts;
}

}  // namespace rdmi
