// The dpkg status parser: deb822 stanzas (RFC 822-like fields, continuation lines starting with
// a space or tab, stanzas separated by blank lines), as deb-control(5) and dpkg(1) describe.
#include "packages/dpkg_status.hpp"

#include <optional>

#include "text/text.hpp"

namespace rdmi {
namespace {

struct Field {
    std::string_view name;
    std::string value;  ///< the first line's value, then each continuation line after a '\n'
};

struct Stanza {
    std::size_t first_line = 0;
    std::vector<Field> fields;
    std::optional<std::string> problem;
};

const Field* find_field(const Stanza& stanza, std::string_view name) {
    for (const auto& field : stanza.fields) {
        if (field.name.size() != name.size()) continue;
        bool same = true;
        // deb822 field names are case-insensitive.
        for (std::size_t i = 0; i < name.size() && same; ++i) {
            same = (field.name[i] | 0x20) == (name[i] | 0x20);
        }
        if (same) return &field;
    }
    return nullptr;
}

bool alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A word dpkg itself accepts: an alphanumeric first, then alphanumerics or `also` (dpkg's
// pkg_name_is_illegal() for names, "-+._"; dpkg_arch_name_is_illegal() for architectures, "-").
// A name or architecture goes into the reinstall command a fix prints for root to run: a shell
// metacharacter or a control byte there is no record dpkg wrote.
bool dpkg_word(std::string_view word, std::string_view also) {
    if (word.empty() || !alnum(word.front())) return false;
    for (const char c : word) {
        if (!alnum(c) && also.find(c) == std::string_view::npos) return false;
    }
    return true;
}

// A version as deb-version(7) spells one: [epoch:]upstream[-revision], of alphanumerics and
// ".+~-:" (dpkg refuses anything else when it parses the status file).
bool dpkg_version(std::string_view version) {
    if (version.empty() || (!alnum(version.front()) && version.front() != '~')) return false;
    for (const char c : version) {
        if (!alnum(c) && std::string_view(".+~-:").find(c) == std::string_view::npos) return false;
    }
    return true;
}

std::optional<DpkgStatusEntry> to_entry(const Stanza& stanza, std::string& problem) {
    const Field* package = find_field(stanza, "Package");
    const Field* status = find_field(stanza, "Status");
    if (package == nullptr || trim(package->value).empty()) {
        problem = "no Package field";
        return std::nullopt;
    }
    DpkgStatusEntry entry;
    entry.name = std::string(trim(package->value));
    if (!dpkg_word(entry.name, "-+._")) {
        problem = "Package '" + entry.name.substr(0, 64) + "' is not a package name";
        return std::nullopt;
    }
    if (status == nullptr) {
        problem = "package " + entry.name + " has no Status field";
        return std::nullopt;
    }
    const auto words = split_items(status->value, " \t");
    if (words.size() != 3) {
        problem = "package " + entry.name + ": Status '" + status->value.substr(0, 64) +
                  "' is not three words";
        return std::nullopt;
    }
    entry.want = std::string(words[0]);
    if (words[1] != "ok") entry.want += " (" + std::string(words[1]) + ")";
    entry.state = std::string(words[2]);
    if (const Field* version = find_field(stanza, "Version")) {
        entry.version = std::string(trim(version->value));
        if (!dpkg_version(entry.version)) {
            problem = "package " + entry.name + ": Version '" + entry.version.substr(0, 64) +
                      "' is not a dpkg version";
            return std::nullopt;
        }
    }
    if (const Field* arch = find_field(stanza, "Architecture")) {
        entry.architecture = std::string(trim(arch->value));
        if (!dpkg_word(entry.architecture, "-")) {
            problem = "package " + entry.name + ": Architecture '" +
                      entry.architecture.substr(0, 64) + "' is not an architecture name";
            return std::nullopt;
        }
    }
    if (const Field* multi = find_field(stanza, "Multi-Arch"))
        entry.multi_arch_same = trim(multi->value) == "same";
    if (const Field* conffiles = find_field(stanza, "Conffiles")) {
        for (const auto line : split_lines(conffiles->value)) {
            const auto items = split_items(line, " \t");
            // " /etc/x 0123...abcdef" or with a trailing "obsolete"/"remove-on-upgrade" flag.
            if (items.size() < 2 || !items[0].starts_with('/')) continue;
            if (items[1] == "newconffile") continue;
            if (items.size() > 2 && items[2] == "obsolete") continue;
            entry.conffiles.emplace_back(std::string(items[0]), std::string(items[1]));
        }
    }
    return entry;
}

}  // namespace

bool DpkgStatusEntry::installed() const {
    return state == "installed" && (want == "install" || want == "hold");
}

bool DpkgStatusEntry::has_files() const {
    return state == "installed" || state == "half-installed" || state == "unpacked" ||
           state == "half-configured" || state == "triggers-awaited" || state == "triggers-pending";
}

Result<DpkgStatus> parse_dpkg_status(std::string_view text, std::string_view path,
                                     const DpkgStatusLimits& limits, const Deadline* deadline) {
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        return make_gap(GapReason::malformed, std::string(path) + ": a NUL byte at offset " +
                                                  std::to_string(nul) + "; not a dpkg status file");
    }
    DpkgStatus out;
    std::size_t skipped = 0;
    Stanza stanza;
    bool open = false;
    auto close = [&]() -> bool {
        if (!open) return true;
        open = false;
        std::string problem = stanza.problem.value_or("");
        std::optional<DpkgStatusEntry> entry;
        if (problem.empty()) entry = to_entry(stanza, problem);
        if (entry) {
            out.packages.push_back(std::move(*entry));
        } else {
            ++skipped;
            if (out.problems.size() < limits.max_problems) {
                out.problems.push_back("stanza at line " + std::to_string(stanza.first_line) +
                                       ": " + problem);
            }
        }
        stanza = Stanza{};
        return out.packages.size() + skipped <= limits.max_packages;
    };
    // One line at a time: a vector of every line would be 16 bytes per line, a gigabyte for a
    // status file of blank lines under the size cap.
    std::string_view rest = text;
    for (std::size_t i = 0; !rest.empty(); ++i) {
        const auto end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        if (deadline != nullptr && i % 65536 == 0 && deadline->expired()) {
            return make_gap(GapReason::timeout, std::string(path) +
                                                    ": the deadline passed at line " +
                                                    std::to_string(i + 1) + "; not read");
        }
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (trim(line).empty()) {
            if (!close()) break;
            continue;
        }
        if (!open) {
            open = true;
            stanza.first_line = i + 1;
        }
        if (stanza.problem) continue;  // the rest of a stanza already judged broken
        if (line.front() == ' ' || line.front() == '\t') {
            if (stanza.fields.empty()) {
                stanza.problem = "a continuation line before any field";
                continue;
            }
            auto& value = stanza.fields.back().value;
            if (value.size() + line.size() + 1 > limits.max_field_bytes) {
                stanza.problem = "field " + std::string(stanza.fields.back().name) + " is over " +
                                 std::to_string(limits.max_field_bytes) + " bytes";
                continue;
            }
            value += '\n';
            value += trim(line);
            continue;
        }
        const auto colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0 ||
            line.substr(0, colon).find_first_of(" \t") != std::string_view::npos) {
            stanza.problem = "line " + std::to_string(i + 1) + " is not 'Field: value'";
            continue;
        }
        if (line.size() > limits.max_field_bytes) {
            stanza.problem = "line " + std::to_string(i + 1) + " is over " +
                             std::to_string(limits.max_field_bytes) + " bytes";
            continue;
        }
        stanza.fields.push_back(
            Field{line.substr(0, colon), std::string(trim(line.substr(colon + 1)))});
    }
    if (out.packages.size() + skipped > limits.max_packages || !close()) {
        return make_gap(GapReason::malformed, std::string(path) + ": more than " +
                                                  std::to_string(limits.max_packages) +
                                                  " package stanzas; not read");
    }
    if (skipped > limits.max_problems) {
        out.problems.push_back(std::to_string(skipped - limits.max_problems) +
                               " more stanzas skipped");
    }
    return out;
}

}  // namespace rdmi
