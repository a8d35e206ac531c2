// append_verdict: a symbol verdict as pretty JSON text, without building a DOM.
#include "report/verdict_writer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "json/json_common.hpp"

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

// An upper bound of the bytes either writer writes: each line at most its indentation plus 64
// bytes of keys, punctuation and fixed values, plus the texts, each at most six times its
// length once escaped ("\u001f" for one control byte; U+FFFD, three bytes, for an invalid one).
std::size_t verdict_bound(const SymbolVerdict& verdict, std::size_t indent) {
    std::size_t texts = verdict.name.size();
    for (const auto version : verdict.versions) texts += version.size();
    for (const auto& e : verdict.evidence) texts += e.detail.size() + e.ref.size();
    const std::size_t lines = 12 + 6 * verdict.evidence.size() + verdict.versions.size();
    return lines * (indent + 64) + 6 * texts;
}

constexpr std::size_t kStabilities = 4;
constexpr std::size_t kTypes = 10;   // null, then SymbolType's nine values
constexpr std::size_t kSources = 4;  // EvidenceSource's values
constexpr std::size_t kFirstItems = 1 + kSources * kStabilities;  // none, or (source, says)

std::size_t item_index(const Evidence& e) {
    return static_cast<std::size_t>(e.source) * kStabilities + static_cast<std::size_t>(e.says);
}

void put(char*& at, std::string_view text) {
    // An empty view may have a null data(), which memcpy must not be given even for 0 bytes.
    if (text.empty()) return;
    std::memcpy(at, text.data(), text.size());
    at += text.size();
}

}  // namespace

// The parts one after the other, in one string.
template <class... Parts>
std::string concat(const Parts&... parts) {
    std::string out;
    (out.append(std::string_view(parts)), ...);
    return out;
}

VerdictWriter::VerdictWriter(std::size_t indent) : indent_(indent) {
    const std::string m = concat("\n", std::string(indent + kStep, ' '));
    const std::string e = concat("\n", std::string(indent + 2 * kStep, ' '));
    const std::string i = concat("\n", std::string(indent + 3 * kStep, ' '));
    const std::string end = concat("\n", std::string(indent, ' '), "}");
    const auto boolean = [](bool value) { return std::string_view(value ? "true" : "false"); };
    const auto item_start = [&](std::size_t source, std::size_t says) {
        return concat("{", i, "\"source\": \"", to_string(static_cast<EvidenceSource>(source)),
                      "\",", i, "\"says\": \"", to_string(static_cast<Stability>(says)), "\",", i,
                      "\"detail\": \"");
    };
    open_ = concat("{", m, "\"name\": \"");
    head_.resize(kStabilities * 2 * 2 * kTypes);
    for (std::size_t st = 0; st < kStabilities; ++st) {
        for (std::size_t ex = 0; ex < 2; ++ex) {
            for (std::size_t de = 0; de < 2; ++de) {
                for (std::size_t ty = 0; ty < kTypes; ++ty) {
                    const std::string type =
                        ty == 0 ? std::string("null")
                                : concat("\"", to_string(static_cast<SymbolType>(ty - 1)), "\"");
                    head_[((st * 2 + ex) * 2 + de) * kTypes + ty] =
                        concat("\",", m, "\"stability\": \"", to_string(static_cast<Stability>(st)),
                               "\",", m, "\"exported\": ", boolean(ex != 0), ",", m,
                               "\"declared\": ", boolean(de != 0), ",", m, "\"type\": ", type, ",",
                               m, "\"versions\": ");
                }
            }
        }
    }
    first_version_ = concat("[", e, "\"");
    next_version_ = concat("\",", e, "\"");
    middle_.resize(std::size_t{2} * 2 * kFirstItems);
    for (std::size_t ve = 0; ve < 2; ++ve) {
        for (std::size_t ag = 0; ag < 2; ++ag) {
            for (std::size_t first = 0; first < kFirstItems; ++first) {
                const std::string items = first == 0
                                              ? concat("[]", end)
                                              : concat("[", e,
                                                       item_start((first - 1) / kStabilities,
                                                                  (first - 1) % kStabilities));
                middle_[(ve * 2 + ag) * kFirstItems + first] =
                    concat(ve != 0 ? concat("\"", m, "]") : std::string("[]"), ",", m,
                           "\"agreement\": ", boolean(ag != 0), ",", m, "\"evidence\": ", items);
            }
        }
    }
    ref_ = concat("\",", i, "\"ref\": \"");
    next_item_.resize(kSources * kStabilities);
    for (std::size_t item = 0; item < next_item_.size(); ++item) {
        next_item_[item] =
            concat("\"", e, "},", e, item_start(item / kStabilities, item % kStabilities));
    }
    close_ = concat("\"", e, "}", m, "]", end);
}

