// The pcie-link probe: each NVIDIA PCI function's trained PCIe link against what it can reach
// (the lower of the card's and its upstream port's maximum), from sysfs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "json/json_common.hpp"
#include "os/fs.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi {

// The probe's catalog entry: the `pcie-link` check.
namespace finding {
inline constexpr FindingInfo pcie_link{
    "pcie-link", "report (pcie-link probe); check --require-pcie-link",
    "Every PCIe link of an NVIDIA card (one verdict per link: the PFs behind one upstream "
    "port share it) runs at the speed and width its card and slot can reach.",
    "Reseat a card only when its slot's port can do more than the link trained at (check the "
    "slot's lanes and BIOS bifurcation); when the port's maximum is unknown, the slot or riser "
    "may be the limit: read it first (lspci -vv, LnkCap); move a card its slot limits to a "
    "faster slot.",
    Purposes::run};
}  // namespace finding

/// The probe's entries (its registry row lists them).
inline constexpr const FindingInfo* kPcieLinkFindings[] = {&finding::pcie_link};

/// A link speed as sysfs prints it ("16.0 GT/s PCIe") and its rate in GT/s.
struct LinkSpeed {
    std::string text;
    double gts = 0;
};

/// Parses `current_link_speed` / `max_link_speed`: "<rate> GT/s", optionally followed by
/// "PCIe" (newer kernels). "Unknown" (a link that is down or not trained) is a not_applicable
/// gap; anything else that does not parse is malformed.
Result<LinkSpeed> parse_link_speed(std::string_view bytes);

/// Parses `current_link_width` / `max_link_width`: a lane count 1..32 (0: not trained; 255:
/// the kernel does not know the width).
Result<unsigned> parse_link_width(std::string_view bytes);

/// The upstream port of a function: the PCI bridge above it in /sys/devices (above its card's
/// switch, when it has one).
struct UpstreamPort {
    std::string address;  ///< "0000:00:01.0"
    Sourced<LinkSpeed> max_speed;
    Sourced<unsigned> max_width;
};

/// One function's link and verdict.
struct PcieLink {
    std::string function;  ///< PCI address or SF name
    sysfs::FunctionKind kind = sysfs::FunctionKind::pf;
    /// pass, warn or skip; nullopt: not applicable (a VF, an SF, no link attributes at all).
    std::optional<Status> status;
    std::string message;  ///< the verdict in words (why, for skip and not applicable)
    Sourced<LinkSpeed> current_speed;
    Sourced<unsigned> current_width;
    Sourced<LinkSpeed> max_speed;
    Sourced<unsigned> max_width;
    /// The card's PCIe switch upstream port whose figures these are, when the function sits
    /// below its card's own switch (BlueField-3, some ConnectX): only that port's link goes
    /// through the slot. nullopt: the figures are the function's own.
    std::optional<std::string> card_switch;
    /// The slot's port: the bridge above the function, or above its card's switch; nullopt:
    /// directly on a root bus, or not examined.
    std::optional<UpstreamPort> port;
    /// What the link can reach: min(card max, port max) per figure, when known.
    std::optional<double> reach_gts;
    std::optional<unsigned> reach_width;
    bool slot_limited = false;  ///< the port's maximum is below the card's
    bool trained_low = false;   ///< runs below what card and port reach (or the card, when
                                ///< the port's maximum is unknown)
    /// Trained low while its upstream port's maximum is unknown (or there is no port above
    /// it): the slot or a riser may be the limit, so a reseat is not the sure fix.
    bool upstream_unknown = false;
    /// The PCIe link it is on: its slot's upstream port, or (on a root bus, no port above)
    /// its own device address without the function number. Functions with one id share one
    /// physical link; a Socket Direct or multi-host card has one per link. Empty: not judged.
    std::string link_id;
};

/// One PCIe link and its one verdict: the judged functions behind one upstream port.
struct PcieLinkGroup {
    std::string id;                      ///< the functions' link_id
    std::optional<std::string> port;     ///< the upstream port's address, when there is one
    std::vector<std::string> functions;  ///< in the inventory's order
    Status status = Status::pass;        ///< the worst of its functions' (warn, skip, pass)
    /// The verdict in words; when its functions disagree, each one's figures, named.
    std::string message;
    bool functions_agree = true;  ///< every function reports the same figures and verdict
};

/// The judged functions of `links` grouped by the link they share, in the order each link's
/// first function appears. Pure.
std::vector<PcieLinkGroup> group_pcie_links(const std::vector<PcieLink>& links);

/// What the pcie-link probe found.
struct PcieLinkFacts {
    std::vector<PcieLink> links;  ///< in the inventory's order
    /// The `pcie-link` check; nullopt when no function has a link to judge (no NVIDIA PCI
    /// function, or none with link attributes), so trees without them report as before.
    std::optional<Check> check;
};

/// The `pcie-link` check over `links` (all of a run's, or the ones a gate selected): one
/// verdict per link (group_pcie_links); warn when any link warns, else skip when any could not
/// be judged, else pass; each warning and skip named with its figures and its files. nullopt
/// when none of them was judged. Pure.
std::optional<Check> pcie_link_check(const std::vector<PcieLink>& links);

/// Reads the link attributes of every function in `inventory` through `fs`. Pure but for reads.
PcieLinkFacts read_pcie_links(const Fs& fs, const sysfs::DeviceInventory& inventory);

/// The report's `pcie_link` section: per function, the figures with their provenance, the
/// upstream port, the reach and the verdict; per link, its functions and its one verdict.
/// Pure.
json::Json pcie_link_json(const PcieLinkFacts& facts);

/// The probe: read_pcie_links over the system probe's inventory.
PcieLinkFacts probe_pcie_link(const ProbeContext& ctx, const sysfs::DeviceInventory& inventory);

}  // namespace rdmi
