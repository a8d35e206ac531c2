// The call trace: typed trampolines generated from the API table's X-macros, so that every
// function the orchestration can call is traced with its real parameter types.
#include "probes/loopback/loopback_trace.hpp"

#include <cstring>
#include <functional>
#include <thread>
#include <tuple>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace rdmi::loopback {
namespace {

const doca::DocaDpaApi* g_real = nullptr;
std::atomic<CallTrace*> g_trace{nullptr};

std::string thread_id() {
    return hex(
        static_cast<std::uint64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id())));
}

/// One argument as text, read after the call so that out-parameters show what they received.
template <typename T>
std::string show(T value) {
    if constexpr (std::is_pointer_v<T>) {
        using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
        if (value == nullptr) return "NULL";
        if constexpr (std::is_same_v<Pointee, char> && !std::is_const_v<std::remove_pointer_t<T>>) {
            // A name buffer DOCA filled (PCI address, ibdev name): bounded, never past 256.
            return hex(static_cast<const void*>(value)) + " -> \"" +
                   std::string(value, strnlen(value, 256)) + "\"";
        } else if constexpr (std::is_pointer_v<Pointee>) {
            return hex(static_cast<const void*>(value)) + " -> " +
                   hex(static_cast<const void*>(*value));
        } else if constexpr (std::is_integral_v<Pointee> && !std::is_same_v<Pointee, char> &&
                             !std::is_same_v<Pointee, std::uint8_t>) {
            return hex(static_cast<const void*>(value)) + " -> " +
                   hex(static_cast<std::uint64_t>(*value));
        } else {
            return hex(static_cast<const void*>(value));
        }
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(value));
    } else if constexpr (std::is_integral_v<T>) {
        return sizeof(T) >= 8 ? hex(static_cast<std::uint64_t>(value))
                              : std::to_string(static_cast<long long>(value));
    } else {
        return "?";
    }
}

/// The trampoline of one table member: `Tag` names the symbol and the member.
template <typename Tag, typename Fn>
struct Trampoline;

/// C varargs cannot be forwarded: such a member is left as it is.
template <typename Tag, typename R, typename... Args>
struct Trampoline<Tag, R (*)(Args..., ...)> {
    static constexpr bool kTraced = false;
};

template <typename Tag, typename R, typename... Args>
struct Trampoline<Tag, R (*)(Args...)> {
    static constexpr bool kTraced = true;
    static R call(Args... args) {
        const auto real = g_real->*Tag::member();
        const auto start = std::chrono::steady_clock::now();
        R result = real(args...);
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count();
        if (CallTrace* trace = g_trace.load()) {
            std::vector<std::string> shown{show(args)...};
            if constexpr (std::is_pointer_v<R>) {
                trace->call(Tag::symbol(), shown, std::nullopt,
                            hex(static_cast<const void*>(result)), us);
            } else {
                trace->call(Tag::symbol(), shown, static_cast<int>(result), "", us);
            }
        }
        return result;
    }
};

template <typename Tag, typename Fn>
void install(Fn& slot) {
    if constexpr (Trampoline<Tag, Fn>::kTraced) {
        if (slot != nullptr) slot = &Trampoline<Tag, Fn>::call;
    }
}

// The fields every trace line starts with: its number, the time since the trace began, the
// thread.
nlohmann::ordered_json stamped(long seq, std::chrono::steady_clock::time_point start) {
    return nlohmann::ordered_json{
        {"seq", seq},
        {"t_us", std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                     .count()},
        {"thread", thread_id()},
    };
}

}  // namespace

std::string hex(const void* pointer) {
    if (pointer == nullptr) return "NULL";
    return hex(static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pointer)));
}

std::string hex(std::uint64_t value) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string digits;
    do {
        digits.insert(digits.begin(), kDigits[value & 0xfU]);
        value >>= 4U;
    } while (value != 0);
    return "0x" + digits;
}

CallTrace::CallTrace(AppendFile file)
    : file_(std::move(file)), start_(std::chrono::steady_clock::now()) {}

CallTrace::~CallTrace() {
    CallTrace* self = this;
    g_trace.compare_exchange_strong(self, nullptr);
}

void CallTrace::write(const std::string& line) {
    if (!file_.write_line(line)) complete_ = false;
}

void CallTrace::call(std::string_view function, const std::vector<std::string>& args,
                     std::optional<int> returned, std::string_view pointer, double elapsed_us) {
    nlohmann::ordered_json line = stamped(++seq_, start_);
    line["call"] = function;
    line["args"] = args;
    if (returned) {
        line["returned"] = *returned;
        line["error"] = std::string(doca::fallback_error_name(*returned));
    } else {
        line["returned"] = std::string(pointer);
        line["error"] = nullptr;
    }
    line["elapsed_us"] = elapsed_us;
    write(line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

void CallTrace::step(std::string_view id, std::string_view event) {
    nlohmann::ordered_json line = stamped(++seq_, start_);
    line["step"] = id;
    line["event"] = event;
    write(line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

CallTrace* active_trace() {
    return g_trace.load();
}

doca::DocaDpaApi traced_api(const doca::DocaDpaApi& api, CallTrace& trace) {
    g_real = &api;
    g_trace = &trace;
    doca::DocaDpaApi out = api;
#define RDMI_TRACE_MEMBER(name)                                                \
    {                                                                          \
        struct Tag {                                                           \
            static const char* symbol() { return "doca_" #name; }              \
            static constexpr auto member() { return &doca::DocaDpaApi::name; } \
        };                                                                     \
        install<Tag>(out.name);                                                \
    }
    RDMI_DOCA_DPA_REQUIRED(RDMI_TRACE_MEMBER)
    RDMI_DOCA_DPA_OPTIONAL(RDMI_TRACE_MEMBER)
#undef RDMI_TRACE_MEMBER
    // Error naming is how the trace and the verdict name errors, not a call of the run.
    out.error_get_name = api.error_get_name;
    out.error_get_descr = api.error_get_descr;
    return out;
}

}  // namespace rdmi::loopback
