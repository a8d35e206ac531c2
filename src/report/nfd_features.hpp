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

/// What the feature file says besides the facts.
struct FeatureFileOptions {
    /// The time NFD stops applying the labels ("2026-12-01T10:15:00Z", RFC 3339 in UTC),
    /// written as the `# +expiry-time=` directive before every key; nullopt writes none.
    std::optional<std::string> expiry_time;
};

/// The feature file: a header comment, the expiry directive when `options` asks for one, then
/// `rdmi.nvidia.com/<key>=<value>` lines; a key whose value is unknown or not a label value is
/// left out and a `#` comment line says why (never a `# +` line, which NFD reads as a
/// directive). Ends with a line feed. Pure. Throws std::invalid_argument when the expiry time
/// has a character no RFC 3339 UTC time has (it would end the directive's line).
std::string features(const Facts& facts, const FeatureFileOptions& options = {});

}  // namespace rdmi::nfd
