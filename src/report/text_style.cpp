// Human text rendering of checks.
#include "report/text_style.hpp"

#include <algorithm>
#include <array>

#include "model/facts.hpp"
#include "report/terminal_text.hpp"

namespace rdmi::text {
namespace {

constexpr std::size_t kIdColumn = 6;
constexpr std::size_t kMessageColumn = 28;

int rank(Status status) {
    switch (status) {
        case Status::fail:
            return 0;
        case Status::skip:
            return 1;
        case Status::warn:
            return 2;
        case Status::pass:
            return 3;
        case Status::info:
            return 4;
    }
    return 4;
}

}  // namespace

bool is_problem(Status status) {
    return status == Status::fail || status == Status::warn;
}

std::string_view status_label(Status status) {
    switch (status) {
        case Status::pass:
            return "PASS";
        case Status::fail:
            return "FAIL";
        case Status::skip:
            return "SKIP";
        case Status::info:
            return "INFO";
        case Status::warn:
            return "WARN";
    }
    return "INFO";
}

std::string paint(const TextStyle& style, Status status, std::string_view text) {
    if (!style.color) return std::string(text);
    std::string_view code = "\033[34m";
    if (status == Status::pass) code = "\033[32m";
    if (status == Status::fail) code = "\033[1;31m";
    if (status == Status::skip) code = "\033[33m";
    if (status == Status::warn) code = "\033[35m";
    return std::string(code) + std::string(text) + "\033[0m";
}

std::string wrap(const TextStyle& style, std::string_view text, std::size_t first_column,
                 std::size_t indent) {
    std::string out;
    std::size_t column = first_column;
    bool line_start = true;
    while (!text.empty()) {
        const auto space = text.find(' ');
        const std::string_view word = text.substr(0, space);
        text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
        if (!line_start && column + 1 + word.size() > style.width) {
            out += '\n';
            out.append(indent, ' ');
            column = indent;
            line_start = true;
        }
        if (!line_start) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        line_start = false;
    }
    return out;
}

std::string render_check(const TextStyle& style, const Check& check, std::size_t plan_step,
                         PurposeTag tag) {
    // Messages carry probed strings (device names, versions, paths): a line feed in one must
    // not start a line that looks like another check.
    std::string id = terminal_safe(check.id.str());
    if (tag == PurposeTag::shown) id += " [" + purposes_text(check.id.info().purposes) + "]";
    std::string line = paint(style, check.status, status_label(check.status));
    line.append(kIdColumn - status_label(check.status).size(), ' ');
    line += id;
    std::size_t column = kIdColumn + id.size();
    if (column + 2 > kMessageColumn) {
        line += "  ";
        column += 2;
    } else {
        line.append(kMessageColumn - column, ' ');
        column = kMessageColumn;
    }
    const std::string message = terminal_safe(check.message);
    // A first word that does not fit after a long id (a library's path) starts the message on
    // the next line, under the id, where the whole message then continues.
    if (column + message.substr(0, message.find(' ')).size() > style.width) {
        line.resize(line.find_last_not_of(' ') + 1);
        line += "\n" + std::string(kIdColumn, ' ') + wrap(style, message, kIdColumn, kIdColumn);
    } else {
        line += wrap(style, message, column, kMessageColumn);
    }
    line += "\n";
    if (!check.remediation.empty() &&
        (check.status == Status::fail || check.status == Status::skip ||
         check.status == Status::warn || style.verbosity > 0)) {
        line.append(kIdColumn, ' ');
        // A fix is often a command to paste: not wrapped at the message column; only past the
        // terminal's width does the document's fit (text/fit_width.hpp) continue it under its
        // text. One that the plan carries is printed there once (a cause that fails ten checks
        // would print it ten times here).
        line += plan_step > 0 ? "fix: step " + std::to_string(plan_step) + "\n"
                              : "fix: " + terminal_safe(check.remediation) + "\n";
    }
    if (style.verbosity > 0) {
        for (const auto& source : check.sources) {
            line.append(kIdColumn, ' ');
            line += "from: " + terminal_safe(source.kind) + " " + terminal_safe(source.ref) + "\n";
        }
    }
    return line;
}

std::string render_checks(const TextStyle& style, const std::vector<Check>& checks,
                          const std::vector<FixStep>* plan, PurposeTag tag) {
    std::vector<const Check*> ordered;
    for (const auto& check : checks) {
        if (style.verbosity < 0 && !is_problem(check.status)) continue;
        ordered.push_back(&check);
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Check* a, const Check* b) {
        return rank(a->status) < rank(b->status);
    });
    std::string out;
    for (const Check* check : ordered)
        out += render_check(style, *check, plan != nullptr ? step_number(*plan, *check) : 0, tag);
    return out;
}

std::string render_verdict(const TextStyle& style, const std::vector<Check>& checks) {
    const auto counts = count_statuses(checks);
    const Status overall = overall_status(checks);
    std::string word = std::string(status_label(overall));
    return "Result: " + paint(style, overall, word) + " (" + std::to_string(counts.fail) +
           " failed, " + std::to_string(counts.skip) + " skipped, " + std::to_string(counts.pass) +
           " passed, " + std::to_string(counts.info) + " info" +
           (counts.warn > 0 ? ", " + std::to_string(counts.warn) + " warned" : "") + ")\n";
}

}  // namespace rdmi::text
