// JSON building blocks for core types (provenance, gaps, sourced values, checks), shared by
// every emitter and by the report sections a probe gives its registry row.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string_view>

#include "core/check.hpp"

namespace rdmi::json {

using Json = nlohmann::ordered_json;

/// One member of an object built by object(); its value is moved out when the object is built.
struct Member {
    // NOLINTNEXTLINE(google-explicit-constructor): {"key", value} pairs are the point.
    Member(std::string_view name, Json content) : key(name), value(std::move(content)) {}
    std::string_view key;
    mutable Json value;
};

/// The object with `members`, in order. Prefer it to Json{{...}}: ordered_json keeps members in a
/// vector of pair<const string, json>, which cannot be moved, so every growth of that vector
/// deep-copies the members already in it; this builds the vector at its final size, with `room`
/// free slots for members added afterwards (such as an optional "gap").
Json object(std::initializer_list<Member> members, std::size_t room = 1);

/// The document as text, indented, with a trailing newline; invalid UTF-8 (a file name from a
/// broken tree) is replaced rather than thrown on.
std::string dump(const Json& document);
/// Receives a document piece by piece; false stops the writing (the reader went away).
using DocumentSink = std::function<bool(std::string_view)>;

/// dump()'s text handed to `sink` in pieces of about 64 KiB instead of held whole: no
/// document-sized string, grown by doubling, is built only to be written out. Stops at the
/// first piece `sink` refuses (returns false) and returns false.
bool dump_to(const Json& document, const DocumentSink& sink);
/// {"kind": ..., "ref": ...}
Json provenance(const Provenance& source);
/// {"reason": ..., "message": ...}
Json gap(const Gap& gap);
/// null for nullopt, else the gap object.
Json optional_gap(const std::optional<Gap>& maybe);
/// {"value": v|null, "source": {...}} plus "gap" when the value is missing.
Json sourced(const Sourced<std::string>& value);
/// {"id", "status", "message", "remediation" (null when empty), "sources": [...]}
Json check(const Check& check);
/// An array of checks.
Json checks(const std::vector<Check>& checks);
/// {"pass": n, "fail": n, "skip": n, "info": n}
Json status_counts(const StatusCounts& counts);

}  // namespace rdmi::json
