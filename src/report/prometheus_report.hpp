// The report as Prometheus metrics in the text exposition format, for node_exporter's textfile
// collector. The metric names and labels are an interface: docs/fleet.md#metrics lists them.
#pragma once

#include <string>
#include <string_view>

#include "model/facts.hpp"

namespace rdmi::prometheus {

/// Longest probed value written as a label value; a longer one is not an identifier.
inline constexpr std::size_t kMaxLabelValue = 128;

/// `value` as the text format writes a label value: backslash, double quote and line feed
/// escaped (`\\`, `\"`, `\n`), everything else as it is.
std::string escape_label_value(std::string_view value);

/// Whether a probed identifier (check id, PCI address, rdma device name, library, version) may
/// become a label value: 1 to kMaxLabelValue printable ASCII characters. Anything else is not the
/// identifier the metric documents (a control character, another encoding, free text), so its
/// series is left out and a comment line says so.
bool usable_label_value(std::string_view value);

/// The report's metrics (docs/fleet.md#metrics): HELP and TYPE for each family with samples,
/// a `#` comment for each series left out and why, a final line feed. No timestamps, no host
/// name. Pure.
std::string report(const Facts& facts);

}  // namespace rdmi::prometheus
