// Tests for the pcie-link probe over generated sysfs roots, copied into memory, that gain link
// attributes.
#include "probes/pcie_link/pcie_link.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "check/check_catalog.hpp"
#include "model/registry.hpp"
#include "report/json_report.hpp"
#include "support/memory_fs.hpp"
#include "sysfs/devices.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

// bf3-arm: PFs 0000:03:00.0 and .1 below the port 0000:00:01.0.
constexpr const char* kPort = "/sys/devices/pci0000:00/0000:00:01.0";
constexpr const char* kPf0 = "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0";
constexpr const char* kPf1 = "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.1";

// A copy in memory of a generated sysfs root, which a case gives link attributes.
struct Root {
    test::MemoryFs fs;

    explicit Root(const std::string& scenario) : fs(test::sysfs_fixture_in_memory(scenario)) {}
    void write(const std::string& path, const std::string& text) { fs.write(path, text); }
    // Writes a device's four link attributes (the port's: only the max ones).
    void link(const std::string& dev, const std::string& cur_speed, const std::string& cur_width,
              const std::string& max_speed, const std::string& max_width) {
        write(dev + "/current_link_speed", cur_speed + "\n");
        write(dev + "/current_link_width", cur_width + "\n");
        write(dev + "/max_link_speed", max_speed + "\n");
        write(dev + "/max_link_width", max_width + "\n");
    }
    void port(const std::string& max_speed, const std::string& max_width) {
        write(std::string(kPort) + "/max_link_speed", max_speed + "\n");
        write(std::string(kPort) + "/max_link_width", max_width + "\n");
    }
    [[nodiscard]] PcieLinkFacts probe() const {
        return read_pcie_links(fs, sysfs::scan_devices(fs));
    }
};

const PcieLink& link_of(const PcieLinkFacts& facts, const std::string& name) {
    for (const auto& link : facts.links) {
        if (link.function == name) return link;
    }
    FAIL("no function " << name);
    return facts.links.front();
}

bool has_source(const Check& check, const std::string& ref) {
    for (const auto& source : check.sources) {
        if (source.ref == ref && source.kind == "sysfs") return true;
    }
    return false;
}

TEST_CASE("pcie-link: every PF at the maximum of card and port passes, with provenance") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
    root.link(kPf1, "16.0 GT/s", "16", "16.0 GT/s", "16");
    root.port("16.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->id == "pcie-link");
    CHECK(facts.check->status == Status::pass);
    // Both PFs are behind one port: one link, one verdict.
    CHECK(facts.check->message ==
          "0000:03:00.0 and 0000:03:00.1, one link (upstream port 0000:00:01.0), runs at 16.0 "
          "GT/s x16, its maximum");
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::pass);
    CHECK(pf0.current_speed.value->text == "16.0 GT/s PCIe");
    CHECK(pf0.current_speed.source.ref == "/sys/bus/pci/devices/0000:03:00.0/current_link_speed");
    REQUIRE(pf0.port);
    CHECK(pf0.port->address == "0000:00:01.0");
    CHECK(pf0.port->max_width.source.ref == std::string(kPort) + "/max_link_width");
    CHECK(*pf0.reach_gts == doctest::Approx(16.0));
    CHECK(*pf0.reach_width == 16);
    CHECK_FALSE(pf0.slot_limited);
    CHECK(has_source(*facts.check, "/sys/bus/pci/devices/0000:03:00.1/max_link_width"));
    CHECK(has_source(*facts.check, std::string(kPort) + "/max_link_speed"));
}

