// JSON building blocks for the core types.
#include "json/json_common.hpp"

#include "json/document_layout.hpp"

#include <memory>
#include <string>

namespace rdmi::json {

Json object(std::initializer_list<Member> members, std::size_t room) {
    Json out = Json::object();
    auto& map = out.get_ref<Json::object_t&>();
    map.reserve(members.size() + room);
    for (const auto& member : members)
        map.emplace(std::string(member.key), std::move(member.value));
    return out;
}

std::string dump(const Json& document) {
    // Appended in place: `dump() + "\n"` would copy a document of tens of megabytes.
    std::string text = document.dump(2, ' ', false, Json::error_handler_t::replace);
    text += '\n';
    return text;
}

namespace {

// The serializer's output, buffered and handed on in pieces.
class SinkOutput final : public nlohmann::detail::output_adapter_protocol<char> {
  public:
    explicit SinkOutput(const DocumentSink& sink) : sink_(sink) { buffer_.reserve(kPiece); }
    void write_character(char c) override {
        buffer_.push_back(c);
        if (buffer_.size() >= kPiece) flush();
    }
    void write_characters(const char* s, std::size_t length) override {
        buffer_.append(s, length);
        if (buffer_.size() >= kPiece) flush();
    }
    bool flush() {
        if (ok_ && !buffer_.empty()) ok_ = sink_(buffer_);
        buffer_.clear();
        return ok_;
    }

  private:
    static constexpr std::size_t kPiece = std::size_t{64} << 10U;
    const DocumentSink& sink_;
    std::string buffer_;
    bool ok_ = true;
};

DocumentLayout g_streamed_layout = DocumentLayout::indented;

}  // namespace

void set_streamed_layout(DocumentLayout layout) {
    g_streamed_layout = layout;
}

DocumentLayout streamed_layout() {
    return g_streamed_layout;
}

bool dump_to(const Json& document, const DocumentSink& sink) {
    auto output = std::make_shared<SinkOutput>(sink);
    nlohmann::detail::serializer<Json> serializer(output, ' ', Json::error_handler_t::replace);
    const bool indented = g_streamed_layout == DocumentLayout::indented;
    serializer.dump(document, indented, false, indented ? 2U : 0U);
    output->write_character('\n');
    return output->flush();
}

Json provenance(const Provenance& source) {
    return object({{"kind", source.kind}, {"ref", source.ref}});
}

Json gap(const Gap& gap) {
    return object({{"reason", to_string(gap.reason)}, {"message", gap.message}});
}

Json optional_gap(const std::optional<Gap>& maybe) {
    return maybe ? gap(*maybe) : Json(nullptr);
}

Json sourced(const Sourced<std::string>& value) {
    Json out = object({{"value", value.value ? Json(*value.value) : Json(nullptr)},
                       {"source", provenance(value.source)}});
    if (value.gap) out["gap"] = gap(*value.gap);
    return out;
}

Json check(const Check& check) {
    Json sources = Json::array();
    for (const auto& source : check.sources) sources.push_back(provenance(source));
    return object(
        {{"id", check.id.str()},
         {"status", to_string(check.status)},
         {"message", check.message},
         {"remediation", check.remediation.empty() ? Json(nullptr) : Json(check.remediation)},
         {"sources", std::move(sources)}});
}

Json checks(const std::vector<Check>& list) {
    Json out = Json::array();
    for (const auto& item : list) out.push_back(check(item));
    return out;
}

Json status_counts(const StatusCounts& counts) {
    return object({{"pass", counts.pass},
                   {"fail", counts.fail},
                   {"skip", counts.skip},
                   {"info", counts.info},
                   {"warn", counts.warn}});
}

}  // namespace rdmi::json
