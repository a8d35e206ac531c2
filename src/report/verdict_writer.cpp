// append_verdict: a symbol verdict as pretty JSON text, without building a DOM.
#include "report/verdict_writer.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "core/json_common.hpp"

namespace rdmi::json {
namespace {

constexpr std::size_t kStep = 2;  // json::dump's indent

// Printable ASCII other than '"' and '\\' needs no escaping: almost every symbol name, version
// node and header reference.
constexpr std::array<bool, 256> kPlainBytes = [] {
    std::array<bool, 256> plain{};
    for (unsigned byte = 0x20; byte < 0x7f; ++byte) plain[byte] = byte != '"' && byte != '\\';
    return plain;
}();

bool needs_no_escaping(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return kPlainBytes[static_cast<unsigned char>(c)]; });
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

namespace {

// The general writer: any text, escaped as json::dump escapes it.
void append_verdict_escaping(std::string& out, const SymbolVerdict& verdict, std::size_t indent) {
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

// Whether every text of the verdict is written as it is (no escaping): then the fast writer
// below applies.
bool plain(const SymbolVerdict& verdict) {
    if (!needs_no_escaping(verdict.name)) return false;
    for (const auto version : verdict.versions) {
        if (!needs_no_escaping(version)) return false;
    }
    for (const auto& e : verdict.evidence) {
        if (!needs_no_escaping(e.detail) || !needs_no_escaping(e.ref)) return false;
    }
    return true;
}

// Writes into memory reserved beforehand: no capacity check or size update per piece, which
// was most of the cost of a 100k-symbol document (about 8,000 instructions a verdict).
class Cursor {
  public:
    explicit Cursor(char* at) : at_(at) {}
    Cursor& put(std::string_view text) {
        // An empty view may have a null data(), which memcpy must not be given even for 0 bytes.
        if (text.empty()) return *this;
        std::memcpy(at_, text.data(), text.size());
        at_ += text.size();
        return *this;
    }
    Cursor& spaces(std::size_t n) {
        std::memset(at_, ' ', n);
        at_ += n;
        return *this;
    }
    Cursor& quoted(std::string_view text) { return put("\"").put(text).put("\""); }
    // ",\n" (or "\n" for the first member), the indentation, "\"key\": ".
    Cursor& key(bool first, std::size_t indent, std::string_view name) {
        return put(first ? "\n" : ",\n").spaces(indent).put("\"").put(name).put("\": ");
    }
    [[nodiscard]] char* at() const { return at_; }

  private:
    char* at_;
};

// An upper bound of the bytes write_plain() writes: each line at most its indentation plus 64
// bytes of keys, punctuation and fixed values, plus the texts.
std::size_t plain_bound(const SymbolVerdict& verdict, std::size_t indent) {
    std::size_t texts = verdict.name.size();
    for (const auto version : verdict.versions) texts += version.size();
    for (const auto& e : verdict.evidence) texts += e.detail.size() + e.ref.size();
    const std::size_t lines = 12 + 6 * verdict.evidence.size() + verdict.versions.size();
    return lines * (indent + 64) + texts;
}

// The fixed text between the values of a verdict nested `indent` deep: keys, punctuation and
// indentation run together, so that a verdict is some 25 copies instead of 100 small appends.
struct Pieces {
    explicit Pieces(std::size_t depth) : indent(depth) {
        const std::string m = "\n" + std::string(depth + kStep, ' ');
        const std::string e = "\n" + std::string(depth + 2 * kStep, ' ');
        const std::string i = "\n" + std::string(depth + 3 * kStep, ' ');
        name = "{" + m + "\"name\": \"";
        stability = "\"," + m + "\"stability\": \"";
        exported = "\"," + m + "\"exported\": ";
        declared = "," + m + "\"declared\": ";
        type = "," + m + "\"type\": ";
        versions = "," + m + "\"versions\": ";
        first_version = "[" + e + "\"";
        next_version = "\"," + e + "\"";
        versions_end = "\"" + m + "]";
        agreement = "," + m + "\"agreement\": ";
        evidence = "," + m + "\"evidence\": ";
        first_item = "[" + e + "{" + i + "\"source\": \"";
        next_item = "\"" + e + "}," + e + "{" + i + "\"source\": \"";
        says = "\"," + i + "\"says\": \"";
        detail = "\"," + i + "\"detail\": \"";
        ref = "\"," + i + "\"ref\": \"";
        items_end = "\"" + e + "}" + m + "]";
        close = "\n" + std::string(depth, ' ') + "}";
    }
    std::size_t indent;
    std::string name, stability, exported, declared, type, versions, first_version, next_version,
        versions_end, agreement, evidence, first_item, next_item, says, detail, ref, items_end,
        close;
};

// append_verdict_escaping()'s layout, exactly, for texts that need no escaping.
char* write_plain(char* at, const SymbolVerdict& verdict, std::size_t indent) {
    static thread_local std::optional<Pieces> cached;
    if (!cached || cached->indent != indent) cached.emplace(indent);
    const Pieces& p = *cached;
    Cursor out(at);
    const auto boolean = [](bool value) { return value ? std::string_view("true") : "false"; };
    out.put(p.name).put(verdict.name);
    out.put(p.stability).put(to_string(verdict.stability));
    out.put(p.exported).put(boolean(verdict.exported));
    out.put(p.declared).put(boolean(verdict.declared));
    out.put(p.type);
    if (verdict.exported) {
        out.quoted(to_string(verdict.type));
    } else {
        out.put("null");
    }
    out.put(p.versions);
    if (verdict.versions.empty()) {
        out.put("[]");
    } else {
        bool first = true;
        for (const auto version : verdict.versions) {
            out.put(first ? p.first_version : p.next_version).put(version);
            first = false;
        }
        out.put(p.versions_end);
    }
    out.put(p.agreement).put(boolean(verdict.sources_agree));
    out.put(p.evidence);
    if (verdict.evidence.empty()) {
        out.put("[]");
    } else {
        bool first = true;
        for (const auto& e : verdict.evidence) {
            out.put(first ? p.first_item : p.next_item).put(to_string(e.source));
            first = false;
            out.put(p.says).put(to_string(e.says));
            out.put(p.detail).put(e.detail);
            out.put(p.ref).put(e.ref);
        }
        out.put(p.items_end);
    }
    out.put(p.close);
    return out.at();
}

}  // namespace

void append_verdict(std::string& out, const SymbolVerdict& verdict, std::size_t indent) {
    if (!plain(verdict)) {
        append_verdict_escaping(out, verdict, indent);
        return;
    }
    const std::size_t start = out.size();
    out.resize(start + plain_bound(verdict, indent));
    const char* end = write_plain(out.data() + start, verdict, indent);
    out.resize(static_cast<std::size_t>(end - out.data()));
}

}  // namespace rdmi::json
