// The DOCA function table's pointer types against the fake DOCA's header, which declares the
// published API with its real types (doca_error_t and doca_pci_func_type as C enums). This checks
// the project's transcription of the published headers, not the real library.
#include <doctest/doctest.h>

#include <type_traits>

#include "api/doca_dpa_api.hpp"
#include "fake_doca_host.h"
#include "loader/dynamic_library.hpp"

namespace {

/// A type with every enum replaced by its underlying type (through pointers, const and function
/// types): the project's enums live in rdmi::doca, DOCA's in the global namespace.
template <typename T>
struct Norm {
    using type = T;
};
template <typename T>
requires std::is_enum_v<T>
struct Norm<T> {
    using type = std::underlying_type_t<T>;
};
template <typename T>
struct Norm<const T> {
    using type = const typename Norm<T>::type;
};
template <typename T>
struct Norm<T*> {
    using type = typename Norm<T>::type*;
};
template <typename R, typename... A>
struct Norm<R (*)(A...)> {
    using type = typename Norm<R>::type (*)(typename Norm<A>::type...);
};
template <typename R, typename... A>
struct Norm<R (*)(A..., ...)> {
    using type = typename Norm<R>::type (*)(typename Norm<A>::type..., ...);
};
template <typename T>
using norm_t = typename Norm<T>::type;

template <typename F>
struct Returns;
template <typename R, typename... A>
struct Returns<R (*)(A...)> {
    using type = R;
};
template <typename R, typename... A>
struct Returns<R (*)(A..., ...)> {
    using type = R;
};

template <typename Ours, typename Theirs>
constexpr bool kSameDeclaration =
    std::is_same_v<norm_t<Ours>, norm_t<Theirs>>&& std::is_enum_v<typename Returns<Ours>::type> ==
    std::is_enum_v<typename Returns<Theirs>::type>;

// The enums: the same underlying type the compiler gives DOCA's own, and the same values.
static_assert(std::is_same_v<std::underlying_type_t<rdmi::doca::doca_error_t>,
                             std::underlying_type_t<::doca_error_t>>);
static_assert(std::is_same_v<std::underlying_type_t<rdmi::doca::doca_pci_func_type>,
                             std::underlying_type_t<::doca_pci_func_type>>);
static_assert(static_cast<int>(rdmi::doca::DOCA_ERROR_BAD_STATE) ==
              static_cast<int>(::DOCA_ERROR_BAD_STATE));
static_assert(static_cast<int>(rdmi::doca::DOCA_ERROR_DEVICE_FATAL_ERROR) ==
              static_cast<int>(::DOCA_ERROR_DEVICE_FATAL_ERROR));
static_assert(static_cast<int>(rdmi::doca::DOCA_PCI_FUNC_TYPE_SF) ==
              static_cast<int>(::DOCA_PCI_FUNC_TYPE_SF));
static_assert(sizeof(rdmi::doca::dpa_dev_mmap_t) == sizeof(::doca_dpa_dev_mmap_t));

// Every member of the table, required and optional.
#define RDMI_CHECK_DECLARATION(name)                                                    \
    static_assert(kSameDeclaration<rdmi::doca::dpa_fn::name, decltype(&::doca_##name)>, \
                  "rdmi::doca::dpa_fn::" #name " differs from the published doca_" #name);
RDMI_DOCA_DPA_REQUIRED(RDMI_CHECK_DECLARATION)
RDMI_DOCA_DPA_OPTIONAL(RDMI_CHECK_DECLARATION)
#undef RDMI_CHECK_DECLARATION

// The comparison can fail: a width, a pointer level, an enum return taken as int.
static_assert(
    !kSameDeclaration<::doca_error_t (*)(std::uint32_t*), ::doca_error_t (*)(std::uint64_t*)>);
static_assert(!kSameDeclaration<::doca_error_t (*)(void**), ::doca_error_t (*)(void*)>);
static_assert(!kSameDeclaration<unsigned (*)(void*), ::doca_error_t (*)(void*)>);
static_assert(!kSameDeclaration<::doca_error_t (*)(const void*), ::doca_error_t (*)(void*)>);

}  // namespace

TEST_CASE("the fake DOCA exports every function its header declares for the table") {
    auto fake = rdmi::DynamicLibrary::open(RDMI_TEST_FAKE_DOCA);
    REQUIRE(fake.ok());
#define RDMI_CHECK_EXPORT(name) \
    CHECK_MESSAGE(fake->symbol("doca_" #name) != nullptr, "doca_" #name);
    RDMI_DOCA_DPA_REQUIRED(RDMI_CHECK_EXPORT)
    RDMI_DOCA_DPA_OPTIONAL(RDMI_CHECK_EXPORT)
#undef RDMI_CHECK_EXPORT
}
