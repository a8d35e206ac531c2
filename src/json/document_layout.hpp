// How a streamed document (json::dump_to, the report's writer) is laid out: indented for a
// reader unless the process says otherwise. Apart from json_common.hpp, which most of the tree
// includes, so that the one process that changes it (a forked MCP call) is the one that knows.
#pragma once

namespace rdmi::json {

enum class DocumentLayout {
    indented,  ///< two spaces a level, as json::dump(): for a reader (the default)
    compact,   ///< no whitespace between tokens, as nlohmann's dump(-1)
};

/// Sets json::dump_to()'s layout for the rest of this process. A forked MCP call's child asks
/// for compact: the server answers with the compact form whatever it reads
/// (mcp/compact_document), and 40% of an indented report is indentation, written, piped and
/// stripped again.
void set_streamed_layout(DocumentLayout layout);

/// The layout set_streamed_layout() last chose.
DocumentLayout streamed_layout();

}  // namespace rdmi::json
