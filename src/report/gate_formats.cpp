// The `check` verdict's non-JSON renderings. Each is complete text: the CI tool parses it whole.
#include "report/gate_formats.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "report/terminal_text.hpp"
#include "report/text_style.hpp"

namespace rdmi::gate {
namespace {

// Warnings are counted only when there are some: a gate without them reads as it always did.
std::string tally(const GateReport& gate) {
    const auto counts = count_statuses(gate.checks);
    return std::to_string(counts.fail) + " failed, " + std::to_string(counts.skip) + " skipped, " +
           std::to_string(counts.pass) + " passed" +
           (counts.warn > 0
                ? ", " + std::to_string(counts.warn) +
                      (gate.fail_on_warn ? " warned (failing: --fail-on-warn)" : " warned")
                : "");
}

// A warning that --fail-on-warn turned into a failure is shown as one by the CI formats.
bool fails(const GateReport& gate, const Check& c) {
    return contract_status(c.status, gate.fail_on_warn) == Status::fail;
}

// "Waited 1.204 s of --wait 5 s: 3 evaluations, the last one is the result."
std::string wait_line(const GateWait& wait) {
    std::array<char, 160> buf{};
    std::snprintf(buf.data(), buf.size(),  // NOLINT(cert-err33-c)
                  "Waited %.3f s of --wait %g s: %zu evaluation%s, the last one is the result",
                  wait.waited_s, wait.wait_s, wait.evaluations, wait.evaluations == 1 ? "" : "s");
    return buf.data();
}

}  // namespace

std::string gate_text(const GateReport& gate, const text::TextStyle& style) {
    std::string out;
    const bool quiet = style.verbosity < 0;
    // A fix is printed once, at the first check shown that needs it: with no DOCA, four
    // requirements would otherwise print "install the DOCA SDK" four times.
    std::map<std::string, std::string> fixed_by;  // fix text -> the check id it was printed at
    for (const auto& c : gate.checks) {
        if (quiet && !fails(gate, c) && !text::is_problem(c.status)) continue;
        out += text::paint(style, c.status, text::status_label(c.status)) + "  " +
               text::terminal_safe(c.id.str()) + "  " + text::terminal_safe(c.message) + "\n";
        if (c.status == Status::pass || c.remediation.empty()) continue;
        const auto [first, inserted] = fixed_by.emplace(c.remediation, c.id.str());
        out += inserted ? "      fix: " + text::terminal_safe(c.remediation) + "\n"
                        : "      fix: as for " + text::terminal_safe(first->second) + " above\n";
    }
    // Quiet is failures and warnings only, as in the report: the exit code carries the verdict.
    if (!quiet) {
        out += "Result: " + text::paint(style, gate.result, text::status_label(gate.result)) +
               " (" + tally(gate) + ")\n";
        if (gate.wait) out += wait_line(*gate.wait) + "\n";
    }
    return out;
}

std::string xml_escape(std::string_view text, bool attribute) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            case '\r':
                out += "&#13;";
                break;
            case '\n':
                out += attribute ? "&#10;" : "\n";
                break;
            case '\t':
                out += attribute ? "&#9;" : "\t";
                break;
            default:
                if (c >= 0x20 && c < 0x80) {
                    out += ch;
                    break;
                }
                // XML 1.0 has no way to write other C0 controls, not even as references; a
                // byte that is not UTF-8 (a file name from a hostile tree) would make the whole
                // document unreadable, and U+FFFE and U+FFFF are not XML characters either.
                std::uint32_t cp = 0;
                const std::size_t length = c < 0x20 ? 0 : text::utf8_sequence(text, i, cp);
                if (length == 0) {
                    out += "\xEF\xBF\xBD";
                    break;
                }
                if (cp == 0xfffe || cp == 0xffff) {
                    out += "\xEF\xBF\xBD";
                } else {
                    out.append(text.substr(i, length));
                }
                i += length - 1;
        }
    }
    return out;
}

