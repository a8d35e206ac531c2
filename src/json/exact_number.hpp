// JSON numbers compared by value, exactly: an integer past 64 bits or a decimal with more
// digits than a double holds keeps its text, so that two numbers that differ never read equal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rdmi {

/// The subtype of the binary value that holds a number kept as its text. JSON text never parses
/// to a binary value, so a kept number cannot be confused with anything read.
inline constexpr std::uint8_t kExactNumberSubtype = 0x4e;

/// The number a JSON number text stands for, spelled one way: "-" for a negative number, the
/// significant digits without leading or trailing zeros, "e" and the power of ten of the last
/// digit ("12e-1" for 1.20, "1e20" for 100000000000000000000, "0" for -0.0). Two texts stand
/// for the same number exactly when these are equal. nullopt when `text` is not a JSON number
/// or its exponent has more than 18 digits.
std::optional<std::string> canonical_number(std::string_view text);

/// The shortest decimal text that reads back as `value` (std::to_chars).
std::string shortest_decimal(double value);

/// True when the double parsed from `text` stands for exactly the number `text` says, as far
/// as anything that prints it can tell: its shortest decimal is the same number. False for
/// 18446744073709551617 (2^64 + 1 reads as 2^64) and 0.10000000000000000001.
bool double_holds(std::string_view text, double value);

/// A number kept as its text (a binary value of kExactNumberSubtype).
template <class BasicJson>
BasicJson exact_number(std::string_view text) {
    return BasicJson::binary(typename BasicJson::binary_t::container_type(text.begin(), text.end()),
                             kExactNumberSubtype);
}

/// The text of a number exact_number() kept; nullopt for any other value.
template <class BasicJson>
std::optional<std::string> exact_number_text(const BasicJson& value) {
    if (!value.is_binary()) return std::nullopt;
    const auto& bytes = value.get_binary();
    if (!bytes.has_subtype() || bytes.subtype() != kExactNumberSubtype) return std::nullopt;
    return std::string(bytes.begin(), bytes.end());
}

/// canonical_number() of any number value (integer, unsigned, double, or kept as its text);
/// nullopt for a value that is not a number.
template <class BasicJson>
std::optional<std::string> canonical_number_of(const BasicJson& value) {
    if (value.is_number_unsigned())
        return canonical_number(std::to_string(value.template get<std::uint64_t>()));
    if (value.is_number_integer())
        return canonical_number(std::to_string(value.template get<std::int64_t>()));
    if (value.is_number_float())
        return canonical_number(shortest_decimal(value.template get<double>()));
    if (auto text = exact_number_text(value)) return canonical_number(*text);
    return std::nullopt;
}

/// `value` with every kept number turned back into the nearest double, for writers that take
/// only JSON's own types.
template <class BasicJson>
BasicJson with_plain_numbers(BasicJson value) {
    if (auto text = exact_number_text(value)) {
        return BasicJson(std::strtod(text->c_str(), nullptr));
    }
    if (value.is_structured()) {
        for (auto& member : value) member = with_plain_numbers(std::move(member));
    }
    return value;
}

}  // namespace rdmi
