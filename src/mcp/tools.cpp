// The tool table and the arguments → argv mapping. Each argument names the CLI option it
// becomes; the command then parses it exactly as from a shell, so a call and a command line
// are judged by one parser.
#include "mcp/tools.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "contract/embedded_schemas.hpp"
#include "mcp/self_contained_schema.hpp"

namespace rdmi::mcp {
namespace {

using Json = nlohmann::ordered_json;

enum class Kind {
    path,       ///< an absolute path on the server's machine
    text,       ///< a string
    texts,      ///< an array of strings, the option repeated
    flag,       ///< a boolean: the flag when true
    number,     ///< a number in [min, max]
    integer,    ///< an integer in [min, max]
    choice,     ///< one of `choices`
    document,   ///< a saved document: an absolute path, or the document itself inline
    positional  ///< a string given as the command's positional argument
};

struct Argument {
    std::string_view name;
    Kind kind;
    std::string_view flag;  ///< the CLI option ("--doca-prefix"); "" for a positional
    std::string_view description;
    std::vector<std::string_view> choices{};
    double min = 0;
    double max = 0;
    bool required = false;
};

const Argument kRoot{"root", Kind::path, "--root",
                     "probe the file system mounted at this absolute path instead of the live "
                     "host (nothing is loaded or run); the server's --allow-root decides which "
                     "roots a call may name"};
const Argument kDocaPrefix{"doca_prefix", Kind::path, "--doca-prefix",
                           "absolute path where DOCA is installed (default: doca-common's "
                           "pkg-config prefix, then /opt/mellanox/doca)"};
const Argument kTimeout{"timeout",
                        Kind::number,
                        "--timeout",
                        "bound on the whole run and on each external call, in seconds "
                        "(default 10)",
                        {},
                        0.001,
                        3600};
const Argument kStrict{"strict_contract", Kind::flag, "--strict-contract",
                       "only the contract's fields (no x_rdmi_probe)"};
const Argument kUntrusted{"allow_untrusted_libs", Kind::flag, "--allow-untrusted-libs",
                          "load libraries and run tools from paths other users could write "
                          "(refused unless the server runs with --allow-untrusted-libs)"};
const Argument kFor{"for",
                    Kind::choice,
                    "--for",
                    "the question the verdict answers: run, build or all (default)",
                    {"run", "build", "all"}};

struct ToolArguments {
    std::string_view tool;
    std::vector<std::string_view> command;  ///< argv after the program name
    std::vector<Argument> arguments;
};

const std::vector<ToolArguments>& tool_arguments() {
    static const std::vector<ToolArguments> table{
        {"report",
         {"report", "--json"},
         {kRoot,
          kDocaPrefix,
          kTimeout,
          kUntrusted,
          kFor,
          {"integrity", Kind::flag, "--integrity",
           "also compare the DOCA files with the digest their package recorded"}}},
        {"env", {"env", "--json"}, {kRoot, kDocaPrefix, kTimeout, kUntrusted, kStrict}},
        {"caps", {"caps", "--json"}, {kRoot, kDocaPrefix, kTimeout, kUntrusted, kStrict}},
        {"state",
         {"state", "--json"},
         {kRoot,
          kDocaPrefix,
          kTimeout,
          kUntrusted,
          kStrict,
          {"side",
           Kind::choice,
           "--side",
           "host or dpu (default: from the host-kind probe)",
           {"host", "dpu"}}}},
        {"symbols",
         {"symbols", "--json"},
         {kRoot,
          kDocaPrefix,
          kTimeout,
          {"module", Kind::text, "--module",
           "pkg-config module whose library is audited (default doca-rdmi)"},
          {"lib", Kind::path, "--lib",
           "audit this shared object (absolute path) instead of a module's"},
          {"prefix", Kind::text, "--prefix",
           "audit only names starting with this (default: the module's own, e.g. doca_rdmi_; "
           "\"\" for every name)"},
          {"headers", Kind::path, "--headers",
           "scan the headers in this directory (default: the module's includedir)"},
          {"check", Kind::path, "--check",
           "audit what this application (executable, .so, .o or .a; absolute path) needs from "
           "the library"},
          {"allow_experimental", Kind::texts, "--allow-experimental",
           "experimental names the team accepts"}}},
        {"check",
         {"check", "--json"},
         {kRoot,
          kDocaPrefix,
          kTimeout,
          kUntrusted,
          kStrict,
          {"fail_on_warn", Kind::flag, "--fail-on-warn", "a warning fails the gate"}}},
        {"error",
         {"error", "--json"},
         {{"error",
           Kind::positional,
           "",
           "the DOCA error: DOCA_ERROR_BAD_STATE, BAD_STATE, bad_state or its number (18)",
           {},
           0,
           0,
           true},
          {"call", Kind::text, "--call", "the DOCA function that returned it"}}},
        {"diff",
         {"diff", "--json"},
         {{"a",
           Kind::document,
           "",
           "the earlier (or host) document: an absolute path, or the document itself",
           {},
           0,
           0,
           true},
          {"b",
           Kind::document,
           "",
           "the later (or DPU) document: an absolute path, or the document itself",
           {},
           0,
           0,
           true},
          {"all", Kind::flag, "--all", "also compare x_rdmi_probe, timestamps and durations"}}},
        {"schema",
         {"schema", "--json"},
         {{"name",
           Kind::positional,
           "",
           "schema name (doca-env, rdmi-probe-report, ...) or $id (resources/list lists them)",
           {},
           0,
           0,
           true}}},
        {"loopback",
         {"loopback", "--json"},
         {kDocaPrefix,
          kTimeout,
          kUntrusted,
          {"level",
           Kind::integer,
           "--level",
           "stop after level N: 0 static, 1 device + DPA context, 2 empty kernel, 3 loopback "
           "write (default 3)",
           {},
           0,
           3},
          {"device", Kind::text, "--device",
           "PCI address or ibdev name (default: the first DPA-capable PF)"},
          {"bytes", Kind::integer, "--bytes", "bytes to write (default 4096)", {}, 1, 1U << 30U},
          {"iterations",
           Kind::integer,
           "--iterations",
           "kernel launches (default 1)",
           {},
           1,
           1000000},
          {"lifecycle_selftest", Kind::flag, "--lifecycle-selftest",
           "attach a completion after start on disposable objects; expect "
           "DOCA_ERROR_BAD_STATE"}}},
    };
    return table;
}

const ToolArguments& arguments_of(std::string_view tool) {
    for (const auto& entry : tool_arguments()) {
        if (entry.tool == tool) return entry;
    }
    static const ToolArguments none{};
    return none;
}

Json argument_schema(const Argument& arg) {
    Json schema = Json::object();
    switch (arg.kind) {
        case Kind::path:
            schema["type"] = "string";
            schema["pattern"] = "^/";
            break;
        case Kind::text:
        case Kind::positional:
            schema["type"] = "string";
            break;
        case Kind::texts:
            schema["type"] = "array";
            schema["items"] = {{"type", "string"}};
            break;
        case Kind::flag:
            schema["type"] = "boolean";
            break;
        case Kind::number:
            schema["type"] = "number";
            schema["minimum"] = arg.min;
            schema["maximum"] = arg.max;
            break;
        case Kind::integer:
            schema["type"] = "integer";
            schema["minimum"] = static_cast<long long>(arg.min);
            schema["maximum"] = static_cast<long long>(arg.max);
            break;
        case Kind::choice:
            schema["type"] = "string";
            schema["enum"] = Json::array();
            for (auto c : arg.choices) schema["enum"].push_back(c);
            break;
        case Kind::document:
            schema["anyOf"] =
                Json::array({{{"type", "string"}, {"pattern", "^/"}}, {{"type", "object"}}});
            break;
    }
    schema["description"] = arg.description;
    return schema;
}

/// `check`'s own arguments are the policy's fields: the published schema, self-contained.
Json policy_schema() {
    auto policy = self_contained_schema("rdmi-probe-policy");
    if (!policy) return Json{{"type", "object"}};
    Json schema = std::move(policy).value();
    schema.erase("$schema");
    schema.erase("title");
    // The server fills schema_version in when the agent leaves it out.
    schema.erase("required");
    if (schema.contains("properties")) schema["properties"].erase("$schema");
    return schema;
}

std::string type_name(const nlohmann::json& value) {
    return value.type_name();
}

Result<std::string> absolute_path(std::string_view name, const nlohmann::json& value) {
    if (!value.is_string())
        return make_gap(GapReason::malformed,
                        std::string(name) + ": expected a string, got " + type_name(value));
    auto path = value.get<std::string>();
    if (path.empty() || path.front() != '/')
        return make_gap(GapReason::malformed,
                        std::string(name) + ": \"" + path +
                            "\" is not an absolute path (the server's working directory is not "
                            "the agent's: name files from /)");
    if (path.find('\0') != std::string::npos)
        return make_gap(GapReason::malformed, std::string(name) + ": a path holds a NUL byte");
    return path;
}

/// `root` is "/" or under an --allow-root directory, both resolved (a link inside an allowed
/// directory that leads out of it is out of it).
Result<std::string> allowed_root(const std::string& root, const CallPolicy& policy) {
    char resolved[PATH_MAX];
    if (::realpath(root.c_str(), resolved) == nullptr)
        return make_gap(GapReason::not_found,
                        "root: \"" + root + "\" cannot be opened: " + std::strerror(errno));
    const std::string real(resolved);
    if (real == "/") return root;
    for (const auto& dir : policy.allowed_roots) {
        if (real == dir || (real.starts_with(dir) && (dir == "/" || real[dir.size()] == '/')))
            return root;
    }
    std::string allowed;
    for (const auto& dir : policy.allowed_roots) allowed += (allowed.empty() ? "" : ", ") + dir;
    return make_gap(GapReason::permission_denied,
                    "root: \"" + root + "\" is not under a directory the server allows (" +
                        (allowed.empty() ? std::string("none: the server runs without --allow-root")
                                         : allowed) +
                        "); only the live host (no root) and / may be probed otherwise");
}

Result<std::string> write_scratch(const CallPolicy& policy, unsigned long call_number,
                                  std::string_view what, const std::string& text,
                                  std::vector<std::string>& files) {
    const std::string path = policy.scratch_dir + "/call-" + std::to_string(call_number) + "-" +
                             std::string(what) + ".json";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return make_gap(GapReason::error, "cannot write the inline " + std::string(what) + ": " +
                                              std::strerror(errno));
    files.push_back(path);
    std::size_t done = 0;
    while (done < text.size()) {
        const auto n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            return make_gap(GapReason::error, "cannot write the inline " + std::string(what) +
                                                  ": " + std::strerror(errno));
        }
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return path;
}

Result<bool> add_argument(const Argument& arg, const nlohmann::json& value,
                          const CallPolicy& policy, unsigned long call_number, PreparedCall& call) {
    const std::string name(arg.name);
    auto wrong = [&](std::string_view expected) {
        return make_gap(GapReason::malformed,
                        name + ": expected " + std::string(expected) + ", got " + type_name(value));
    };
    auto& argv = call.argv;
    switch (arg.kind) {
        case Kind::path: {
            auto path = absolute_path(name, value);
            if (!path) return path.gap();
            if (arg.name == "root") {
                auto root = allowed_root(*path, policy);
                if (!root) return root.gap();
            }
            argv.emplace_back(arg.flag);
            argv.push_back(*path);
            return true;
        }
        case Kind::text:
        case Kind::positional:
            if (!value.is_string()) return wrong("a string");
            if (arg.kind == Kind::positional) {
                // After "--": a value that starts with '-' is the value, not an option.
                call.argv.emplace_back("--");
                call.argv.push_back(value.get<std::string>());
                return true;
            }
            argv.push_back(std::string(arg.flag) + "=" + value.get<std::string>());
            return true;
        case Kind::texts:
            if (!value.is_array()) return wrong("an array of strings");
            for (const auto& item : value) {
                if (!item.is_string()) return wrong("an array of strings");
                const auto text = item.get<std::string>();
                if (text.starts_with("@"))
                    return make_gap(GapReason::malformed,
                                    name + ": \"" + text +
                                        "\": name the entries themselves (an @FILE list is read "
                                        "relative to the server's working directory)");
                argv.push_back(std::string(arg.flag) + "=" + text);
            }
            return true;
        case Kind::flag:
            if (!value.is_boolean()) return wrong("true or false");
            if (arg.name == "allow_untrusted_libs" && value.get<bool>() &&
                !policy.allow_untrusted_libs)
                return make_gap(GapReason::permission_denied,
                                "allow_untrusted_libs: refused: the server runs without "
                                "--allow-untrusted-libs");
            if (value.get<bool>()) argv.emplace_back(arg.flag);
            return true;
        case Kind::number:
        case Kind::integer: {
            if (!value.is_number() || (arg.kind == Kind::integer && !value.is_number_integer()))
                return wrong(arg.kind == Kind::integer ? "an integer" : "a number");
            const double n = value.get<double>();
            if (!std::isfinite(n) || n < arg.min || n > arg.max)
                return make_gap(GapReason::malformed, name + ": " + value.dump() + " is outside [" +
                                                          nlohmann::json(arg.min).dump() + ", " +
                                                          nlohmann::json(arg.max).dump() + "]");
            if (arg.name == "timeout") call.timeout_s = n;
            argv.push_back(std::string(arg.flag) + "=" + value.dump());
            return true;
        }
        case Kind::choice: {
            if (!value.is_string()) return wrong("a string");
            const auto text = value.get<std::string>();
            bool known = false;
            for (auto c : arg.choices) known = known || c == text;
            if (!known)
                return make_gap(GapReason::malformed,
                                name + ": \"" + text + "\" is not one of the allowed values");
            argv.push_back(std::string(arg.flag) + "=" + text);
            return true;
        }
        case Kind::document: {
            if (value.is_object()) {
                auto path =
                    write_scratch(policy, call_number, name, value.dump(), call.scratch_files);
                if (!path) return path.gap();
                argv.push_back(*path);
                return true;
            }
            auto path = absolute_path(name, value);
            if (!path) return wrong("an absolute path or a document object");
            argv.push_back(*path);
            return true;
        }
    }
    return true;
}

}  // namespace

const std::vector<ToolSpec>& tool_specs() {
    static const std::vector<ToolSpec> specs{
        {"report", "Full report",
         "The full rdmi-probe report of this host (live) or of a root: every check with its "
         "verdict, the facts behind it, and the recommended device.",
         "rdmi-probe-report", true, true},
        {"env", "DOCA environment (doca-env)",
         "The doca-env document: the DOCA install, its versions and their consistency.", "doca-env",
         true, true},
        {"caps", "Capability snapshot",
         "The capability-snapshot document: devices and what DOCA reports they can do.",
         "capability-snapshot", true, true},
        {"state", "Host or DPU state", "The collect-host-state / collect-dpu-state document.",
         "collect-state", true, true},
        {"symbols", "Symbol audit",
         "The symbols libdoca_rdmi (or a module, or a library) exports, and, with check, what "
         "an application needs from it.",
         "rdmi-probe-symbols", true, false},
        {"check", "CI gate",
         "Judges requirements (the published policy: DOCA version, modules, symbols, an "
         "application's experimental calls, devices) against this host or a root. A failing "
         "check is a normal result (result: fail).",
         "validate-before-commit", true, true},
        {"error", "Explain a DOCA error",
         "What a DOCA error code means, its likely causes and, with call, the causes for that "
         "call.",
         "rdmi-probe-doca-error", true, false},
        {"diff", "Compare two documents",
         "Compares two saved rdmi-probe documents of one kind (paths or inline).",
         "rdmi-probe-diff", true, false},
        {"schema", "A published JSON Schema", "Prints one of rdmi-probe's JSON Schemas.", "", true,
         false},
        {"loopback", "DPA loopback test",
         "Loads the DPA kernel and does one loopback RDMA write on a device, verifying the "
         "bytes (levels 0-3). Refused unless the server runs with --allow-loopback.",
         "rdmi-probe-loopback", false, true},
    };
    return specs;
}

const ToolSpec* find_tool(std::string_view name) {
    for (const auto& spec : tool_specs()) {
        if (spec.name == name) return &spec;
    }
    return nullptr;
}

nlohmann::ordered_json input_schema(const ToolSpec& tool) {
    Json schema = tool.name == "check" ? policy_schema() : Json{{"type", "object"}};
    schema["type"] = "object";
    auto& properties = schema["properties"];
    if (!properties.is_object()) properties = Json::object();
    Json required = Json::array();
    for (const auto& arg : arguments_of(tool.name).arguments) {
        properties[std::string(arg.name)] = argument_schema(arg);
        if (arg.required) required.push_back(arg.name);
    }
    if (!required.empty()) schema["required"] = required;
    schema["additionalProperties"] = false;
    return schema;
}

namespace {

Result<bool> prepare_into(const ToolSpec& tool, const nlohmann::json& arguments,
                          const CallPolicy& policy, unsigned long call_number, PreparedCall& call) {
    if (!arguments.is_object())
        return make_gap(GapReason::malformed,
                        "arguments: expected an object, got " + type_name(arguments));
    if (tool.name == "loopback" && !policy.allow_loopback)
        return make_gap(GapReason::permission_denied,
                        "loopback: refused: the server runs without --allow-loopback (the "
                        "loopback loads the DPA kernel and writes device memory)");
    const auto& spec = arguments_of(tool.name);
    for (auto word : spec.command) call.argv.emplace_back(word);
    // What is not one of the tool's own arguments is, for check, a policy field (the command's
    // policy reader judges it); for the others, a mistake.
    nlohmann::json policy_fields = nlohmann::json::object();
    for (const auto& [key, value] : arguments.items()) {
        bool known = false;
        for (const auto& a : spec.arguments) known = known || a.name == key;
        if (known) continue;
        if (tool.name != "check")
            return make_gap(
                GapReason::malformed,
                "unknown argument \"" + key + "\" (tools/list gives this tool's inputSchema)");
        policy_fields[key] = value;
    }
    // In the table's order, so that positionals (diff's a, b) keep theirs.
    std::vector<std::string> positionals;
    for (const auto& arg : spec.arguments) {
        const auto found = arguments.find(std::string(arg.name));
        if (found == arguments.end()) {
            if (arg.required)
                return make_gap(GapReason::malformed,
                                "missing the required argument \"" + std::string(arg.name) + "\"");
            continue;
        }
        if (arg.kind == Kind::positional || arg.kind == Kind::document) {
            PreparedCall piece;
            auto added = add_argument(arg, *found, policy, call_number, piece);
            call.scratch_files.insert(call.scratch_files.end(), piece.scratch_files.begin(),
                                      piece.scratch_files.end());
            if (!added) return added.gap();
            for (auto& word : piece.argv) {
                if (word != "--") positionals.push_back(std::move(word));
            }
            continue;
        }
        auto added = add_argument(arg, *found, policy, call_number, call);
        if (!added) return added.gap();
    }
    if (tool.name == "check") {
        if (!policy_fields.contains("schema_version")) policy_fields["schema_version"] = 1;
        auto path =
            write_scratch(policy, call_number, "policy", policy_fields.dump(), call.scratch_files);
        if (!path) return path.gap();
        call.argv.push_back("--policy=" + *path);
    }
    if (!positionals.empty()) {
        call.argv.emplace_back("--");
        for (auto& p : positionals) call.argv.push_back(std::move(p));
    }
    return true;
}

}  // namespace

Result<PreparedCall> prepare_call(const ToolSpec& tool, const nlohmann::json& arguments,
                                  const CallPolicy& policy, unsigned long call_number) {
    PreparedCall call;
    auto prepared = prepare_into(tool, arguments, policy, call_number, call);
    if (!prepared) {
        // An inline input written before a later argument was refused is not left behind.
        for (const auto& file : call.scratch_files) ::unlink(file.c_str());
        return prepared.gap();
    }
    return call;
}

}  // namespace rdmi::mcp
