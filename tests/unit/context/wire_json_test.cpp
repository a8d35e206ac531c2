// Tests for the child-to-parent JSON wires (verbs, DOCA caps, loopback verdict): truncated,
// mutated and type-confused answers end as one-line malformed Gaps, never as an exception past
// the decoder or undefined behaviour (the sanitizer build runs these too).
#include "context/wire_json.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>

#include "json/json_input.hpp"
#include "probes/doca_caps/doca_caps.hpp"
#include "probes/loopback/loopback_run.hpp"
#include "probes/verbs/verbs.hpp"
#include "unit/context/wire_samples.hpp"

namespace rdmi {
namespace {

/// A decoder reduced to "which Gap, if any".
using Decoder = std::function<std::optional<Gap>(std::string_view)>;

template <typename Decode>
Decoder gap_of(Decode decode) {
    return [decode](std::string_view text) -> std::optional<Gap> {
        auto result = decode(text);
        if (result.ok()) return std::nullopt;
        return result.gap();
    };
}

void check_one_line_malformed(const std::optional<Gap>& gap) {
    REQUIRE(gap.has_value());
    CHECK(gap->reason == GapReason::malformed);
    CHECK(gap->message.find('\n') == std::string::npos);
    CHECK(gap->message.find('\r') == std::string::npos);
}

/// Every strict prefix of a good answer is refused; every single-byte mutation either decodes
/// or is refused on one line; neither throws.
void check_hostile_bytes(const std::string& good, const Decoder& decode) {
    REQUIRE_FALSE(decode(good).has_value());
    for (std::size_t n = 0; n < good.size(); ++n) {
        CAPTURE(n);
        std::optional<Gap> gap;
        REQUIRE_NOTHROW(gap = decode(std::string_view(good).substr(0, n)));
        check_one_line_malformed(gap);
    }
    for (std::size_t i = 0; i < good.size(); ++i) {
        for (const char c : {'0', '9', '-', 'e', '"', '[', '}', ',', '\n', '\0', '\xff'}) {
            std::string bad = good;
            bad[i] = c;
            CAPTURE(bad);
            std::optional<Gap> gap;
            REQUIRE_NOTHROW(gap = decode(bad));
            if (gap) check_one_line_malformed(gap);
        }
    }
}

/// Every number of a good answer replaced by a value of the wrong type or range: decoded or
/// refused, never thrown past the decoder, never converted with undefined behaviour.
void check_hostile_numbers(const std::string& good, const Decoder& decode) {
    const auto doc = nlohmann::json::parse(good);
    const auto flat = doc.flatten();
    const nlohmann::json hostile[] = {1e300, -1.5,    -1,   4294967296.0,           1.5e10,
                                      "x",   nullptr, true, nlohmann::json::array()};
    int replaced = 0;
    for (const auto& item : flat.items()) {
        const std::string& pointer = item.key();
        const auto& value = item.value();
        if (!value.is_number()) continue;
        for (const auto& h : hostile) {
            auto bad = doc;
            bad[nlohmann::json::json_pointer(pointer)] = h;
            CAPTURE(pointer);
            CAPTURE(h.dump());
            std::optional<Gap> gap;
            REQUIRE_NOTHROW(gap = decode(bad.dump()));
            if (gap) check_one_line_malformed(gap);
            if (h.is_number_float() && (h.get<double>() < 0 || h.get<double>() >= 2147483648.0))
                CHECK(gap.has_value());
            ++replaced;
        }
    }
    CHECK(replaced > 0);
}

void check_garbage(const Decoder& decode) {
    for (const std::string& bad :
         {std::string(), std::string("   "), std::string("\xff\xfe{}"), std::string("null"),
          std::string("[1,2"), std::string("{\"a\":1} trailing"), std::string(10000, '['),
          std::string(json_input::kChildAnswer.max_bytes + 1, ' ') + "[]",
          std::string("[\"\\ud800\"]")}) {
        CAPTURE(bad.substr(0, 40));
        std::optional<Gap> gap;
        REQUIRE_NOTHROW(gap = decode(bad));
        check_one_line_malformed(gap);
    }
}

std::string good_verbs_answer() {
    VerbsDevice d;
    d.name = "mlx5_0";
    d.query = "ibv_query_device_ex";
    d.limits = {{"max_qp", 7}, {"max_mr_size", 1ULL << 40U}};
    d.device_cap_flags = {0x8001, {"resize_max_wr"}, 0x8000};
    d.odp_caps = VerbsOdpCaps{};
    VerbsPort p;
    p.port_num = 1;
    p.gids = {{0, "fe80:0000:0000:0000:0000:0000:0000:0001", "", 0, ""}};
    p.gap = Gap{GapReason::error, "port gap"};
    d.ports.push_back(p);
    VerbsDevice timed_out;
    timed_out.name = "mlx5_1";
    timed_out.gap = Gap{GapReason::timeout, "late"};
    return encode_verbs_devices({d, timed_out});
}

std::string good_verdict() {
    return loopback::encode_verdict(test::sample_loopback_verdict());
}

}  // namespace

TEST_CASE("parse_wire_json refuses floats the integer fields cannot hold, keeps the rest") {
    CHECK(parse_wire_json(R"({"a": [3.5, 0, 2147483647.0, -5]})", "answer").ok());
    for (const char* bad : {"[1e300]", "[-0.5]", "[2147483648.0]", R"({"a": {"b": [-1e-300]}})"}) {
        CAPTURE(bad);
        auto r = parse_wire_json(bad, "answer");
        REQUIRE_FALSE(r.ok());
        CHECK(r.gap().message == "answer: a number out of range for the answer's fields");
    }
    auto truncated = parse_wire_json(R"({"a": [1, )", "answer");
    REQUIRE_FALSE(truncated.ok());
    CHECK(truncated.gap().message.rfind("answer: ", 0) == 0);
    CHECK(wire_gap("w", "two\nlines\r").message == "w: two lines ");
}

TEST_CASE("verbs child's answer: truncated, mutated, type-confused and garbage input") {
    const Decoder decode = gap_of([](std::string_view t) { return decode_verbs_devices(t); });
    const std::string good = good_verbs_answer();
    check_hostile_bytes(good, decode);
    check_hostile_numbers(good, decode);
    check_garbage(decode);
    auto gap = decode(good.substr(0, good.size() / 2));
    REQUIRE(gap);
    CHECK(gap->message.rfind("verbs child sent an unreadable answer: verbs child's answer: ", 0) ==
          0);
}

TEST_CASE("DOCA child's answer: truncated, mutated, type-confused and garbage input") {
    const Decoder decode = gap_of([](std::string_view t) { return decode_doca_caps(t); });
    const std::string good = encode_doca_caps(test::sample_doca_caps());
    check_hostile_bytes(good, decode);
    check_hostile_numbers(good, decode);
    check_garbage(decode);
    // A null where a library gap must be: refused (it was dereferenced as an empty optional).
    auto doc = nlohmann::json::parse(good);
    doc["library_gaps"][0] = nullptr;
    auto gap = decode(doc.dump());
    REQUIRE(gap);
    CHECK(gap->message == "DOCA child sent an unreadable answer: a library gap is null");
}

TEST_CASE("one wire form of a Gap, in the verbs and the DOCA answers alike") {
    const Gap gap{GapReason::timeout, "ibv_open_device(mlx5_0): timed out"};
    const auto wire = gap_to_wire(gap);
    CHECK(wire == nlohmann::json::parse(
                      R"({"reason": 3, "message": "ibv_open_device(mlx5_0): timed out"})"));
    CHECK(gap_to_wire(std::nullopt).is_null());
    const auto back = gap_from_wire(wire);
    REQUIRE(back);
    CHECK(back->reason == GapReason::timeout);
    CHECK(back->message == gap.message);
    CHECK_FALSE(gap_from_wire(nullptr));
    CHECK_THROWS(gap_from_wire(nlohmann::json::parse(R"({"reason": 99, "message": "m"})")));
    CHECK_THROWS(gap_from_wire(nlohmann::json::parse(R"([3, "m"])")));
    // The DOCA answer carries its library gaps in that form.
    DocaCapsFacts facts = test::sample_doca_caps();
    facts.library_gaps = {gap};
    const auto doc = nlohmann::json::parse(encode_doca_caps(facts));
    CHECK(doc["library_gaps"][0] == wire);
}

TEST_CASE("loopback child's verdict: truncated, mutated, type-confused and garbage input") {
    const Decoder decode = gap_of([](std::string_view t) { return loopback::decode_verdict(t); });
    const std::string good = good_verdict();
    check_hostile_bytes(good, decode);
    check_hostile_numbers(good, decode);
    check_garbage(decode);
    // An unknown outcome name with a newline in it stays one line.
    auto doc = nlohmann::json::parse(good);
    doc["steps"][0]["outcome"] = "pa\nss";
    auto gap = decode(doc.dump());
    REQUIRE(gap);
    CHECK(gap->message.find('\n') == std::string::npos);
}

}  // namespace rdmi
