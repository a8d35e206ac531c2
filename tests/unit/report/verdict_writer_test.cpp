// append_verdict must write exactly what json::dump writes for the same object, nested.
#include "report/verdict_writer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "json/json_common.hpp"

namespace rdmi::json {
namespace {

// The reference: the verdict as an nlohmann object, dumped, then indented like an element of a
// top-level array (json::dump puts those four spaces in).
std::string reference(const SymbolVerdict& v) {
    Json evidence = Json::array();
    for (const auto& e : v.evidence) {
        Json item = Json::object();
        item["source"] = to_string(e.source);
        item["says"] = to_string(e.says);
        item["detail"] = e.detail;
        item["ref"] = e.ref;
        evidence.push_back(item);
    }
    Json expected = Json::object();
    expected["name"] = v.name;
    expected["stability"] = to_string(v.stability);
    expected["exported"] = v.exported;
    expected["declared"] = v.declared;
    expected["type"] = v.exported ? Json(to_string(v.type)) : Json(nullptr);
    expected["versions"] = Json::array();
    for (const auto version : v.versions) expected["versions"].push_back(version);
    expected["agreement"] = v.sources_agree;
    expected["evidence"] = evidence;
    std::string text = expected.dump(2, ' ', false, Json::error_handler_t::replace);
    std::string indented;
    for (const char c : text) {
        indented += c;
        if (c == '\n') indented += "    ";
    }
    return indented;
}

std::string written(const SymbolVerdict& v) {
    std::string out;
    append_verdict(out, v, 4);
    return out;
}

// What a verdict's spans view (an audit's store holds it in the probe).
struct Backing {
    std::vector<std::string_view> versions{"@@EXPERIMENTAL"};
    std::vector<Evidence> evidence{
        {EvidenceSource::version_node, Stability::experimental, "EXPERIMENTAL",
         "libdoca_rdmi.so.3"},
        {EvidenceSource::header, Stability::experimental, "DOCA_EXPERIMENTAL",
         "doca_rdmi_connection.h:42"},
    };
};

SymbolVerdict typical(const Backing& backing) {
    SymbolVerdict v;
    v.name = "doca_rdmi_connection_create";
    v.stability = Stability::experimental;
    v.exported = true;
    v.declared = true;
    v.type = SymbolType::func;
    v.versions = backing.versions;
    v.evidence = backing.evidence;
    return v;
}

TEST_CASE("append_verdict writes json::dump's layout for a typical verdict") {
    const Backing backing;
    const auto v = typical(backing);
    CHECK(written(v) == reference(v));
}

TEST_CASE("append_verdict writes empty arrays and a null type as json::dump does") {
    SymbolVerdict v;
    v.name = "doca_rdmi_only_declared";
    v.declared = true;
    v.sources_agree = false;
    CHECK(written(v) == reference(v));
    CHECK(written(v).find("\"type\": null") != std::string::npos);
    CHECK(written(v).find("\"versions\": []") != std::string::npos);
}

TEST_CASE("append_verdict escapes what json::dump escapes and replaces invalid UTF-8") {
    Backing backing;
    std::string name;    // what v.name views, when the subcase sets it
    std::string detail;  // what the first evidence's detail views
    SUBCASE("quotes and backslashes") {
        name = R"(doca_"quoted"\name)";
    }
    SUBCASE("control characters") {
        detail = std::string("tab\there\nnl\x01", 13);
        backing.evidence[0].detail = detail;
    }
    SUBCASE("valid UTF-8 stays as it is") {
        backing.evidence[1].ref =
            "h\xc3\xa9"
            "ader.h:1";
    }
    SUBCASE("invalid UTF-8 becomes U+FFFD") {
        backing.versions = {"@@NODE\xff\xfe", ""};
    }
    SUBCASE("a NUL byte") {
        name = std::string("doca_a\0b", 8);
    }
    auto v = typical(backing);
    if (!name.empty()) v.name = name;
    CHECK(written(v) == reference(v));
}

TEST_CASE("append_verdict escapes any byte at any place of a name, in a whole word or the tail") {
    // Plain texts are found eight bytes at a time: each byte value is tried in the first and
    // last place of a word and in the tail after the last whole word.
    const Backing backing;
    auto v = typical(backing);
    for (const std::size_t at : {0U, 7U, 8U, 15U, 16U}) {
        for (unsigned byte = 0; byte < 256; ++byte) {
            std::string name = "doca_rdmi_abcdefgh";  // 18 bytes: two words and a tail of two
            name[at] = static_cast<char>(byte);
            v.name = name;
            INFO("byte ", byte, " at ", at);
            CHECK(written(v) == reference(v));
        }
    }
}

TEST_CASE("a verdict marked plain_text is written as json::dump writes it, unchecked") {
    const Backing backing;
    auto v = typical(backing);
    v.plain_text = true;
    CHECK(written(v) == reference(v));
}

TEST_CASE("one VerdictWriter writes many verdicts, plain and escaped, each as json::dump does") {
    // The writer remembers shared texts found plain by address: a text that needs escaping, or
    // one at the same address with another length, must not pass for one it has seen.
    Backing plain_backing;
    const std::string shared = "libdoca_rdmi.so.3\"quoted\"";
    Backing quoted_backing;
    quoted_backing.evidence[0].ref = shared;
    Backing shorter_backing;
    shorter_backing.evidence[0].ref = std::string_view(shared).substr(0, 17);  // plain prefix
    std::vector<SymbolVerdict> verdicts = {typical(plain_backing), typical(shorter_backing),
                                           typical(quoted_backing), typical(shorter_backing),
                                           typical(plain_backing)};
    verdicts[1].exported = false;
    verdicts[2].stability = Stability::deprecated;
    verdicts[3].sources_agree = false;
    verdicts[4].versions = {};
    VerdictWriter writer(4);
    for (const auto& v : verdicts) {
        std::string out(writer.bound(v), '\0');
        const char* end = writer.write(out.data(), v);
        out.resize(static_cast<std::size_t>(end - out.data()));
        CHECK(out == reference(v));
    }
}

TEST_CASE("append_verdict nests at any indent") {
    const Backing backing;
    const auto v = typical(backing);
    std::string out;
    append_verdict(out, v, 0);
    CHECK(Json::parse(out)["evidence"][1]["ref"] == "doca_rdmi_connection.h:42");
    CHECK(out.find("\n  \"name\"") != std::string::npos);
}

}  // namespace
}  // namespace rdmi::json
