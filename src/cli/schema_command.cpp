// `rdmi-probe schema [NAME]`: lists the embedded JSON Schemas, or prints one verbatim.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "contract/embedded_schemas.hpp"
#include "json/json_common.hpp"

namespace rdmi::cli {
namespace {

class SchemaCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "schema"; }
    [[nodiscard]] std::string_view summary() const override {
        return "print the JSON Schema NAME (file name or $id), or list them all";
    }
    void add_options(CLI::App& sub) override { add_modelled(sub, name(), "NAME", name_); }
    int run(const Session& session) override {
        std::string out;
        if (name_.empty()) {
            out = listing(session.options().json);
        } else if (const auto* schema = contract::find_embedded_schema(name_)) {
            out = std::string(schema->text);
            if (!out.empty() && out.back() != '\n') out += '\n';
        } else {
            return session.output().fail("no schema called \"" + name_ +
                                         "\" (rdmi-probe schema lists them)");
        }
        // A schema and the listing are data, written as they are.
        return session.output().finish({out, Reader::machine}, kExitOk);
    }

  private:
    static std::string listing(bool as_json) {
        if (as_json) {
            json::Json list = json::Json::array();
            for (const auto& s : contract::embedded_schemas())
                list.push_back({{"name", s.name}, {"id", contract::schema_id_of(s)}});
            // A bare array: the listing is a convenience, not a document with a schema.
            return json::dump(list);
        }
        std::string out;
        for (const auto& s : contract::embedded_schemas()) {
            std::string line(s.name);
            if (line.size() < 28) line.append(28 - line.size(), ' ');
            out += line + " " + contract::schema_id_of(s) + "\n";
        }
        return out;
    }

    std::string name_;
};

}  // namespace

std::unique_ptr<Command> make_schema_command() {
    return std::make_unique<SchemaCommand>();
}

}  // namespace rdmi::cli
