// The run's time stamp: the ISO-8601 UTC time a document says it was generated at, which
// SOURCE_DATE_EPOCH pins for reproducible documents.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "os/env.hpp"

namespace rdmi::cli {

/// SOURCE_DATE_EPOCH when it is a whole number of seconds from 1970 to the end of 9999 (the
/// years an ISO-8601 date can spell); anything else is ignored, as reproducible-builds tools do.
std::optional<long long> source_date_epoch(const Env& env);

/// The ISO-8601 UTC time of this run; SOURCE_DATE_EPOCH pins it for reproducible documents.
std::string generation_time(const Env& env);

/// The same for a given number of seconds since 1970 (0 to 253402300799).
std::string iso8601_utc(long long seconds);

/// The seconds since 1970 of a time stamp as iso8601_utc writes it ("2026-12-01T10:00:00Z");
/// nullopt for any other text, a date that does not exist included.
std::optional<long long> parse_iso8601_utc(std::string_view text);

/// The latest time iso8601_utc can write: 9999-12-31T23:59:59Z.
inline constexpr long long kLatestIso8601Seconds = 253402300799;

}  // namespace rdmi::cli
