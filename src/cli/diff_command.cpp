// `rdmi-probe diff A B`: what changed between two saved documents of the same kind.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "cli/user_path.hpp"
#include "contract/document.hpp"
#include "contract/kinds.hpp"
#include "json/json_common.hpp"
#include "json/json_input.hpp"
#include "os/fs.hpp"
#include "report/diff_document.hpp"

namespace rdmi::cli {
namespace {

/// One input: its absolute path, parsed document and kind.
struct Input {
    std::string path;
    contract::Json document;
    const contract::DocumentKind* kind = nullptr;
};

std::optional<std::string> document_name(const contract::Json& doc) {
    auto x = doc.find("x_rdmi_probe");
    if (x == doc.end() || !x->is_object()) return std::nullopt;
    auto d = x->find("document");
    if (d == x->end() || !d->is_string()) return std::nullopt;
    return d->get<std::string>();
}

class DiffCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "diff"; }
    [[nodiscard]] std::string_view summary() const override {
        return "compare two saved documents of the same kind (exit 0 equal, 1 different)";
    }
    void add_options(CLI::App& sub) override {
        add_modelled(sub, name(), "A", a_);
        add_modelled(sub, name(), "B", b_);
        add_modelled(sub, name(), "--all", all_);
    }

    int run(const Session& session) override {
        // Saved documents live on this machine, not under --root.
        auto fs = RootedFs::open("/", RootedFs::Resolution::kernel, true, session.link_rule());
        if (!fs) return session.output().fail(fs.gap().message);
        auto a = load(*fs, "A", a_);
        if (!a) return session.output().fail(a.gap().message);
        auto b = load(*fs, "B", b_);
        if (!b) return session.output().fail(b.gap().message);
        if (a->kind != b->kind) {
            return session.output().fail("A is a " + std::string(a->kind->name) +
                                         " document, B is a " + std::string(b->kind->name) +
                                         " document: only documents of one kind can be compared");
        }
        const diff::Options options{all_};
        diff::Outcome outcome{std::string(a->kind->name),
                              a->path,
                              b->path,
                              document_name(a->document),
                              document_name(b->document),
                              diff::ignored_fields(options, a->kind->name),
                              diff::compare(a->document, b->document, options),
                              std::nullopt};
        if (a->kind->name == "symbols")
            outcome.symbols = diff::symbols_view(a->document, b->document);
        const std::string out = session.options().json ? json::dump(diff::to_json(outcome))
                                                       : diff::to_text(session.style(), outcome);
        return session.output().finish(out, outcome.changes.empty() ? kExitOk : kExitFailed);
    }

  private:
    static Result<Input> load(const Fs& fs, std::string_view label, const std::string& given) {
        const std::string path = user_path(given);
        // Refused by its size before it is read; the parsed tree takes several times the text.
        auto text = fs.read_file(path, json_input::kSavedDocument.max_bytes);
        if (!text) return Gap{text.gap().reason, std::string(label) + ": " + text.gap().message};
        auto document = parse_json_input<contract::Json>(*text, path, json_input::kSavedDocument);
        if (!document)
            return Gap{document.gap().reason, std::string(label) + ": " + document.gap().message};
        auto kind = contract::identify_document(*document);
        if (!kind) {
            return Gap{kind.gap().reason,
                       std::string(label) + ": " + path + ": " + kind.gap().message};
        }
        return Input{path, std::move(document).value(), *kind};
    }

    std::string a_;
    std::string b_;
    bool all_ = false;
};

}  // namespace

std::unique_ptr<Command> make_diff_command() {
    return std::make_unique<DiffCommand>();
}

}  // namespace rdmi::cli