std::size_t VerdictWriter::bound(const SymbolVerdict& verdict) const {
    return verdict_bound(verdict, indent_);
}

bool VerdictWriter::plain(std::string_view text) {
    // Shared texts come back at the same address verdict after verdict: checked once.
    Seen& slot = seen_[(reinterpret_cast<std::uintptr_t>(text.data()) >> 3U) % seen_.size()];
    if (slot.data == text.data() && slot.size == text.size() && !text.empty()) return true;
    if (!needs_no_escaping(text)) return false;
    slot = {text.data(), text.size()};
    return true;
}

bool VerdictWriter::plain(const SymbolVerdict& verdict) {
    if (!needs_no_escaping(verdict.name)) return false;
    for (const auto version : verdict.versions) {
        if (!plain(version)) return false;
    }
    for (const auto& e : verdict.evidence) {
        if (!plain(e.detail) || !plain(e.ref)) return false;
    }
    return true;
}

// append_verdict_escaping()'s layout, exactly, for texts that need no escaping: some dozen
// copies a verdict, the fixed text between two values always one.
char* VerdictWriter::write_plain(char* at, const SymbolVerdict& verdict) const {
    put(at, open_);
    put(at, verdict.name);
    const std::size_t type = verdict.exported ? static_cast<std::size_t>(verdict.type) + 1 : 0;
    put(at,
        head_[((static_cast<std::size_t>(verdict.stability) * 2 + (verdict.exported ? 1 : 0)) * 2 +
               (verdict.declared ? 1 : 0)) *
                  kTypes +
              type]);
    bool first = true;
    for (const auto version : verdict.versions) {
        put(at, first ? first_version_ : next_version_);
        put(at, version);
        first = false;
    }
    const std::size_t first_item =
        verdict.evidence.empty() ? 0 : 1 + item_index(verdict.evidence[0]);
    put(at, middle_[((verdict.versions.empty() ? 0 : 2) + (verdict.sources_agree ? 1 : 0)) *
                        kFirstItems +
                    first_item]);
    for (std::size_t k = 0; k < verdict.evidence.size(); ++k) {
        const Evidence& e = verdict.evidence[k];
        if (k > 0) put(at, next_item_[item_index(e)]);
        put(at, e.detail);
        put(at, ref_);
        put(at, e.ref);
    }
    if (!verdict.evidence.empty()) put(at, close_);
    return at;
}

char* VerdictWriter::write(char* at, const SymbolVerdict& verdict) {
    if (verdict.plain_text || plain(verdict)) return write_plain(at, verdict);
    std::string text;
    append_verdict_escaping(text, verdict, indent_);
    put(at, text);
    return at;
}

void append_verdict(std::string& out, const SymbolVerdict& verdict, std::size_t indent) {
    VerdictWriter writer(indent);
    const std::size_t start = out.size();
    out.resize(start + writer.bound(verdict));
    const char* end = writer.write(out.data() + start, verdict);
    out.resize(static_cast<std::size_t>(end - out.data()));
}

}  // namespace rdmi::json
