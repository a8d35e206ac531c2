// A contract document under construction: the contract's own body plus what x_rdmi_probe says
// about it (provenance per field, gaps, fallbacks).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "core/check.hpp"

namespace rdmi::contract {

/// Ordered JSON, so that documents keep the contract's field order.
using Json = nlohmann::ordered_json;

/// A contract field whose value could not be had; the body holds the placeholder the contract
/// forces (null where allowed, else "" or 0) and this says why.
struct FieldGap {
    std::string pointer;  ///< JSON pointer into the body ("/devices/0/mtu")
    Gap gap;
};

/// A datum that came from a fallback instead of the source the contract's manual chain names.
struct Fallback {
    std::string pointer;  ///< JSON pointer into the body
    std::string primary;  ///< the contract's source ("flint -d 0000:03:00.0 q")
    std::string used;     ///< what was used instead ("sysfs fw_ver"), or "" when nothing was
    std::string note;     ///< one line for humans
};

/// One contract document: its kind, its body (exactly the contract's fields) and the facts
/// x_rdmi_probe reports about the body.
struct Document {
    std::string kind;       ///< "doca-env", "capability-snapshot", "collect-host-state", ...
    std::string schema_id;  ///< "urn:rdmi-probe:schema:doca-env", ...
    /// Room for every member up front: growing an ordered_json object deep-copies its members.
    Json body = [] {
        Json empty = Json::object();
        empty.get_ref<Json::object_t&>().reserve(24);
        return empty;
    }();
    std::vector<std::pair<std::string, Provenance>> provenance;  ///< pointer -> source
    std::vector<FieldGap> gaps;
    std::vector<Fallback> fallbacks;
    /// Facts the contract has no field for, written as members of x_rdmi_probe (after the
    /// fixed ones); `diff` compares them.
    Json extension = Json::object();

    /// Records where the value at `pointer` came from.
    void source(std::string pointer, Provenance from);
    /// Records why the value at `pointer` is a placeholder.
    void gap(std::string pointer, Gap why);
    /// Records that the value at `pointer` came from a fallback.
    void fallback(std::string pointer, std::string primary, std::string used, std::string note);
    /// Records a Sourced value's provenance and, when missing, its gap.
    template <typename T>
    void sourced(const std::string& pointer, const Sourced<T>& value) {
        source(pointer, value.source);
        if (!value.ok() && value.gap) gap(pointer, *value.gap);
    }
};

}  // namespace rdmi::contract
