// version-matrix.json (docs/reference/structured-tools-contract.md#version-matrix): read from
// <prefix>/share only, validated
// against the contract's shape, and used to say which capabilities this install's version has.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "core/finding_catalog.hpp"
#include "core/version.hpp"
#include "probes/install/install.hpp"

namespace rdmi {

// Its catalog entry, declared before the check below makes its id from it.
namespace finding {

inline constexpr FindingInfo version_matrix{
    "version-matrix", "report (version-matrix probe)",
    "<prefix>/share/version-matrix.json is valid, and which capabilities this DOCA "
    "version has.",
    "Reinstall the DOCA package that ships share/version-matrix.json when it is "
    "malformed.",
    Purposes::both};

}  // namespace finding

/// The version-matrix probe's entries (its row lists them).
inline constexpr const FindingInfo* kVersionMatrixFindings[] = {&finding::version_matrix};

/// One entry of the matrix, and whether this install's version has it.
struct MatrixEntry {
    std::string library;
    std::string capability;
    std::string display_name;
    std::string min_doca_version;
    std::optional<std::string> max_doca_version;  ///< null: no upper bound
    std::string source_url;
    std::string source_quote;
    std::optional<bool> available;  ///< nullopt when the install's version is unknown
};

/// A matrix that passed validation.
struct VersionMatrix {
    std::string schema_version;
    std::string generated_at;
    std::vector<MatrixEntry> entries;
};

/// What the version_matrix probe found.
struct VersionMatrixFacts {
    std::string path;      ///< <prefix>/share/version-matrix.json, in-root
    bool present = false;  ///< the file exists (valid or not)
    std::optional<Gap>
        gap;  ///< absent (not_found), unreadable, or malformed (then nothing is used)
    std::optional<VersionMatrix> matrix;
    Sourced<std::string> install_version;  ///< the version entries are compared with
    Check check{finding::version_matrix, Status::info, "", "", {}};
};

/// Parses and validates matrix bytes against the contract's exact shape: every field present,
/// correctly typed, no other field, versions "M.m.p". A Gap (malformed) "<name>: <problem>",
/// the problem named by JSON pointer. Pure.
Result<VersionMatrix> parse_version_matrix(std::string_view bytes, std::string_view name);

/// min <= version <= max (max null: unbounded). Releases compare first; builds only when both
/// sides name one, so "3.3.0105" is within a max of "3.3.0".
bool entry_available(const MatrixEntry& entry, const DocaVersion& version);

/// Reads <prefix>/share/version-matrix.json through ctx.fs (no other path is ever tried) and
/// marks each entry available or not on the install's agreed DOCA version.
VersionMatrixFacts probe_version_matrix(const ProbeContext& ctx, const InstallFacts& install);

}  // namespace rdmi
