// The run's time stamp: the ISO-8601 UTC time a document says it was generated at, which
// SOURCE_DATE_EPOCH pins for reproducible documents.
#pragma once

#include <optional>
#include <string>

#include "os/env.hpp"

namespace rdmi::cli {

/// SOURCE_DATE_EPOCH when it is a whole number of seconds from 1970 to the end of 9999 (the
/// years an ISO-8601 date can spell); anything else is ignored, as reproducible-builds tools do.
std::optional<long long> source_date_epoch(const Env& env);

/// The ISO-8601 UTC time of this run; SOURCE_DATE_EPOCH pins it for reproducible documents.
std::string generation_time(const Env& env);

/// The same for a given number of seconds since 1970 (0 to 253402300799).
std::string iso8601_utc(long long seconds);

}  // namespace rdmi::cli
