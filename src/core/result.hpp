// Result<T>: a value or the Gap that explains its absence. Absence is data, not an exception.
#pragma once

#include <stdexcept>
#include <utility>
#include <variant>

#include "core/gap.hpp"

namespace rdmi {

/// Either a value or a Gap. Accessing the wrong alternative throws std::logic_error
/// (a programming error, never an input error).
template <typename T>
class Result {
  public:
    Result(T value) : data_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
    Result(Gap gap) : data_(std::move(gap)) {}    // NOLINT(google-explicit-constructor)

    /// True when a value is present.
    [[nodiscard]] bool ok() const { return std::holds_alternative<T>(data_); }
    explicit operator bool() const { return ok(); }

    /// The value; only when ok().
    [[nodiscard]] const T& value() const& { return checked_value(); }
    [[nodiscard]] T& value() & { return const_cast<T&>(checked_value()); }
    [[nodiscard]] T&& value() && { return std::move(const_cast<T&>(checked_value())); }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }

    /// The gap; only when !ok().
    [[nodiscard]] const Gap& gap() const {
        if (ok()) throw std::logic_error("Result::gap() on a value");
        return std::get<Gap>(data_);
    }

    /// The value, or `fallback` when absent.
    [[nodiscard]] T value_or(T fallback) const { return ok() ? value() : std::move(fallback); }

  private:
    const T& checked_value() const {
        if (!ok())
            throw std::logic_error("Result::value() on a gap: " + std::get<Gap>(data_).message);
        return std::get<T>(data_);
    }

    std::variant<T, Gap> data_;
};

/// Shorthand for building a Gap result.
inline Gap make_gap(GapReason reason, std::string message) {
    return Gap{reason, std::move(message)};
}

}  // namespace rdmi
