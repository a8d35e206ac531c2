// Human text of the loopback verdict.
#include "report/loopback_text.hpp"

#include <cstdio>

#include "report/terminal_text.hpp"

namespace rdmi::text {
namespace {

Status as_status(StepOutcome outcome) {
    switch (outcome) {
        case StepOutcome::pass:
            return Status::pass;
        case StepOutcome::skip:
            return Status::skip;
        default:
            return Status::fail;
    }
}

std::string format(const char* pattern, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, pattern, value);  // NOLINT(cert-err33-c)
    return buf;
}

std::string label(StepOutcome outcome) {
    switch (outcome) {
        case StepOutcome::pass:
            return "PASS   ";
        case StepOutcome::fail:
            return "FAIL   ";
        case StepOutcome::skip:
            return "SKIP   ";
        case StepOutcome::timeout:
            return "TIMEOUT";
    }
    return "FAIL   ";
}

}  // namespace

std::string loopback(const TextStyle& style, const LoopbackVerdict& verdict) {
    // Quiet: the failed steps and what to do about them only, as in every human output.
    const bool quiet = style.verbosity < 0;
    std::string out;
    if (!quiet) {
        out = "DPA loopback, level " + std::to_string(verdict.level_requested);
        if (verdict.device)
            out += " on " + terminal_safe(verdict.device->ibdev) + " (" +
                   terminal_safe(verdict.device->pci_addr) + ")";
        out += "\n\n";
    }
    for (const auto& step : verdict.steps) {
        if (quiet && !is_problem(as_status(step.outcome))) continue;
        std::string line = paint(style, as_status(step.outcome), label(step.outcome)) + "  L" +
                           std::to_string(step.level) + " " + terminal_safe(step.id) + " " +
                           format("(%.1f ms)", step.duration_ms) + "  ";
        out += line + wrap(style, terminal_safe(step.message), 30, 4) + "\n";
    }
    if (verdict.result == Status::fail) {
        out += "\n";
        if (verdict.error) {
            out += "error: " + terminal_safe(verdict.error->name) + " from " +
                   terminal_safe(verdict.error->call) + ": " +
                   terminal_safe(verdict.error->description) + "\n";
        }
        if (verdict.layer) out += "layer: " + std::string(to_string(*verdict.layer)) + "\n";
        if (verdict.mismatch_offset)
            out += "first mismatch at byte " + std::to_string(*verdict.mismatch_offset) + "\n";
        out += "fix: " + wrap(style, terminal_safe(verdict.first_action), 5, 5) + "\n";
    }
    if (const auto& m = verdict.measurements; m && style.verbosity >= 0) {
        out += "\n" + std::to_string(m->bytes) + " bytes x " + std::to_string(m->iterations) +
               ": latency min " + format("%.1f", m->latency_min_us) + " / median " +
               format("%.1f", m->latency_median_us) + " / max " +
               format("%.1f", m->latency_max_us) + " us";
        if (m->bandwidth_mb_s) out += ", " + format("%.1f", *m->bandwidth_mb_s) + " MB/s";
        out += "\n";
    }
    if (const auto& s = verdict.selftest; s && (!quiet || is_problem(s->result))) {
        out += "\nlifecycle self-test (" + (s->objects.empty() ? "?" : terminal_safe(s->objects)) +
               "): " + paint(style, s->result, std::string(to_string(s->result))) + ": " +
               terminal_safe(s->message) + "\n";
    }
    if (!verdict.teardown.errors.empty()) {
        out += "\nteardown:\n";
        for (const auto& error : verdict.teardown.errors)
            out += "  " + wrap(style, terminal_safe(error), 2, 4) + "\n";
    }
    if (!verdict.notes.empty() && !quiet) {
        out += "\nnote:\n";
        for (const auto& note : verdict.notes)
            out += "  " + wrap(style, terminal_safe(note), 2, 4) + "\n";
    }
    if (!quiet) {
        std::string upper(to_string(verdict.result));
        for (auto& c : upper) c = static_cast<char>(c - 'a' + 'A');
        out += "\nResult: " + paint(style, verdict.result, upper) + " (" +
               terminal_safe(verdict.reason) + ")\n";
    }
    return out;
}

}  // namespace rdmi::text