TEST_CASE("pcie-link: a link trained below what card and port reach warns with the figures") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.link(kPf1, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.port("32.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    // The port can do more than PF0 trained at: a reseat is the fix. PF1 on the same link
    // disagrees, and is named with its figures (its files are the link's evidence too).
    CHECK(link_of(facts, "0000:03:00.0").message ==
          "0000:03:00.0 runs at 16.0 GT/s x16 of 32.0 GT/s x16: half its PCIe bandwidth; its "
          "upstream port 0000:00:01.0 can do more: reseat the card or check the slot's lanes "
          "and BIOS bifurcation");
    CHECK(facts.check->remediation.starts_with("Reseat"));
    CHECK(link_of(facts, "0000:03:00.1").status == Status::pass);
    CHECK(has_source(*facts.check, "/sys/bus/pci/devices/0000:03:00.0/current_link_speed"));
    CHECK(has_source(*facts.check, "/sys/bus/pci/devices/0000:03:00.1/current_link_speed"));
}

TEST_CASE("pcie-link: lanes lost and an older generation are priced by their data rate") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "4", "16.0 GT/s PCIe", "16");
    // 2.5 GT/s uses 8b/10b: 2 Gb/s per lane against 16 * 128/130, 12.7% (about an eighth).
    root.link(kPf1, "2.5 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    CHECK(link_of(facts, "0000:03:00.0")
              .message.starts_with("0000:03:00.0 runs at 16.0 GT/s x4 of 16.0 GT/s x16: a quarter "
                                   "of its PCIe bandwidth"));
    const std::string& pf1 = link_of(facts, "0000:03:00.1").message;
    CHECK_MESSAGE(pf1.starts_with("0000:03:00.1 runs at 2.5 GT/s x16 of 16.0 GT/s x16: an eighth "
                                  "of its PCIe bandwidth"),
                  pf1);
}

TEST_CASE("pcie-link: a share that is no simple fraction is given in percent") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "12", "16.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "16");
    CHECK(link_of(root.probe(), "0000:03:00.0")
              .message.starts_with(
                  "0000:03:00.0 runs at 16.0 GT/s x12 of 16.0 GT/s x16: about "
                  "75% of its PCIe bandwidth; its upstream port 0000:00:01.0 can do more: reseat"));
}

TEST_CASE("pcie-link: a card faster than its slot is slot-limited, not told to reseat") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
    root.link(kPf1, "16.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "8");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::warn);
    CHECK(pf0.slot_limited);
    CHECK(*pf0.reach_gts == doctest::Approx(16.0));
    CHECK(*pf0.reach_width == 8);
    CHECK(pf0.message ==
          "0000:03:00.0 runs at 16.0 GT/s x8, limited by its slot: its slot (upstream port "
          "0000:00:01.0) reaches only 16.0 GT/s x8 of the card's 32.0 GT/s x16: another slot, "
          "not a reseat, gives it more");
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    CHECK(facts.check->remediation.starts_with("Move a slot-limited card"));
    // Both functions sit behind one port: its files are listed once.
    int port_files = 0;
    for (const auto& source : facts.check->sources)
        port_files += source.ref == std::string(kPort) + "/max_link_speed" ? 1 : 0;
    CHECK(port_files == 1);
}

TEST_CASE("pcie-link: trained below a slot that is itself slower than the card says both") {
    Root root("bf3-arm");
    root.link(kPf0, "8.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "8");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::warn);
    CHECK(
        pf0.message.starts_with("0000:03:00.0 runs at 8.0 GT/s x8 of 16.0 GT/s x8: half its "
                                "PCIe bandwidth; its upstream port 0000:00:01.0 can do more: "
                                "reseat"));
    CHECK(
        pf0.message.ends_with("bifurcation; and its slot (upstream port 0000:00:01.0) reaches "
                              "only 16.0 GT/s x8 of the card's 32.0 GT/s x16: another slot, not "
                              "a reseat, gives it more"));
}

TEST_CASE("pcie-link: an Unknown speed is a skip that says why") {
    Root root("bf3-arm");
    root.link(kPf0, "Unknown", "0", "16.0 GT/s PCIe", "16");
    root.link(kPf1, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::skip);
    CHECK(pf0.current_speed.gap->reason == GapReason::not_applicable);
    CHECK(pf0.message ==
          "0000:03:00.0: /sys/bus/pci/devices/0000:03:00.0/current_link_speed: link speed "
          "\"Unknown\" (link down or not trained)");
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::skip);
    // PF1 on the same link was judged: the link's functions disagree, each one named.
    CHECK(facts.check->message.starts_with(
        "not judged: 0000:03:00.0 and 0000:03:00.1 share one link (upstream port 0000:00:01.0) "
        "but disagree: 0000:03:00.0: "));
}

