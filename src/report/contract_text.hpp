// Human text for the contract documents: what an engineer reads instead of the JSON.
#pragma once

#include <string>

#include "contract/document.hpp"
#include "report/contract_common.hpp"
#include "report/text_style.hpp"

namespace rdmi::text {

/// The document as text. The first line is "using structured rdmi-probe (path: <exe>)"; then
/// the facts, then every datum that came from a fallback and every field that is a placeholder.
std::string contract_document(const TextStyle& style, const contract::Document& doc,
                              const std::string& exe_path, const json::RunFacts& run);

}  // namespace rdmi::text
