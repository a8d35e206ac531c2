// JSON parsing for inputs the program trusts to mean one thing: a key given twice in one object
// and a number no double can hold are errors that name where they are (a JSON pointer), not a
// silent "last one wins" or an exception from deep inside the JSON library.
#pragma once

#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "json/exact_number.hpp"

namespace rdmi {

/// A well-formed JSON text that is still not acceptable input: `pointer()` is the RFC 6901
/// pointer of the offending member ("" for the whole document), `what()` the problem.
class JsonInputError : public std::runtime_error {
  public:
    JsonInputError(std::string pointer, const std::string& problem)
        : std::runtime_error(problem), pointer_(std::move(pointer)) {}
    /// Where in the document the problem is, e.g. "/checks/3/name".
    [[nodiscard]] const std::string& pointer() const { return pointer_; }
    /// "<pointer>: <problem>", or just the problem at the top level.
    [[nodiscard]] std::string message() const {
        return pointer_.empty() ? std::string(what()) : pointer_ + ": " + what();
    }

  private:
    std::string pointer_;
};

/// "a~b/c" -> "a~0b~1c": a key as one JSON pointer reference token (RFC 6901).
std::string json_pointer_token(std::string_view key);

/// The pointer to member `key` (or index, spelled in decimal) of the value at `parent`:
/// parent + "/" + json_pointer_token(key).
std::string json_pointer_append(std::string_view parent, std::string_view key);

namespace detail {

// Builds the document from nlohmann's SAX events. Doing it here rather than with the DOM
// parser buys three things: a repeated key is seen (the DOM parser overwrites it), the JSON
// pointer of any error is known, and an object is built from its members in one step, which
// keeps ordered_json linear (its insert searches the members: 25,000 keys took 2.7 s, 100,000
// took 58 s).
template <class BasicJson>
class StrictSax {
  public:
    /// `exact_numbers`: keep a number no double holds as its text (json/exact_number.hpp).
    explicit StrictSax(bool exact_numbers = false) : exact_numbers_(exact_numbers) {}

    using string_t = typename BasicJson::string_t;
    using object_t = typename BasicJson::object_t;
    using array_t = typename BasicJson::array_t;

    bool null() { return put(BasicJson(nullptr)); }
    bool boolean(bool value) { return put(BasicJson(value)); }
    bool number_integer(typename BasicJson::number_integer_t value) {
        return put(BasicJson(value));
    }
    bool number_unsigned(typename BasicJson::number_unsigned_t value) {
        return put(BasicJson(value));
    }
    bool number_float(typename BasicJson::number_float_t value, const string_t& text) {
        if (exact_numbers_ && !double_holds(text, static_cast<double>(value))) {
            if (!canonical_number(text)) {
                throw JsonInputError(
                    current_pointer(),
                    "number '" + text + "': an exponent of more than 18 digits (not compared)");
            }
            return put(exact_number<BasicJson>(text));
        }
        return put(BasicJson(value));
    }
    bool string(string_t& value) { return put(BasicJson(std::move(value))); }
    bool binary(typename BasicJson::binary_t& value) {
        return put(BasicJson::binary(std::move(value)));
    }
    bool start_object(std::size_t /*size*/) {
        frames_.emplace_back();
        return true;
    }
    bool key(string_t& name) {
        Frame& frame = frames_.back();
        if (!frame.keys.insert(name).second) {
            throw JsonInputError(parent_pointer() + "/" + json_pointer_token(name),
                                 "duplicate key \"" + name + "\" (a key may appear once)");
        }
        frame.key = std::move(name);
        return true;
    }
    bool end_object() {
        Frame frame = std::move(frames_.back());
        frames_.pop_back();
        BasicJson object(BasicJson::value_t::object);
        object.template get_ref<object_t&>() =
            object_t(std::make_move_iterator(frame.members.begin()),
                     std::make_move_iterator(frame.members.end()));
        return put(std::move(object));
    }
    bool start_array(std::size_t /*size*/) {
        frames_.emplace_back();
        frames_.back().is_array = true;
        return true;
    }
    bool end_array() {
        Frame frame = std::move(frames_.back());
        frames_.pop_back();
        BasicJson array(BasicJson::value_t::array);
        array.template get_ref<array_t&>() = std::move(frame.elements);
        return put(std::move(array));
    }
    bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& error) {
        // Syntax errors keep their type (callers report them by line and column); the rest
        // (406: "number overflow parsing '1e400'") are input errors at a pointer.
        if (const auto* syntax = dynamic_cast<const nlohmann::detail::parse_error*>(&error))
            throw *syntax;
        std::string what = error.what();
        if (const auto bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        const bool overflow = what.find("number overflow") != std::string::npos;
        throw JsonInputError(current_pointer(),
                             overflow ? what + " (out of the range of a double)" : what);
    }

    BasicJson take() { return std::move(root_); }

  private:
    struct Frame {
        bool is_array = false;
        string_t key;
        std::unordered_set<string_t> keys;
        std::vector<std::pair<string_t, BasicJson>> members;
        array_t elements;
    };

    bool put(BasicJson value) {
        if (frames_.empty()) {
            root_ = std::move(value);
        } else if (frames_.back().is_array) {
            frames_.back().elements.push_back(std::move(value));
        } else {
            frames_.back().members.emplace_back(std::move(frames_.back().key), std::move(value));
        }
        return true;
    }
    // The token of the value being read inside `frame`.
    static std::string token(const Frame& frame) {
        return frame.is_array ? std::to_string(frame.elements.size())
                              : json_pointer_token(frame.key);
    }
    // The pointer of the innermost open container.
    [[nodiscard]] std::string parent_pointer() const {
        std::string out;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i) out += "/" + token(frames_[i]);
        return out;
    }
    // The pointer of the value being read now.
    [[nodiscard]] std::string current_pointer() const {
        std::string out;
        for (const auto& frame : frames_) out += "/" + token(frame);
        return out;
    }

    std::vector<Frame> frames_;
    BasicJson root_;
    bool exact_numbers_ = false;
};

}  // namespace detail

/// Parses `bytes` like BasicJson::parse, and also refuses a key repeated in one object and a
/// number out of the range of a double (both as JsonInputError naming the JSON pointer).
/// Syntax errors still throw BasicJson::parse_error, so callers keep their own line:column
/// messages for them. Linear in the input, ordered_json included. The caller bounds the depth
/// (json_too_deep_at) before calling. With `exact_numbers`, a number no double holds exactly
/// (an integer past 64 bits, a decimal with more digits than a double keeps) is kept as its
/// text (exact_number()), where it would be rounded.
template <class BasicJson>
BasicJson parse_json_strict(std::string_view bytes, bool exact_numbers = false) {
    detail::StrictSax<BasicJson> sax(exact_numbers);
    BasicJson::sax_parse(bytes.begin(), bytes.end(), &sax);
    return sax.take();
}

}  // namespace rdmi