std::string gate_junit(const GateReport& gate) {
    const auto counts = count_statuses(gate.checks);
    const int failures = counts.fail + (gate.fail_on_warn ? counts.warn : 0);
    const std::string totals = " tests=\"" + std::to_string(gate.checks.size()) + "\" failures=\"" +
                               std::to_string(failures) + "\" errors=\"0\"" + " skipped=\"" +
                               std::to_string(counts.skip) + "\"";
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<testsuites name=\"rdmi-probe check\"" + totals + ">\n";
    out += "  <testsuite name=\"doca-rdmi\"" + totals + ">\n";
    out += "    <properties>\n      <property name=\"spec_path\" value=\"" +
           xml_escape(gate.spec_path, true) + "\"/>\n      <property name=\"result\" value=\"" +
           std::string(to_string(gate.result)) + "\"/>\n    </properties>\n";
    for (const auto& c : gate.checks) {
        out += "    <testcase classname=\"rdmi-probe.check\" name=\"" +
               xml_escape(c.id.str(), true) + "\"";
        const std::string body =
            c.message + (c.remediation.empty() ? "" : "\nfix: " + c.remediation);
        if (fails(gate, c)) {
            out += ">\n      <failure type=\"" + std::string(to_string(c.status)) +
                   "\" message=\"" + xml_escape(c.message, true) + "\">" + xml_escape(body) +
                   "</failure>\n    </testcase>\n";
        } else if (c.status == Status::warn) {
            // JUnit has no warning: a <failure> would fail the build the gate passed, and
            // <skipped> would say it was not checked. The status rides in a property (as
            // pytest's record_property writes them) and the message in system-out.
            out +=
                ">\n      <properties>\n        <property name=\"status\" value=\"warn\"/>\n"
                "      </properties>\n      <system-out>warning: " +
                xml_escape(body) + "</system-out>\n    </testcase>\n";
        } else if (c.status == Status::skip) {
            out += ">\n      <skipped message=\"" + xml_escape(c.message, true) +
                   "\"/>\n      <system-out>" + xml_escape(body) +
                   "</system-out>\n    </testcase>\n";
        } else {
            out += ">\n      <system-out>" + xml_escape(body) + "</system-out>\n    </testcase>\n";
        }
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

std::string github_escape_data(std::string_view text) {
    std::string out;
    // The runner's log is shown on terminals too: what lies between the escaped line breaks is
    // made terminal-safe (ESC, BEL, C1, bidi overrides, bytes that are not UTF-8 become visible).
    std::size_t start = 0;
    const auto flush = [&](std::size_t end) {
        for (const char ch : text::terminal_safe(text.substr(start, end - start))) {
            if (ch == '%') {
                out += "%25";
            } else {
                out += ch;
            }
        }
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r' && text[i] != '\n') continue;
        flush(i);
        out += text[i] == '\r' ? "%0D" : "%0A";
        start = i + 1;
    }
    flush(text.size());
    return out;
}

std::string github_escape_property(std::string_view text) {
    std::string out;
    for (char ch : github_escape_data(text)) {
        if (ch == ':') {
            out += "%3A";
        } else if (ch == ',') {
            out += "%2C";
        } else {
            out += ch;
        }
    }
    return out;
}

std::string gate_github(const GateReport& gate) {
    std::string out;
    for (const auto& c : gate.checks) {
        const std::string message =
            c.message + (c.remediation.empty() ? "" : "\nfix: " + c.remediation);
        if (c.status == Status::fail || c.status == Status::skip || c.status == Status::warn) {
            out += std::string(fails(gate, c) ? "::error" : "::warning") +
                   " title=" + github_escape_property("rdmi-probe check: " + c.id.str()) +
                   "::" + github_escape_data(message) + "\n";
        } else {
            // Not a command: a line starting "::" would be one, so escape only newlines.
            out += "pass " + c.id.str() + ": " + github_escape_data(c.message) + "\n";
        }
    }
    out += "rdmi-probe check: " + std::string(to_string(gate.result)) + " (" + tally(gate) + ")\n";
    return out;
}

}  // namespace rdmi::gate
