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

#include "cli/option_model.hpp"
#include "contract/embedded_schemas.hpp"
#include "mcp/self_contained_schema.hpp"

namespace rdmi::mcp {
namespace {

using Json = nlohmann::ordered_json;

/// The command each tool runs (a document on stdout, in JSON).
std::vector<std::string> command_of(const ToolSpec& tool) {
    return {std::string(tool.name), "--json"};
}

/// check's options that print another document than the gate's (the finding catalog), and the
/// policy file itself: check's arguments are the policy's fields.
bool left_out(const ToolSpec& tool, const cli::OptionSpec& option) {
    if (tool.name != "check") return false;
    return option.name == "--policy" || option.name == "--list-checks" ||
           option.name == "--explain" || !option.policy_key.empty();
}

/// The tool's arguments: the options the model exposes to a structured caller, globals first.
std::vector<const cli::OptionSpec*> tool_options(const ToolSpec& tool) {
    std::vector<const cli::OptionSpec*> found;
    auto add = [&](const cli::OptionSpec* option) {
        if (option->exposure == cli::Exposure::tool_argument && !left_out(tool, *option))
            found.push_back(option);
    };
    for (const auto* option : cli::global_options(tool.name)) add(option);
    for (const auto* option : cli::own_options(tool.name)) add(option);
    return found;
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
    // The command is given the resolved path, not the one checked: a link on the way (one the
    // caller's user can repoint between this check and the command's open, or a /proc/PID/root
    // that reads as "/" but is another mount namespace's tree) cannot lead it elsewhere.
    const std::string real(resolved);
    if (real == "/") return real;
    for (const auto& dir : policy.allowed_roots) {
        if (real == dir || (real.starts_with(dir) && (dir == "/" || real[dir.size()] == '/')))
            return real;
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

/// The option's value as the command line gives it, or a Gap naming the argument and what
/// was expected. The command's own parser then checks it as from a shell (ranges, choices).
Result<std::string> option_value(const cli::OptionSpec& option, const std::string& name,
                                 const nlohmann::json& value, const CallPolicy& policy,
                                 unsigned long call_number, PreparedCall& call) {
    auto wrong = [&](std::string_view expected) {
        return make_gap(GapReason::malformed,
                        name + ": expected " + std::string(expected) + ", got " + type_name(value));
    };
    if (option.kind == cli::ValueKind::document && value.is_object()) {
        return write_scratch(policy, call_number, name, value.dump(), call.scratch_files);
    }
    if (cli::is_path_kind(option.kind)) {
        auto path = absolute_path(name, value);
        if (!path) return path.gap();
        if (option.kind == cli::ValueKind::root) return allowed_root(*path, policy);
        return path;
    }
    switch (option.kind) {
        case cli::ValueKind::integer:
            if (!value.is_number_integer()) return wrong("an integer");
            return value.dump();
        case cli::ValueKind::seconds:
            if (!value.is_number()) return wrong("a number");
            return value.dump();
        default:
            break;
    }
    if (!value.is_string()) return wrong("a string");
    auto text = value.get<std::string>();
    if (option.kind == cli::ValueKind::symbol_list && text.starts_with("@"))
        return make_gap(GapReason::malformed,
                        name + ": \"" + text +
                            "\": name the entries themselves (an @FILE list would be read "
                            "relative to the server's working directory)");
    return text;
}

Result<bool> add_argument(const cli::OptionSpec& option, const nlohmann::json& value,
                          const CallPolicy& policy, unsigned long call_number, PreparedCall& call,
                          std::vector<std::string>& positionals) {
    const std::string name = cli::argument_name(option);
    if (option.kind == cli::ValueKind::flag) {
        if (!value.is_boolean())
            return make_gap(GapReason::malformed,
                            name + ": expected true or false, got " + type_name(value));
        if (value.get<bool>()) call.argv.push_back(option.name);
        return true;
    }
    std::vector<nlohmann::json> values;
    if (option.repeatable) {
        if (!value.is_array())
            return make_gap(GapReason::malformed,
                            name + ": expected an array, got " + type_name(value));
        values.assign(value.begin(), value.end());
    } else {
        values.push_back(value);
    }
    for (const auto& item : values) {
        auto text = option_value(option, name, item, policy, call_number, call);
        if (!text) return text.gap();
        if (option.positional) {
            positionals.push_back(*text);
        } else {
            // One word: a value that starts with '-' stays the option's value.
            call.argv.push_back(option.name + "=" + *text);
        }
        if (option.name == "--timeout") call.timeout_s = item.get<double>();
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
    // The option model's schema of the tool's arguments (cli/option_model.hpp), with what the
    // server adds: check's policy fields (above), and a document to diff given inline.
    Json model = cli::input_schema(tool.name);
    auto& properties = schema["properties"];
    if (!properties.is_object()) properties = Json::object();
    for (const auto* option : tool_options(tool)) {
        const auto name = cli::argument_name(*option);
        Json property = model["properties"][name];
        if (option->kind == cli::ValueKind::document) {
            const Json path{{"type", "string"}, {"pattern", "^/"}};
            property.erase("type");
            property.erase("pattern");
            property["anyOf"] = Json::array({path, Json{{"type", "object"}}});
            property["description"] = option->help + " (an absolute path, or the document itself)";
        }
        properties[name] = std::move(property);
    }
    Json required = Json::array();
    for (const auto* option : tool_options(tool)) {
        // schema: without a name the command lists the schemas (resources/list does that here).
        if (option->required || (tool.name == "schema" && option->positional))
            required.push_back(cli::argument_name(*option));
    }
    schema["type"] = "object";
    if (!required.empty()) schema["required"] = std::move(required);
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
    for (auto& word : command_of(tool)) call.argv.push_back(std::move(word));
    const auto options = tool_options(tool);
    // What is not one of the tool's own arguments is, for check, a policy field (the command's
    // policy reader judges it); for the others, a mistake.
    nlohmann::json policy_fields = nlohmann::json::object();
    for (const auto& [key, value] : arguments.items()) {
        bool known = false;
        for (const auto* option : options) known = known || cli::argument_name(*option) == key;
        if (known) continue;
        if (tool.name != "check")
            return make_gap(
                GapReason::malformed,
                "unknown argument \"" + key + "\" (tools/list gives this tool's inputSchema)");
        // The policy's one path: absolute, as every path argument (a relative one would be read
        // from the server's working directory).
        if (key == "app") {
            auto path = absolute_path(key, value);
            if (!path) return path.gap();
        }
        policy_fields[key] = value;
    }
    // In the model's order, so that positionals (diff's A, B) keep theirs.
    std::vector<std::string> positionals;
    for (const auto* option : options) {
        const auto name = cli::argument_name(*option);
        const auto found = arguments.find(name);
        if (found == arguments.end()) {
            if (option->required || (tool.name == "schema" && option->positional))
                return make_gap(GapReason::malformed,
                                "missing the required argument \"" + name + "\"");
            continue;
        }
        auto added = add_argument(*option, *found, policy, call_number, call, positionals);
        if (!added) return added.gap();
    }
    if (policy.allow_untrusted_libs) call.argv.emplace_back("--allow-untrusted-libs");
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
