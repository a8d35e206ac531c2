// The option model: every option of every subcommand and helper name, declared once. The CLI11
// parser, the MCP tools' input schemas and the generated help, man page and completions are all
// read from this one table, so none of them can name an option the others do not know.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_common.hpp"

namespace rdmi::cli {

/// What an option's value is. It decides the parser's check, what a completion offers and the
/// JSON Schema type; the path kinds are the ones an MCP client must give as absolute paths.
enum class ValueKind {
    flag,                ///< no value; repeatable means it counts (-vv)
    text,                ///< free text
    file,                ///< a file on this machine
    directory,           ///< a directory on this machine
    root,                ///< a mounted root directory, or a support bundle (dir or .tar.gz)
    document,            ///< a saved rdmi-probe JSON document
    device,              ///< an RDMA device name (mlx5_0) or a PCI address
    schema_name,         ///< an embedded schema's file name or $id
    doca_error,          ///< a DOCA error name (DOCA_ERROR_BAD_STATE, bad_state) or number
    function_name,       ///< a C function name
    check_id,            ///< a check id of the finding catalog
    version,             ///< a DOCA version (3.2, 3.3.0105)
    module_requirement,  ///< NAME[OP VERSION], e.g. doca-verbs>=3.2
    pkgconfig_module,    ///< a pkg-config module name
    symbol_name,         ///< an exported symbol's name (or a prefix of names)
    symbol_list,         ///< NAME,NAME,... or @FILE
    source_name,         ///< a version source of the consistency match
    choice,              ///< one of OptionSpec::choices
    integer,             ///< a whole number in [minimum, maximum]
    seconds,             ///< a real number of seconds in [minimum, maximum]
    duration,            ///< seconds, bare or numbers with units largest first (90, 5s, 1h30m,
                         ///< 2d), in [minimum, maximum]
    json_pointer,        ///< an RFC 6901 JSON pointer
};

/// True for the kinds that name a path: an MCP client gives them absolute (it does not know the
/// server's working directory).
[[nodiscard]] bool is_path_kind(ValueKind kind);

/// Where an option may be given besides the command line.
enum class Exposure {
    tool_argument,  ///< also an argument of the command's MCP tool
    cli_only,       ///< how the command line presents a document (output, json, color, ...)
    server_policy,  ///< what a run may do (load untrusted libraries, drop a sandbox layer): an
                    ///< MCP server decides it with its own flags, never a tool call
};

/// One option (or positional argument) of one or more commands.
struct OptionSpec {
    std::string name{};        ///< "--root"; a positional's placeholder ("ERROR")
    std::string short_name{};  ///< "-v", or ""
    ValueKind kind = ValueKind::flag;
    std::string placeholder{};  ///< the value's name in --help ("DIR", "TEXT"); "" for flags
    std::vector<std::string> choices{};  ///< ValueKind::choice: the accepted values, in order
    std::optional<double> minimum{};     ///< integer and seconds: the range, inclusive
    std::optional<double> maximum{};
    std::string help{};
    std::string default_value{};      ///< what applies when it is not given; "" when none is
    bool help_shows_default = false;  ///< --help shows default_value ("[10]")
    /// Declared on the top-level parser, so it may stand before or after the subcommand. It
    /// applies to `commands`, or to every command when that is empty.
    bool global = false;
    std::vector<std::string> commands{};  ///< the subcommands that take it
    bool positional = false;
    bool required = false;
    /// Required unless this option (never a tool argument) is given: optional on the command
    /// line, required of a structured caller, who cannot give the alternative
    /// (`error ERROR` unless `--list-calls`).
    std::string required_unless{};
    bool repeatable = false;
    bool value_optional = false;          ///< may stand without its value (--require-device)
    std::vector<std::string> excludes{};  ///< options it may not be given with
    Exposure exposure = Exposure::tool_argument;
    std::string policy_key{};     ///< check: the --policy file's key for the same requirement
    std::string no_policy_key{};  ///< check: why the option has no policy key
};

/// A contract helper name the binary answers to, and the subcommand it stands for.
struct HelperName {
    std::string_view name;     ///< "doca-env"
    std::string_view command;  ///< "env"
    std::string_view forced;   ///< an option the name implies ("--side=host"), or ""
};

/// Every option, globals first, then each command's in --help order.
[[nodiscard]] const std::vector<OptionSpec>& option_model();

/// Every subcommand's name, in --help order; the first is the default.
[[nodiscard]] std::span<const std::string_view> command_names();

/// Every helper name.
[[nodiscard]] std::span<const HelperName> helper_names();

/// True when `option` applies to `command`.
[[nodiscard]] bool applies_to(const OptionSpec& option, std::string_view command);

/// The command's own options (declared on its subcommand parser), in --help order.
[[nodiscard]] std::vector<const OptionSpec*> own_options(std::string_view command);

/// The global options that apply to `command` (every one when `command` is empty).
[[nodiscard]] std::vector<const OptionSpec*> global_options(std::string_view command = {});

/// The option called `name` ("--format", "-q" or "ERROR") as `command` takes it: its own
/// option first, then a global one; "" names the top-level parser (globals only). Null when
/// the command does not take it.
[[nodiscard]] const OptionSpec* find_option(std::string_view command, std::string_view name);

/// The option's name as a structured argument: "--doca-prefix" is "doca_prefix", "ERROR" is
/// "error".
[[nodiscard]] std::string argument_name(const OptionSpec& option);

/// The command's MCP tool arguments as a JSON Schema object ("type": "object", "properties",
/// "required", "additionalProperties": false): the global options that apply to it and its own,
/// those with Exposure::tool_argument only. Properties are named by argument_name(); each has
/// its type (boolean, string, integer, number, or an array of one for a repeatable option), its
/// description, enum, minimum and maximum, its default when it has one, and for a path
/// "pattern": "^/". Throws std::invalid_argument for an unknown command.
[[nodiscard]] json::Json input_schema(std::string_view command);

}  // namespace rdmi::cli
