// The `check` verdict as human text, JUnit XML and GitHub Actions annotations.
#pragma once

#include <string>
#include <string_view>

#include "check/evaluate.hpp"
#include "report/text_style.hpp"

namespace rdmi::gate {

/// One line per check ("FAIL  min-version  details", then "      fix: ..."), then the verdict;
/// labels coloured as `style` says; quiet (verbosity < 0): the failures and warnings only.
std::string gate_text(const GateReport& gate, const text::TextStyle& style = {});

/// JUnit XML: one <testcase> per check; fail → <failure>, skip → <skipped>, warn → a
/// `status` property and system-out (a <failure type="warn"> under fail_on_warn).
std::string gate_junit(const GateReport& gate);

/// GitHub Actions workflow commands: fail → ::error, skip and warn → ::warning (warn → ::error
/// under fail_on_warn), pass → a plain line; then the verdict line.
std::string gate_github(const GateReport& gate);

/// `text` with & < > " ' and CR escaped and characters XML 1.0 forbids replaced by U+FFFD; in an
/// `attribute` also LF and TAB, which XML would otherwise normalise to spaces.
std::string xml_escape(std::string_view text, bool attribute = false);

/// A workflow command's message: % \r \n escaped as GitHub requires, and every other control
/// or byte that is not UTF-8 shown as an escape (text::terminal_safe).
std::string github_escape_data(std::string_view text);

/// A workflow command's property value: also : and , escaped.
std::string github_escape_property(std::string_view text);

}  // namespace rdmi::gate
