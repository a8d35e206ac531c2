// The option table and what is read from it: each command's options and its MCP input schema.
#include "cli/option_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

#include "core/consistency_rule.hpp"
#include "probes/install/version_consistency.hpp"
#include "probes/loopback/loopback.hpp"

namespace rdmi::cli {
namespace {

using Names = std::vector<std::string>;

constexpr std::array<std::string_view, 11> kCommandNames{
    "report", "loopback", "symbols", "env",    "caps",  "state",
    "schema", "diff",     "check",   "gather", "error",
};

constexpr std::array kHelperNames{
    HelperName{"doca-env", "env", ""},
    HelperName{"doca-capability-snapshot", "caps", ""},
    HelperName{"doca-collect-host-state", "state", "--side=host"},
    HelperName{"doca-collect-dpu-state", "state", "--side=dpu"},
    HelperName{"doca-validate", "check", ""},
};

// Every command that writes a JSON document on stdout; gather's is a bundle.
Names json_document_commands() {
    return {"report", "loopback", "symbols", "env",   "caps",
            "state",  "schema",   "diff",    "check", "error"};
}

std::vector<OptionSpec> global_table() {
    std::vector<OptionSpec> t;
    t.push_back({.name = "--json",
                 .kind = ValueKind::flag,
                 .help = "machine output on stdout (nothing else on stdout)",
                 .global = true,
                 .exposure = Exposure::cli_only});
    t.push_back({.name = "--output",
                 .kind = ValueKind::file,
                 .placeholder = "FILE",
                 .help = "write the document to FILE (atomically) instead of stdout",
                 .global = true,
                 .exposure = Exposure::cli_only});
    t.push_back({.name = "--root",
                 .kind = ValueKind::root,
                 .placeholder = "DIR",
                 .help = "probe a mounted root file system (any --root, / included, is static: "
                         "nothing is loaded or run; without --root the probe is live)",
                 .default_value = "/",
                 .help_shows_default = true,
                 .global = true});
    t.push_back({.name = "--doca-prefix",
                 .kind = ValueKind::directory,
                 .placeholder = "DIR",
                 .help = "where DOCA is installed (default: doca-common's pkg-config prefix, then "
                         "/opt/mellanox/doca)",
                 .global = true});
    t.push_back({.name = "--timeout",
                 .kind = ValueKind::seconds,
                 .placeholder = "SECONDS",
                 .minimum = 0.001,
                 .maximum = 3600.0,
                 .help = "bound on the whole run (a run still going 1 s later is ended, exit 2) "
                         "and on each external call, in seconds",
                 .default_value = "10",
                 .help_shows_default = true,
                 .global = true});
    t.push_back({.name = "--verbose",
                 .short_name = "-v",
                 .kind = ValueKind::flag,
                 .help = "more detail (repeat for debug logs on stderr)",
                 .global = true,
                 .repeatable = true,
                 .exposure = Exposure::cli_only});
    t.push_back({.name = "--quiet",
                 .short_name = "-q",
                 .kind = ValueKind::flag,
                 .help = "human output: only failures and warnings, nothing when there are none "
                         "(JSON unchanged); logs only errors",
                 .global = true,
                 .exposure = Exposure::cli_only});
    t.push_back({.name = "--color",
                 .kind = ValueKind::choice,
                 .placeholder = "WHEN",
                 .choices = {"auto", "always", "never"},
                 .help = "colour the human output: auto, always or never (NO_COLOR is honoured)",
                 .default_value = "auto",
                 .help_shows_default = true,
                 .global = true,
                 .exposure = Exposure::cli_only});
    t.push_back({.name = "--allow-untrusted-libs",
                 .kind = ValueKind::flag,
                 .help = "load libraries and run tools from paths other users could write "
                         "(logged loudly)",
                 .global = true,
                 .exposure = Exposure::server_policy});
    t.push_back({.name = "--allow-foreign-links",
                 .kind = ValueKind::flag,
                 .help = "as root, read through symbolic links owned by another user than root "
                         "and the target's owner (each logged loudly)",
                 .global = true,
                 .exposure = Exposure::server_policy});
    t.push_back({.name = "--no-landlock",
                 .kind = ValueKind::flag,
                 .help = "run the children that load vendor libraries and run tools without "
                         "Landlock (they keep no_new_privs and the capability drop; logged "
                         "loudly): for a node where the ruleset proves too tight",
                 .global = true,
                 .exposure = Exposure::server_policy});
    t.push_back({.name = "--no-syscall-filter",
                 .kind = ValueKind::flag,
                 .help = "run the children that load vendor libraries and run tools without the "
                         "system call filter (they keep no_new_privs, the capability drop and "
                         "Landlock; logged loudly): for a node where a vendor call needs what "
                         "the filter refuses",
                 .global = true,
                 .exposure = Exposure::server_policy});
    t.push_back({.name = "--field",
                 .kind = ValueKind::json_pointer,
                 .placeholder = "POINTER",
                 .help = "print only the value at this RFC 6901 JSON pointer into the JSON "
                         "document (strings raw, other values as JSON), one a line, in the "
                         "order given; implies --json (repeatable)",
                 .global = true,
                 .commands = json_document_commands(),
                 .repeatable = true,
                 .exposure = Exposure::cli_only});
    return t;
}

void add_report(std::vector<OptionSpec>& t) {
    t.push_back({.name = "--format",
                 .kind = ValueKind::choice,
                 .placeholder = "TEXT",
                 .choices = {"text", "json", "prometheus", "nfd"},
                 .help = "text (default), json (the same as --json), prometheus (node_exporter "
                         "textfile collector) or nfd (Node Feature Discovery feature file); "
                         "--json with another format is a usage error",
                 .default_value = "text",
                 .commands = {"report"},
                 .exposure = Exposure::cli_only});
    t.push_back({.name = "--integrity",
                 .kind = ValueKind::flag,
                 .help = "also compare the DOCA headers, libraries, .pc files and tools with the "
                         "digest their package recorded (check install-integrity; reads the "
                         "package database, and hashes each file within --timeout)",
                 .commands = {"report"}});
    t.push_back({.name = "--for",
                 .kind = ValueKind::choice,
                 .placeholder = "TEXT",
                 .choices = {"run", "build", "all"},
                 .help = "the question the verdict answers: run (an installed RDMI application "
                         "can run here), build (one and its DPA kernels can be built here) or "
                         "all (default); the checks, result and exit code are those of its "
                         "checks; text and json only (prometheus and nfd carry both)",
                 .default_value = "all",
                 .commands = {"report"}});
    t.push_back({.name = "--nfd-expiry",
                 .kind = ValueKind::duration,
                 .placeholder = "DURATION",
                 .minimum = 1,
                 .maximum = 365.0 * 86400,
                 .help = "with --format nfd: write Node Feature Discovery's expiry-time "
                         "directive, DURATION (90s, 15m, 2h, 1d; at most 365d) after the run's "
                         "time (SOURCE_DATE_EPOCH when set), so that the labels go stale when "
                         "the probe stops running",
                 .commands = {"report"},
                 .exposure = Exposure::cli_only});
    // One row for the four commands that judge devices: check has --require-device and
    // loopback its own single --device.
    t.push_back({.name = "--device",
                 .short_name = "-d",
                 .kind = ValueKind::device,
                 .placeholder = "NAME|PCI",
                 .help =
                     "judge only this function (an RDMA device like mlx5_0, a PCI address, "
                     "a netdev); the others are listed as not examined, install checks are "
                     "unchanged (repeatable; report refuses it with --format prometheus or nfd)",
                 .commands = {"report", "env", "caps", "state"},
                 .repeatable = true});
}

void add_loopback(std::vector<OptionSpec>& t) {
    t.push_back({.name = "--level",
                 .kind = ValueKind::integer,
                 .placeholder = "INT",
                 .minimum = 0,
                 .maximum = kLoopbackMaxLevel,
                 .help = "stop after level N: 0 static, 1 device + DPA context, 2 empty kernel, "
                         "3 loopback write",
                 .default_value = "3",
                 .help_shows_default = true,
                 .commands = {"loopback"}});
    t.push_back({.name = "--device",
                 .kind = ValueKind::device,
                 .placeholder = "TEXT",
                 .help = "PCI address or ibdev name (default: the first DPA-capable PF)",
                 .commands = {"loopback"}});
    t.push_back({.name = "--bytes",
                 .kind = ValueKind::integer,
                 .placeholder = "UINT",
                 .minimum = 1,
                 .maximum = static_cast<double>(kLoopbackMaxBytes),
                 .help = "bytes to write",
                 .default_value = "4096",
                 .help_shows_default = true,
                 .commands = {"loopback"}});
    t.push_back({.name = "--iterations",
                 .kind = ValueKind::integer,
                 .placeholder = "INT",
                 .minimum = 1,
                 .maximum = kLoopbackMaxIterations,
                 .help = "kernel launches; reports min/median/max latency and bandwidth",
                 .default_value = "1",
                 .help_shows_default = true,
                 .commands = {"loopback"}});
    t.push_back({.name = "--lifecycle-selftest",
                 .kind = ValueKind::flag,
                 .help = "attach a completion after start on disposable objects; expect "
                         "DOCA_ERROR_BAD_STATE",
                 .commands = {"loopback"}});
    // A tool call reads; a trace is a file written wherever the path says.
    t.push_back({.name = "--trace",
                 .kind = ValueKind::file,
                 .placeholder = "FILE",
                 .help = "write every DOCA call (arguments, return value, error name, time, "
                         "thread) to FILE as JSON lines, as it returns",
                 .commands = {"loopback"},
                 .exposure = Exposure::cli_only});
    // The plugin is loaded into a child: which library runs is the server's to decide.
    t.push_back({.name = "--plugin",
                 .kind = ValueKind::file,
                 .placeholder = "TEXT",
                 .help = "the DPA plugin (default: rdmi-probe-dpa.so beside the binary)",
                 .commands = {"loopback"},
                 .exposure = Exposure::server_policy});
}

void add_symbols(std::vector<OptionSpec>& t) {
    t.push_back({.name = "--module",
                 .kind = ValueKind::pkgconfig_module,
                 .placeholder = "TEXT",
                 .help = "pkg-config module whose library is audited (default doca-rdmi)",
                 .default_value = "doca-rdmi",
                 .commands = {"symbols"}});
    t.push_back({.name = "--lib",
                 .kind = ValueKind::file,
                 .placeholder = "TEXT",
                 .help = "audit this shared object instead of a module's (--lib, --headers and "
                         "--check name files on this machine, relative to the working "
                         "directory, also under --root)",
                 .commands = {"symbols"},
                 .excludes = {"--module"}});
    t.push_back({.name = "--prefix",
                 .kind = ValueKind::symbol_name,
                 .placeholder = "TEXT",
                 .help = "audit only names starting with this (default: the module's own, e.g. "
                         "doca_rdmi_; \"\" for every name)",
                 .commands = {"symbols"}});
    t.push_back({.name = "--headers",
                 .kind = ValueKind::directory,
                 .placeholder = "TEXT",
                 .help = "scan the headers in DIR (default: the module's includedir)",
                 .commands = {"symbols"}});
    t.push_back({.name = "--check",
                 .kind = ValueKind::file,
                 .placeholder = "TEXT",
                 .help = "audit what APP (executable, .so, .o or .a) needs from the library; "
                         "exit 1 if something would not resolve or is experimental and not "
                         "allowed",
                 .commands = {"symbols"}});
    t.push_back({.name = "--allow-experimental",
                 .kind = ValueKind::symbol_list,
                 .placeholder = "TEXT",
                 .help = "experimental names the team accepts: NAME,NAME,... or @FILE (one a "
                         "line, # comments); repeatable",
                 .commands = {"symbols"},
                 .repeatable = true});
}

void add_contract(std::vector<OptionSpec>& t) {
    t.push_back({.name = "--strict-contract",
                 .kind = ValueKind::flag,
                 .help = "omit the x_rdmi_probe extension object",
                 .commands = {"env", "caps", "state"}});
    t.push_back({.name = "--side",
                 .kind = ValueKind::choice,
                 .placeholder = "TEXT",
                 .choices = {"host", "dpu"},
                 .help = "host or dpu (default: from the host-kind probe)",
                 .commands = {"state"}});
}

void add_schema_and_diff(std::vector<OptionSpec>& t) {
    t.push_back({.name = "NAME",
                 .kind = ValueKind::schema_name,
                 .placeholder = "TEXT",
                 .help = "schema name (doca-env, rdmi-probe-report, ...) or $id",
                 .commands = {"schema"},
                 .positional = true});
    t.push_back({.name = "A",
                 .kind = ValueKind::document,
                 .placeholder = "TEXT",
                 .help = "the earlier (or host) document",
                 .commands = {"diff"},
                 .positional = true,
                 .required = true});
    t.push_back({.name = "B",
                 .kind = ValueKind::document,
                 .placeholder = "TEXT",
                 .help = "the later (or DPU) document",
                 .commands = {"diff"},
                 .positional = true,
                 .required = true});
    t.push_back({.name = "--all",
                 .kind = ValueKind::flag,
                 .help = "also compare x_rdmi_probe, timestamps and durations",
                 .commands = {"diff"}});
}

// check's requirement options carry the --policy file's key for the same requirement (or why
// there is none): a test holds the two in step.
void add_check(std::vector<OptionSpec>& t) {
    const Names check{"check"};
    t.push_back({.name = "--policy",
                 .kind = ValueKind::file,
                 .placeholder = "TEXT",
                 .help = "requirements from FILE (JSON; flags add to it)",
                 .commands = check,
                 .no_policy_key = "names the policy file itself"});
    t.push_back({.name = "--for",
                 .kind = ValueKind::choice,
                 .placeholder = "TEXT",
                 .choices = {"run", "build", "all"},
                 .help = "judge only the --policy FILE requirements that answer this question: "
                         "run (an installed RDMI application can run here), build (one can be "
                         "built here) or all (default; the file's \"for\" when it has one); "
                         "flags are always judged",
                 .default_value = "all",
                 .commands = check,
                 .policy_key = "for"});
    t.push_back({.name = "--min-version",
                 .kind = ValueKind::version,
                 .placeholder = "TEXT",
                 .help = "the RDMI stack's matched version is at least V",
                 .commands = check,
                 .policy_key = "min_version"});
    t.push_back({.name = "--max-version",
                 .kind = ValueKind::version,
                 .placeholder = "TEXT",
                 .help = "... at most V",
                 .commands = check,
                 .policy_key = "max_version"});
    t.push_back({.name = "--exact-version",
                 .kind = ValueKind::version,
                 .placeholder = "TEXT",
                 .help = "... exactly V",
                 .commands = check,
                 .policy_key = "exact_version"});
    t.push_back({.name = "--require-module",
                 .kind = ValueKind::module_requirement,
                 .placeholder = "TEXT",
                 .help = "NAME[OP VERSION], e.g. doca-verbs>=3.2 (repeatable)",
                 .commands = check,
                 .repeatable = true,
                 .policy_key = "require_modules"});
    t.push_back({.name = "--require-symbol",
                 .kind = ValueKind::symbol_name,
                 .placeholder = "TEXT",
                 .help = "libdoca_rdmi exports NAME (repeatable)",
                 .commands = check,
                 .repeatable = true,
                 .policy_key = "require_symbols"});
    t.push_back({.name = "--require-stable",
                 .kind = ValueKind::symbol_name,
                 .placeholder = "TEXT",
                 .help = "libdoca_rdmi exports NAME, neither experimental nor deprecated",
                 .commands = check,
                 .repeatable = true,
                 .policy_key = "require_stable"});
    t.push_back({.name = "--app",
                 .kind = ValueKind::file,
                 .placeholder = "TEXT",
                 .help = "the application BINARY resolves against the installed libdoca_rdmi (a "
                         "path on this machine, relative to the working directory, also under "
                         "--root)",
                 .commands = check,
                 .policy_key = "app"});
    t.push_back({.name = "--forbid-experimental",
                 .kind = ValueKind::flag,
                 .help = "with --app: it calls no experimental name outside --allow-experimental",
                 .commands = check,
                 .policy_key = "forbid_experimental"});
    t.push_back({.name = "--allow-experimental",
                 .kind = ValueKind::symbol_list,
                 .placeholder = "TEXT",
                 .help = "experimental names accepted by --forbid-experimental: NAME,NAME,... or "
                         "@FILE (one a line, # comments)",
                 .commands = check,
                 .repeatable = true,
                 .policy_key = "allow_experimental"});
    t.push_back({.name = "--require-device",
                 .kind = ValueKind::device,
                 .placeholder = "TEXT",
                 .help = "an NVIDIA RDMA device (or this PCI address / ibdev)",
                 .commands = check,
                 .value_optional = true,
                 .policy_key = "require_device"});
    t.push_back({.name = "--require-dpa",
                 .kind = ValueKind::flag,
                 .help = "the (required) device has a DPA",
                 .commands = check,
                 .policy_key = "require_dpa"});
    t.push_back({.name = "--require-port-active",
                 .kind = ValueKind::flag,
                 .help = "the (required) device has an ACTIVE port; with --require-dpa, on the "
                         "same device as the DPA",
                 .commands = check,
                 .policy_key = "require_port_active"});
    // The rule's one text, so help and man say what is judged.
    t.push_back({.name = "--require-consistent",
                 .kind = ValueKind::flag,
                 .help = std::string(kConsistencyRule),
                 .commands = check,
                 .policy_key = "require_consistent"});
    t.push_back({.name = "--waive-source",
                 .kind = ValueKind::source_name,
                 .placeholder = "NAME",
                 .help = "with --require-consistent: leave version source NAME out of the match "
                         "for this run (repeatable; the document records it): one of " +
                         waivable_names(),
                 .commands = check,
                 .repeatable = true,
                 .policy_key = "waive_sources"});
    t.push_back({.name = "--require-pcie-link",
                 .kind = ValueKind::flag,
                 .help = "every NVIDIA PF's (or the required device's) PCIe link runs at the "
                         "speed and width card and slot can reach; below is a warning",
                 .commands = check,
                 .policy_key = "require_pcie_link"});
    t.push_back({.name = "--require-integrity",
                 .kind = ValueKind::flag,
                 .help = "the DOCA headers, libraries, .pc files and tools the install checks "
                         "judge have the digest their package recorded (reads the package "
                         "database)",
                 .commands = check,
                 .policy_key = "require_integrity"});
    t.push_back({.name = "--fail-on-warn",
                 .kind = ValueKind::flag,
                 .help = "a warning (costs performance or robustness, does not stop RDMI) fails "
                         "the gate: exit 1 and result fail",
                 .commands = check,
                 .no_policy_key = "how the verdict is drawn from the checks, not a requirement"});
    // Not tool arguments: a call that waits holds one of the MCP server's --max-calls for the
    // whole wait, and an agent that wants to wait calls check again (docs/agents.md).
    t.push_back({.name = "--wait",
                 .kind = ValueKind::duration,
                 .placeholder = "DURATION",
                 .minimum = 0.001,
                 .maximum = 86400.0,
                 .help = "evaluate again until the requirements pass or DURATION has passed "
                         "(90, 5s, 2m, 1h): for boot-time ordering; --timeout bounds each "
                         "evaluation, the exit is the last one's; not with a bundle --root",
                 .commands = check,
                 .exposure = Exposure::cli_only,
                 .no_policy_key = "how long the run waits for the requirements, not a "
                                  "requirement"});
    t.push_back({.name = "--interval",
                 .kind = ValueKind::seconds,
                 .placeholder = "SECONDS",
                 .minimum = 0.01,
                 .maximum = 3600.0,
                 .help = "with --wait: the pause after an evaluation that did not pass, at most "
                         "the --wait",
                 .default_value = "1",
                 .help_shows_default = true,
                 .commands = check,
                 .exposure = Exposure::cli_only,
                 .no_policy_key = "how long the run waits for the requirements, not a "
                                  "requirement"});
    t.push_back({.name = "--format",
                 .kind = ValueKind::choice,
                 .placeholder = "TEXT",
                 .choices = {"text", "json", "junit", "github"},
                 .help = "text, json, junit or github",
                 .default_value = "text",
                 .commands = check,
                 .exposure = Exposure::cli_only,
                 .no_policy_key = "how the result is written, not a requirement"});
    t.push_back({.name = "--strict-contract",
                 .kind = ValueKind::flag,
                 .help = "JSON: only the contract's fields (no x_rdmi_probe)",
                 .commands = check,
                 .no_policy_key = "how the result is written, not a requirement"});
    t.push_back({.name = "--list-checks",
                 .kind = ValueKind::flag,
                 .help = "list every check id rdmi-probe can emit, what it means and how to fix "
                         "it, and check nothing",
                 .commands = check,
                 .no_policy_key = "reads the finding catalog instead of judging anything"});
    t.push_back({.name = "--explain",
                 .kind = ValueKind::check_id,
                 .placeholder = "ID",
                 .help = "what check ID means and how to fix it, and check nothing",
                 .commands = check,
                 .excludes = {"--list-checks"},
                 .no_policy_key = "reads the finding catalog instead of judging anything"});
}

void add_gather_and_error(std::vector<OptionSpec>& t) {
    t.push_back({.name = "--redact",
                 .kind = ValueKind::flag,
                 .help = "replace MAC addresses, GUIDs, serial numbers, host names and IP "
                         "addresses with consistent placeholders",
                 .commands = {"gather"}});
    t.push_back({.name = "ERROR",
                 .kind = ValueKind::doca_error,
                 .placeholder = "TEXT",
                 .help = "DOCA_ERROR_BAD_STATE, BAD_STATE, bad_state or the number (18)",
                 .commands = {"error"},
                 .positional = true,
                 .required_unless = "--list-calls"});
    t.push_back({.name = "--call",
                 .kind = ValueKind::function_name,
                 .placeholder = "FUNCTION",
                 .help = "the DOCA function that returned it (one with known causes)",
                 .commands = {"error"}});
    t.push_back({.name = "--list-calls",
                 .kind = ValueKind::flag,
                 .help = "list the calls with known causes, each with its errors",
                 .commands = {"error"},
                 .excludes = {"ERROR", "--call"},
                 // Another document than the error tool's: `rdmi-probe error --list-calls`.
                 .exposure = Exposure::cli_only});
}

std::vector<OptionSpec> build_model() {
    std::vector<OptionSpec> t = global_table();
    add_report(t);
    add_loopback(t);
    add_symbols(t);
    add_contract(t);
    add_schema_and_diff(t);
    add_check(t);
    add_gather_and_error(t);
    return t;
}

bool known_command(std::string_view command) {
    return std::find(kCommandNames.begin(), kCommandNames.end(), command) != kCommandNames.end();
}

// The JSON Schema of one value (an array's items for a repeatable option).
json::Json value_schema(const OptionSpec& option) {
    json::Json schema = json::Json::object();
    switch (option.kind) {
        case ValueKind::flag:
            schema["type"] = "boolean";
            break;
        case ValueKind::integer:
            schema["type"] = "integer";
            break;
        case ValueKind::seconds:
            schema["type"] = "number";
            break;
        default:
            schema["type"] = "string";
            break;
    }
    if (option.kind == ValueKind::choice) schema["enum"] = option.choices;
    if (option.minimum) schema["minimum"] = *option.minimum;
    if (option.maximum) schema["maximum"] = *option.maximum;
    if (is_path_kind(option.kind)) schema["pattern"] = "^/";
    return schema;
}

json::Json default_of(const OptionSpec& option) {
    switch (option.kind) {
        case ValueKind::integer:
            return std::stoll(option.default_value);
        case ValueKind::seconds:
            return std::stod(option.default_value);
        default:
            return option.default_value;
    }
}

json::Json property_schema(const OptionSpec& option) {
    json::Json property;
    // A counted flag (-vv) is never a tool argument; any other repeatable one is a list.
    if (option.repeatable && option.kind != ValueKind::flag) {
        property["type"] = "array";
        property["items"] = value_schema(option);
    } else {
        property = value_schema(option);
    }
    std::string description = option.help;
    if (is_path_kind(option.kind)) description += " (an absolute path)";
    property["description"] = description;
    if (!option.default_value.empty() && !option.repeatable)
        property["default"] = default_of(option);
    return property;
}

}  // namespace

bool is_path_kind(ValueKind kind) {
    return kind == ValueKind::file || kind == ValueKind::directory || kind == ValueKind::root ||
           kind == ValueKind::document;
}

const std::vector<OptionSpec>& option_model() {
    static const std::vector<OptionSpec> model = build_model();
    return model;
}

std::span<const std::string_view> command_names() {
    return kCommandNames;
}

std::span<const HelperName> helper_names() {
    return kHelperNames;
}

bool applies_to(const OptionSpec& option, std::string_view command) {
    if (option.global && option.commands.empty()) return true;
    return std::find(option.commands.begin(), option.commands.end(), command) !=
           option.commands.end();
}

std::vector<const OptionSpec*> own_options(std::string_view command) {
    std::vector<const OptionSpec*> found;
    for (const auto& option : option_model()) {
        if (!option.global && applies_to(option, command)) found.push_back(&option);
    }
    return found;
}

std::vector<const OptionSpec*> global_options(std::string_view command) {
    std::vector<const OptionSpec*> found;
    for (const auto& option : option_model()) {
        if (option.global && (command.empty() || applies_to(option, command)))
            found.push_back(&option);
    }
    return found;
}

const OptionSpec* find_option(std::string_view command, std::string_view name) {
    auto named = [name](const OptionSpec* option) {
        return option->name == name || (!option->short_name.empty() && option->short_name == name);
    };
    if (!command.empty()) {
        for (const auto* option : own_options(command)) {
            if (named(option)) return option;
        }
    }
    for (const auto* option : global_options(command)) {
        if (named(option)) return option;
    }
    return nullptr;
}

std::string argument_name(const OptionSpec& option) {
    std::string name = option.name;
    name.erase(0, name.find_first_not_of('-'));
    for (char& c : name) {
        c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return name;
}

json::Json input_schema(std::string_view command) {
    if (!known_command(command))
        throw std::invalid_argument("input_schema: no command " + std::string(command));
    json::Json properties = json::Json::object();
    json::Json required = json::Json::array();
    auto add = [&](const OptionSpec& option) {
        if (option.exposure != Exposure::tool_argument) return;
        properties[argument_name(option)] = property_schema(option);
        if (option.required || !option.required_unless.empty())
            required.push_back(argument_name(option));
    };
    for (const auto* option : global_options(command)) add(*option);
    for (const auto* option : own_options(command)) add(*option);
    json::Json schema = json::Json::object();
    schema["type"] = "object";
    schema["properties"] = std::move(properties);
    if (!required.empty()) schema["required"] = std::move(required);
    schema["additionalProperties"] = false;
    return schema;
}

}  // namespace rdmi::cli
