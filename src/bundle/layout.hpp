// Where things are in a bundle: the names every writer and reader of bundles share.
#pragma once

#include <cstdint>

namespace rdmi::bundle {

/// The one top directory of the archive: extracted, it is the root to replay.
inline constexpr const char* kTopDir = "rdmi-probe-bundle";
/// The bundle's own documents, in-root (never a path a probe reads).
inline constexpr const char* kMetaDir = "/.rdmi-probe-bundle";
inline constexpr const char* kManifest = "/.rdmi-probe-bundle/manifest.json";
inline constexpr const char* kReport = "/.rdmi-probe-bundle/report.json";
inline constexpr const char* kCaptured = "/.rdmi-probe-bundle/captured.json";
/// The manifest's schema (schemas/rdmi-probe-bundle-manifest.schema.json) and its version; a
/// replay reads manifests of the same major version.
inline constexpr const char* kManifestSchema = "urn:rdmi-probe:schema:bundle-manifest";
inline constexpr const char* kManifestSchemaVersion = "1.1.0";

/// Extraction bounds (docs/gather.md): a bundle past any of them is refused.
inline constexpr std::uint64_t kMaxExtractBytes = std::uint64_t{256} << 20U;
inline constexpr std::uint64_t kMaxEntryBytes = std::uint64_t{64} << 20U;
inline constexpr std::uint64_t kMaxEntries = 200000;
inline constexpr int kMaxDepth = 48;
inline constexpr std::uint64_t kMaxPathBytes = 4096;

}  // namespace rdmi::bundle