TEST_CASE("pcie-link: VFs have no link attributes and are not applicable, not counted") {
    Root root("cx7-vfs");
    const std::string port = "/sys/devices/pci0000:00/0000:80:01.0";
    root.link(port + "/0000:81:00.0", "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.link(port + "/0000:81:00.1", "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.write(port + "/max_link_speed", "32.0 GT/s PCIe\n");
    root.write(port + "/max_link_width", "16\n");
    const auto facts = root.probe();
    REQUIRE(facts.links.size() == 5);  // one PF, four VFs (one given link files anyway)
    int vfs = 0;
    for (const auto& link : facts.links) {
        if (link.kind != sysfs::FunctionKind::vf) continue;
        ++vfs;
        CHECK_FALSE(link.status);
        CHECK(link.message == "VF: shares its PF's link (not applicable)");
    }
    CHECK(vfs == 4);
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::pass);
    CHECK(facts.check->message.find("0000:81:00.2") == std::string::npos);
}

TEST_CASE("pcie-link: SFs are not applicable") {
    Root root("bf3-arm");
    const auto facts = root.probe();
    bool saw_sf = false;
    for (const auto& link : facts.links) {
        if (link.kind != sysfs::FunctionKind::sf) continue;
        saw_sf = true;
        CHECK_FALSE(link.status);
    }
    CHECK(saw_sf);
}

TEST_CASE("pcie-link: a tree without link attributes has no check (reports as before)") {
    Root root("bf3-arm");
    const auto facts = root.probe();
    REQUIRE(facts.links.size() == 4);
    CHECK_FALSE(facts.links[0].status);
    CHECK(facts.links[0].message ==
          "0000:03:00.0: no link attributes in /sys/bus/pci/devices/0000:03:00.0 (not applicable)");
    CHECK_FALSE(facts.check);
}

TEST_CASE("pcie-link: some attributes missing on a PF is a skip naming the missing file") {
    Root root("bf3-arm");
    root.write(std::string(kPf0) + "/current_link_speed", "16.0 GT/s PCIe\n");
    root.write(std::string(kPf0) + "/current_link_width", "16\n");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::skip);
    CHECK(pf0.max_speed.gap->reason == GapReason::not_found);
    CHECK(pf0.message.find("/sys/bus/pci/devices/0000:03:00.0/max_link_speed") !=
          std::string::npos);
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::skip);
}

TEST_CASE("pcie-link: unparseable attributes are a skip with the bad text") {
    Root root("bf3-arm");
    root.link(kPf0, "fast", "16", "16.0 GT/s PCIe", "16");
    root.link(kPf1, "16.0 GT/s PCIe", "x16", "16.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::skip);
    CHECK(pf0.current_speed.gap->reason == GapReason::malformed);
    CHECK(pf0.message ==
          "0000:03:00.0: /sys/bus/pci/devices/0000:03:00.0/current_link_speed: not a link "
          "speed: \"fast\"");
    const auto& pf1 = link_of(facts, "0000:03:00.1");
    CHECK(pf1.status == Status::skip);
    CHECK(pf1.message.find("not a lane count 0..32: \"x16\"") != std::string::npos);
}

TEST_CASE("pcie-link: a port without link attributes leaves the card's maximum, and says so") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::pass);
    CHECK(pf0.message.find("its upstream port's maximum is unknown: " + std::string(kPort) +
                           "/max_link_speed") != std::string::npos);
}

// The kernel prints PCIE_LNK_WIDTH_UNKNOWN (255) as max_link_width when a device's Link
// Capabilities register reads 0: an unknown maximum, not a malformed file.
TEST_CASE("pcie-link: a max_link_width of 255 is the kernel's unknown width, not malformed") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "255");
    root.link(kPf1, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "255");
    const auto facts = root.probe();
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK(pf0.status == Status::skip);
    REQUIRE(pf0.max_width.gap);
    CHECK(pf0.max_width.gap->reason == GapReason::not_applicable);
    CHECK(pf0.message ==
          "0000:03:00.0: /sys/bus/pci/devices/0000:03:00.0/max_link_width: link width 255: the "
          "kernel's unknown width (the device's Link Capabilities register read 0)");
    // The port's unknown maximum leaves the card's own, and the message says why.
    const auto& pf1 = link_of(facts, "0000:03:00.1");
    CHECK(pf1.status == Status::pass);
    REQUIRE(pf1.port);
    CHECK(pf1.port->max_width.gap->reason == GapReason::not_applicable);
    CHECK(pf1.message.find("its upstream port's maximum is unknown: " + std::string(kPort) +
                           "/max_link_width: link width 255: the kernel's unknown width") !=
          std::string::npos);
    CHECK(pf1.message.find("malformed") == std::string::npos);
    CHECK(pf1.message.find("not a lane count") == std::string::npos);
}

