// append_verdict: a symbol verdict as pretty JSON text, without building a DOM.
#include "report/verdict_writer.hpp"

#include <algorithm>
#include <string_view>

#include "report/json_common.hpp"

namespace rdmi::json {
namespace {

constexpr std::size_t kStep = 2;  // json::dump's indent

// Printable ASCII other than '"' and '\\' needs no escaping: almost every symbol name, version
// node and header reference.
bool needs_no_escaping(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
    });
}

void append_string(std::string& out, std::string_view text) {
    if (needs_no_escaping(text)) {
        out.append(1, '"').append(text).append(1, '"');
        return;
    }
    // Control characters, quotes and invalid UTF-8 (a hostile ELF's names): exactly as
    // json::dump renders them.
    out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

class ObjectWriter {
  public:
    ObjectWriter(std::string& out, std::size_t indent) : out_(out), indent_(indent) { out_ += '{'; }
    ~ObjectWriter() {
        if (!first_) newline(indent_);
        out_ += '}';
    }
    ObjectWriter(const ObjectWriter&) = delete;
    ObjectWriter& operator=(const ObjectWriter&) = delete;

    std::string& key(std::string_view name) {
        // One append per member: this runs a million times for a 100k-symbol library.
        const std::string_view separator = first_ ? "\n" : ",\n";
        first_ = false;
        out_.append(separator).append(indent_ + kStep, ' ');
        out_.append(1, '"').append(name).append("\": ");
        return out_;
    }
    void string(std::string_view name, std::string_view value) { append_string(key(name), value); }
    void boolean(std::string_view name, bool value) { key(name) += value ? "true" : "false"; }
    /// An array member whose elements `write(element, indent)` appends.
    template <typename Range, typename Write>
    void array(std::string_view name, const Range& elements, Write write) {
        key(name);
        if (std::empty(elements)) {
            out_ += "[]";
            return;
        }
        out_ += '[';
        bool first = true;
        for (const auto& element : elements) {
            if (!first) out_ += ',';
            first = false;
            newline(indent_ + 2 * kStep);
            write(element, indent_ + 2 * kStep);
        }
        newline(indent_ + kStep);
        out_ += ']';
    }

  private:
    void newline(std::size_t indent) {
        out_ += '\n';
        out_.append(indent, ' ');
    }

    std::string& out_;
    std::size_t indent_;
    bool first_ = true;
};

}  // namespace

void append_verdict(std::string& out, const SymbolVerdict& verdict, std::size_t indent) {
    ObjectWriter object(out, indent);
    object.string("name", verdict.name);
    object.string("stability", to_string(verdict.stability));
    object.boolean("exported", verdict.exported);
    object.boolean("declared", verdict.declared);
    if (verdict.exported) {
        object.string("type", to_string(verdict.type));
    } else {
        object.key("type") += "null";
    }
    object.array("versions", verdict.versions,
                 [&out](std::string_view version, std::size_t) { append_string(out, version); });
    object.boolean("agreement", verdict.sources_agree);
    object.array("evidence", verdict.evidence, [&out](const Evidence& e, std::size_t depth) {
        ObjectWriter item(out, depth);
        item.string("source", to_string(e.source));
        item.string("says", to_string(e.says));
        item.string("detail", e.detail);
        item.string("ref", e.ref);
    });
}

}  // namespace rdmi::json
