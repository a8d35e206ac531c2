// A CI gate's requirements: from a policy file (JSON) and/or the command line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/purpose.hpp"
#include "core/result.hpp"
#include "core/version.hpp"

namespace rdmi::gate {

/// The policy file format's version; the only one this build reads.
inline constexpr int kPolicySchemaVersion = 1;
/// The policy schema's $id.
inline constexpr const char* kPolicySchemaId = "urn:rdmi-probe:schema:policy";

/// `NAME[OP VERSION]`: a pkg-config module that must be installed, optionally at a version.
struct ModuleRequirement {
    std::string name;
    std::string op;       ///< "", "=", "!=", "<", "<=", ">", ">="
    std::string version;  ///< empty when op is empty
};

/// Every requirement the gate evaluates; each one becomes one check.
struct Policy {
    std::optional<std::string> min_version;    ///< on the RDMI stack's matched version
    std::optional<std::string> max_version;    ///< idem
    std::optional<std::string> exact_version;  ///< idem
    std::vector<ModuleRequirement> modules;
    std::vector<std::string> symbols;  ///< exported by libdoca_rdmi
    std::vector<std::string> stable;   ///< exported and neither experimental nor deprecated
    std::string app;                   ///< application to audit; empty for none
    bool forbid_experimental = false;  ///< the app may call no unaccepted experimental name
    std::vector<std::string> allow_experimental;
    std::optional<std::string> device;  ///< "" = any device, else a PCI address or ibdev name
    bool require_dpa = false;
    bool require_port_active = false;
    bool require_consistent = false;
    /// The (required) device's PCIe links run at what card and slot can reach; a link below
    /// is a warning, not a failure (it costs bandwidth, RDMI still runs).
    bool require_pcie_link = false;
    /// The judged install files have the digest their package recorded (md5 for dpkg, SHA-256 for
    /// rpm; install-integrity).
    bool require_integrity = false;
    /// The policy file's "for": the purposes of its requirements that a run judges (the
    /// command line's --for overrides it; flags are judged whatever it says).
    std::optional<Purposes> for_purposes;
    /// Version sources (kWaivableSources names) left out of the consistency match for this
    /// run, in the order given; only with require_consistent.
    std::vector<std::string> waive_sources;

    /// True when there is nothing to check.
    [[nodiscard]] bool empty() const;
};

/// Parses "doca-verbs>=3.2", "doca-rdmi = 3.3.0", "doca-dpa". A malformed Gap says what is wrong.
Result<ModuleRequirement> parse_module_requirement(std::string_view text);

/// Whether `name` is a source a waiver may name; a malformed Gap lists the names that are.
Result<bool> check_waived_source(std::string_view name);

/// Parses a gate version ("3.2" = 3.2.0, "3.3.0", "3.3.0105"); a malformed Gap otherwise.
Result<DocaVersion> parse_gate_version(std::string_view text);

/// Parses a policy file's bytes (at most json_input::kPolicy.max_bytes of them: the caller
/// reads no more). The Gap (malformed) names `path` and either the line and column of a syntax
/// error or the JSON pointer of the offending value, and says what is wrong.
Result<Policy> parse_policy(std::string_view bytes, std::string_view path);

/// Drops the requirements of `policy` whose check answers none of `wanted` (docs/report.md, "Run
/// and build"): what `check --for` does to a policy file's set, never to the flags'.
void keep_purposes(Policy& policy, Purposes wanted);

/// Adds `extra` (the command line's requirements) to `base`.
void merge_policy(Policy& base, const Policy& extra);

}  // namespace rdmi::gate