TEST_CASE("pcie-link: two PFs behind one upstream port are one link, their disagreement named") {
    // degraded-link: PF0 trained at 16.0 GT/s x16, PF1 at 32.0 GT/s x16, both below the port
    // 0000:00:01.0 that reaches 32.0 GT/s x16.
    Root root("degraded-link");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    CHECK(facts.check->message ==
          "0000:03:00.0 and 0000:03:00.1 share one link (upstream port 0000:00:01.0) but "
          "disagree: 0000:03:00.0 runs at 16.0 GT/s x16 of 32.0 GT/s x16: half its PCIe "
          "bandwidth; its upstream port 0000:00:01.0 can do more: reseat the card or check the "
          "slot's lanes and BIOS bifurcation; 0000:03:00.1 runs at 32.0 GT/s x16, its maximum");
    const auto groups = group_pcie_links(facts.links);
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].id == "0000:00:01.0");
    CHECK(groups[0].functions == std::vector<std::string>{"0000:03:00.0", "0000:03:00.1"});
    CHECK_FALSE(groups[0].functions_agree);
    CHECK(groups[0].status == Status::warn);
}

TEST_CASE("pcie-link: functions of one link that agree get one verdict, named once") {
    Root root("full-link");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::pass);
    CHECK(facts.check->message ==
          "0000:03:00.0 and 0000:03:00.1, one link (upstream port 0000:00:01.0), runs at 32.0 "
          "GT/s x16, its maximum");
}

TEST_CASE("pcie-link: a Socket Direct card's two links keep two verdicts") {
    // PF0 on port 0000:00:01.0 at its maximum, PF1 on port 0000:80:01.0 at half of it.
    Root root("socket-direct");
    const auto facts = root.probe();
    const auto groups = group_pcie_links(facts.links);
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].id == "0000:00:01.0");
    CHECK(groups[0].status == Status::pass);
    CHECK(groups[1].id == "0000:80:01.0");
    CHECK(groups[1].status == Status::warn);
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    CHECK(facts.check->message ==
          "0000:83:00.0 runs at 16.0 GT/s x8 of 32.0 GT/s x8: half its PCIe bandwidth; its "
          "upstream port 0000:80:01.0 can do more: reseat the card or check the slot's lanes "
          "and BIOS bifurcation");
}

TEST_CASE("pcie-link: trained low under a port whose maximum is unknown: the slot, not a reseat") {
    Root root("unknown-slot");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    CHECK(facts.check->message.starts_with(
        "0000:03:00.0 and 0000:03:00.1, one link (upstream port 0000:00:01.0), runs at 16.0 GT/s "
        "x16 of 32.0 GT/s x16: half its PCIe bandwidth; the slot or riser may limit it (its "
        "upstream port's maximum is unknown: "));
    CHECK(facts.check->message.find("reseat") == std::string::npos);
    CHECK(facts.check->remediation ==
          "The slot or riser may be the limit where the upstream port's maximum is unknown: read "
          "what it can do (lspci -vv -s 0000:00:01.0: LnkCap) before reseating.");
}

TEST_CASE("pcie-link: link speed and width parsers") {
    CHECK(parse_link_speed("8.0 GT/s\n")->gts == doctest::Approx(8.0));
    CHECK(parse_link_speed("2.5 GT/s")->gts == doctest::Approx(2.5));
    CHECK(parse_link_speed("8 GT/s")->gts == doctest::Approx(8.0));  // older kernels
    CHECK(parse_link_speed("32.0 GT/s PCIe\n")->text == "32.0 GT/s PCIe");
    CHECK(parse_link_speed("64.0 GT/s PCIe")->gts == doctest::Approx(64.0));
    CHECK(parse_link_speed("Unknown\n").gap().reason == GapReason::not_applicable);
    CHECK(parse_link_speed("Unknown speed").gap().reason == GapReason::not_applicable);
    for (const char* bad :
         {"", "GT/s", "16.0", "16.0 GT/s PCIe x", "16.0 Gb/s", ".5 GT/s", "5. GT/s", "1.2.3 GT/s",
          "-8.0 GT/s", "0.0 GT/s", "999.0 GT/s", "1e3 GT/s", "16.0  GT/s", "16.0 GT/s\nPCIe"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_link_speed(bad).ok());
    }
    CHECK(*parse_link_width("16\n") == 16);
    CHECK(*parse_link_width("1") == 1);
    CHECK(parse_link_width("0").gap().reason == GapReason::not_applicable);
    CHECK(parse_link_width("255\n").gap().reason == GapReason::not_applicable);
    for (const char* bad :
         {"", "x16", "33", "254", "256", "-1", "16 lanes", "99999999999999999999"}) {
        CAPTURE(bad);
        CHECK(parse_link_width(bad).gap().reason == GapReason::malformed);
    }
}

