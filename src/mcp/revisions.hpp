// The MCP protocol revisions the server speaks, and what each one has.
#pragma once

#include <array>
#include <string_view>

namespace rdmi::mcp {

/// Every revision the server negotiates, newest first: the newest is offered to a client that
/// asks for one the server does not know (the specification's lifecycle rule).
inline constexpr std::array<std::string_view, 5> kRevisions{
    "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"};

/// Revisions compare as their date text does.
constexpr bool at_least(std::string_view revision, std::string_view since) {
    return revision >= since;
}

/// Tool output schemas and structuredContent, tool titles (since 2025-06-18).
constexpr bool has_structured_output(std::string_view revision) {
    return at_least(revision, "2025-06-18");
}

/// Tool annotations and the progress notification's message (since 2025-03-26).
constexpr bool has_annotations(std::string_view revision) {
    return at_least(revision, "2025-03-26");
}

/// JSON-RPC batches: added by 2025-03-26, removed again by 2025-06-18.
constexpr bool has_batches(std::string_view revision) {
    return revision == "2025-03-26";
}

/// The revision to answer `requested` with: itself when known, else the newest.
constexpr std::string_view negotiate(std::string_view requested) {
    for (const auto revision : kRevisions) {
        if (revision == requested) return revision;
    }
    return kRevisions.front();
}

}  // namespace rdmi::mcp
