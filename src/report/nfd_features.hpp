// The report as a Node Feature Discovery local feature file (features.d): one `key=value` a
// line, every value a valid Kubernetes label value. The keys are an interface:
// docs/fleet.md#node-feature-discovery lists them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/facts.hpp"

namespace rdmi::nfd {

/// The namespace of every key this program writes.
inline constexpr std::string_view kPrefix = "rdmi.nvidia.com/";

/// Longest Kubernetes label value.
inline constexpr std::size_t kMaxLabelValue = 63;

/// Why `value` is not a Kubernetes label value, or nullopt when it is one: at most 63
/// characters of [A-Za-z0-9._-], starting and ending with a letter or digit. An empty value is
/// refused too: it would carry nothing. The reason is fixed text; it never quotes `value`.
std::optional<std::string_view> label_value_problem(std::string_view value);

/// The feature file: a header comment, then `rdmi.nvidia.com/<key>=<value>` lines; a key whose
/// value is unknown or not a label value is left out and a `#` comment line says why (never a
/// `# +` line, which NFD reads as a directive). Ends with a line feed. Pure.
std::string features(const Facts& facts);

}  // namespace rdmi::nfd