// A port's maximum that the trained link exceeds is contradicted by the link itself (a link
// cannot train past either end's maximum): it is no limit, and no reason to move the card.
TEST_CASE("pcie-link: a port maximum below the trained link is contradicted, not slot-limited") {
    Root root("bf3-arm");
    root.link(kPf0, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.link(kPf1, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.port("16.0 GT/s PCIe", "8");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::pass);
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    CHECK_FALSE(pf0.slot_limited);
    CHECK(*pf0.reach_gts == doctest::Approx(32.0));
    CHECK(*pf0.reach_width == 16);
    CHECK(
        pf0.message.starts_with("0000:03:00.0 runs at 32.0 GT/s x16, its maximum (its upstream "
                                "port's maximum is unknown: "));
    CHECK(pf0.message.find("below the link's trained") != std::string::npos);
    CHECK(facts.check->remediation.empty());
    // Only the figure the link contradicts is set aside: a narrower port still limits.
    root.port("16.0 GT/s PCIe", "16");
    root.link(kPf0, "32.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
    root.link(kPf1, "32.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
    const auto again = root.probe();
    const auto& low = link_of(again, "0000:03:00.0");
    CHECK(low.status == Status::warn);
    CHECK_FALSE(low.slot_limited);
    CHECK(low.upstream_unknown);
    CHECK(*low.reach_width == 16);
}

// A bundle replayed with --root names its own directories: a "port" whose name is no PCI
// address is no port, and nothing from the tree reaches a suggested command unquoted.
TEST_CASE("pcie-link: a parent directory that only looks like a PCI address is no port") {
    Root root("unknown-slot");
    root.fs.rename("/sys/devices/pci0000:00/0000:00:01.0", "/sys/devices/pci0000:00/`id`:ab:cd.0");
    for (const char* fn : {"0000:03:00.0", "0000:03:00.1", "0000:03:00.2"}) {
        root.fs.symlink("../../../devices/pci0000:00/`id`:ab:cd.0/" + std::string(fn),
                        "/sys/bus/pci/devices/" + std::string(fn));
    }
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    CHECK_FALSE(link_of(facts, "0000:03:00.0").port);
    CHECK(facts.check->message.find("`") == std::string::npos);
    CHECK(facts.check->remediation.find("`") == std::string::npos);
    CHECK(facts.check->remediation.find("the board's manual") != std::string::npos);
}

// Only the rates pci_speed_string() prints: anything else is no PCIe link speed.
TEST_CASE("pcie-link: a speed no PCIe generation runs at is malformed") {
    for (const char* bad : {"0.0001 GT/s", "3.7 GT/s PCIe", "0.01 GT/s", "127 GT/s", "100 GT/s",
                            "2.50001 GT/s", "16.5 GT/s PCIe"}) {
        CAPTURE(bad);
        CHECK(parse_link_speed(bad).gap().reason == GapReason::malformed);
    }
    for (const char* good : {"2.5 GT/s", "5 GT/s", "5.0 GT/s PCIe", "8.0 GT/s", "16 GT/s",
                             "32.0 GT/s PCIe", "64.0 GT/s PCIe", "128.0 GT/s PCIe", "016.0 GT/s"}) {
        CAPTURE(good);
        CHECK(parse_link_speed(good).ok());
    }
}

// bf3-host-switch: PFs below the card's own switch (downstream 02:00.0, upstream 01:00.0),
// the slot's port 00:01.0 above it.
constexpr const char* kSlot = "/sys/devices/pci0000:00/0000:00:01.0";
constexpr const char* kSwitchUp = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0";
constexpr const char* kSwitchDown =
    "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0";
constexpr const char* kSwPf0 =
    "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0";
constexpr const char* kSwPf1 =
    "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.1";

struct SwitchRoot : Root {
    SwitchRoot() : Root("bf3-host-switch") {
        // Inside the card everything trains at its best: the internal links say nothing of
        // the slot.
        link(kSwPf0, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
        link(kSwPf1, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
        link(kSwitchDown, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    }
    void slot(const std::string& max_speed, const std::string& max_width) {
        write(std::string(kSlot) + "/max_link_speed", max_speed + "\n");
        write(std::string(kSlot) + "/max_link_width", max_width + "\n");
    }
};

TEST_CASE("pcie-link: behind the card's own switch, the slot link is its upstream port's") {
    SwitchRoot root;
    // The card's edge trained at half its lanes in a full x16 gen5 slot.
    root.link(kSwitchUp, "32.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
    root.slot("32.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    const auto& pf0 = link_of(facts, "0000:03:00.0");
    REQUIRE(pf0.card_switch);
    CHECK(*pf0.card_switch == "0000:01:00.0");
    REQUIRE(pf0.port);
    CHECK(pf0.port->address == "0000:00:01.0");  // not the switch's downstream port
    CHECK(pf0.current_width.value == 8u);
    CHECK(pf0.current_width.source.ref == std::string(kSwitchUp) + "/current_link_width");
    CHECK(
        pf0.message.starts_with("0000:03:00.0 (through its card's PCIe switch, upstream port "
                                "0000:01:00.0) runs at 32.0 GT/s x8 of 32.0 GT/s x16"));
    CHECK(has_source(*facts.check, std::string(kSwitchUp) + "/current_link_width"));
    CHECK(has_source(*facts.check, std::string(kSlot) + "/max_link_width"));
    CHECK_FALSE(has_source(*facts.check, std::string(kSwitchDown) + "/max_link_width"));
}

TEST_CASE("pcie-link: a card behind its switch in a slower slot is slot-limited") {
    SwitchRoot root;
    root.link(kSwitchUp, "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.slot("16.0 GT/s PCIe", "16");
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    const auto& pf1 = link_of(facts, "0000:03:00.1");
    CHECK(pf1.slot_limited);
    CHECK(pf1.message.find("limited by its slot") != std::string::npos);
    CHECK(pf1.message.find("upstream port 0000:00:01.0") != std::string::npos);
    // All at the slot's best: pass, though the card could do more elsewhere only by moving.
    root.link(kSwitchUp, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.slot("32.0 GT/s PCIe", "16");
    CHECK(root.probe().check->status == Status::pass);
}

TEST_CASE("pcie-link: a bridge whose vendor or class does not read is not taken for the slot's") {
    // Were the switch's upstream port taken for a foreign bridge, the card's inside link (the
    // downstream port's, at its best) would be judged: a degraded slot link would pass.
    for (const char* attr : {"vendor", "class"}) {
        CAPTURE(attr);
        SwitchRoot root;
        root.link(kSwitchUp, "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
        root.slot("32.0 GT/s PCIe", "16");
        const std::string file = std::string(kSwitchUp) + "/" + attr;
        root.write(file, "0x\x1b\n");
        const auto facts = root.probe();
        REQUIRE(facts.check);
        CHECK(facts.check->status == Status::skip);
        const auto& pf0 = link_of(facts, "0000:03:00.0");
        CHECK(pf0.status == Status::skip);
        CHECK(
            pf0.message.starts_with("0000:03:00.0: cannot tell whether the bridge above it is "
                                    "its card's own PCIe switch: " +
                                    file + ": binary data"));
        CHECK(pf0.current_speed.source.ref == file);
        CHECK(has_source(*facts.check, file));
    }
    // A file that is not there at all (a tree without it): no bridge of the card's, as before.
    SwitchRoot bare;
    bare.link(kSwitchDown, "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    bare.fs.remove(std::string(kSwitchUp) + "/class");
    const auto facts = bare.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::warn);
    // The upstream port is then no bridge of the card's: the edge stops below it.
    CHECK(link_of(facts, "0000:03:00.0").card_switch == std::optional<std::string>("0000:02:00.0"));
}

TEST_CASE("pcie-link: the switch's upstream port in the inventory is judged once, there") {
    SwitchRoot root;
    root.link(kSwitchUp, "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.slot("32.0 GT/s PCIe", "16");
    // On a real host the switch's ports are NVIDIA devices listed in /sys/bus/pci/devices.
    for (const char* bridge : {kSwitchUp, kSwitchDown}) {
        const std::string path(bridge);
        root.fs.symlink("../../../.." + path,
                        "/sys/bus/pci/devices/" + path.substr(path.rfind('/') + 1));
    }
    const auto facts = root.probe();
    REQUIRE(facts.check);
    CHECK(facts.check->status == Status::pass);
    const auto& up = link_of(facts, "0000:01:00.0");
    CHECK(up.status == Status::pass);
    CHECK_FALSE(up.card_switch);
    REQUIRE(up.port);
    CHECK(up.port->address == "0000:00:01.0");
    for (const char* name : {"0000:02:00.0", "0000:03:00.0", "0000:03:00.1"}) {
        CAPTURE(name);
        const auto& below = link_of(facts, name);
        CHECK_FALSE(below.status);
        CHECK(below.message.find("judged at 0000:01:00.0") != std::string::npos);
    }
}

spdlog::logger& null_logger() {
    static spdlog::logger logger("pcie-link-test", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

TEST_CASE("pcie-link: the registry runs it after system; the report carries check and facts") {
    Root root("bf3-arm");
    root.link(kPf0, "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
    root.port("32.0 GT/s PCIe", "16");
    const auto& fs = root.fs;
    const MapEnv env;
    const ProbeContext ctx{fs, env, null_logger(), Deadline(10s), 5s, std::nullopt, false};
    Facts facts;
    collect(ctx, {ProbeId::pcie_link}, facts);
    CHECK(collected(facts, ProbeId::system));
    REQUIRE(facts.pcie_link);
    const auto checks = report_checks(facts);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].id == "pcie-link");
    CHECK(checks[0].status == Status::warn);
    const json::Json report = json::report(facts);
    const json::Json& pf0 = report.at("pcie_link").at("functions").at(0);
    CHECK(pf0.at("function") == "0000:03:00.0");
    CHECK(pf0.at("status") == "warn");
    CHECK(pf0.at("current_speed").at("value").at("gts") == 16.0);
    CHECK(pf0.at("upstream_port").at("address") == "0000:00:01.0");
    CHECK(pf0.at("reach_gts") == 32.0);
    CHECK(report.at("pcie_link").at("functions").at(1).at("status") == "not_applicable");
    // The section follows the built-in ones (environment did not run) and precedes
    // probe_errors.
    std::vector<std::string> keys;
    for (const auto& item : report.items()) keys.push_back(item.key());
    const auto at = [&keys](const std::string& key) {
        return std::find(keys.begin(), keys.end(), key) - keys.begin();
    };
    CHECK(at("pcie_link") == at("version_matrix") + 1);
    CHECK(at("probe_errors") == at("pcie_link") + 1);
}

TEST_CASE("pcie-link: no link judged, no section and no check") {
    Root root("bf3-arm");
    const auto& fs = root.fs;
    const MapEnv env;
    const ProbeContext ctx{fs, env, null_logger(), Deadline(10s), 5s, std::nullopt, false};
    Facts facts;
    collect(ctx, {ProbeId::pcie_link}, facts);
    REQUIRE(facts.pcie_link);
    CHECK_FALSE(facts.pcie_link->check);
    CHECK(report_checks(facts).empty());
    CHECK_FALSE(json::report(facts).contains("pcie_link"));
}

TEST_CASE("pcie-link: its catalog entry, declared with the probe, is in the whole catalog") {
    REQUIRE(find_check("pcie-link") == &finding::pcie_link);
    const auto catalog = check_catalog();
    const auto pos = [&catalog](std::string_view id) {
        return std::find_if(catalog.begin(), catalog.end(),
                            [id](const FindingInfo* info) { return info->id == id; }) -
               catalog.begin();
    };
    // Where the catalog (and docs/checks.md) has always listed it.
    CHECK(pos("pcie-link") == pos("env-ld-library-path") + 1);
    // Later rows' entries follow in row order (roce-gid's sits between).
    CHECK(pos("roce-gid") == pos("pcie-link") + 1);
    CHECK(pos("install-integrity") == pos("roce-gid") + 1);
    CHECK(pos("<probe>-probe") == pos("install-integrity") + 1);
    CHECK(probe_row(ProbeId::pcie_link).findings.data() == kPcieLinkFindings);
}

}  // namespace
}  // namespace rdmi
