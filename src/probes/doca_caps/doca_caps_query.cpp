// What the DOCA child runs: load the libraries, discover the capability predicates in their
// dynamic symbol tables, list the devices and ask each one every question.
#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "api/doca_caps_api.hpp"
#include "api/doca_types.hpp"
#include "loader/dynamic_library.hpp"
#include "probes/doca_caps/doca_caps.hpp"
#include "process/containment.hpp"

namespace rdmi {
namespace {

struct Library {
    std::string path;
    std::string name;  ///< "rdma" for libdoca_rdma.so.3
    DynamicLibrary lib;
};

std::string library_name(const std::string& path) {
    std::string base = path.substr(path.rfind('/') + 1);
    if (base.rfind("libdoca_", 0) == 0) base = base.substr(8);
    return base.substr(0, base.find(".so"));
}

class ErrorNames {
  public:
    explicit ErrorNames(const DynamicLibrary* common) {
        if (common != nullptr) {
            name_ = common->function<doca::fn::error_get_name>("doca_error_get_name");
            descr_ = common->function<doca::fn::error_get_descr>("doca_error_get_descr");
        }
    }
    [[nodiscard]] bool from_library() const { return name_ != nullptr; }
    [[nodiscard]] std::string name(int error) const {
        const char* text =
            name_ != nullptr ? name_(static_cast<doca::doca_error_t>(error)) : nullptr;
        if (text != nullptr) return text;
        const auto fallback = doca::fallback_error_name(error);
        return fallback.empty() ? "doca_error " + std::to_string(error) : std::string(fallback);
    }
    [[nodiscard]] std::string descr(int error) const {
        const char* text =
            descr_ != nullptr ? descr_(static_cast<doca::doca_error_t>(error)) : nullptr;
        return text != nullptr ? text : std::string(doca::fallback_error_description(error));
    }

  private:
    doca::fn::error_get_name name_ = nullptr;
    doca::fn::error_get_descr descr_ = nullptr;
};

template <typename Fn>
Fn find(const std::vector<Library>& libs, const char* symbol) {
    for (const auto& lib : libs) {
        if (auto fn = lib.lib.function<Fn>(symbol)) return fn;
    }
    return nullptr;
}

std::string func_type_name(int type) {
    switch (type) {
        case 0:
            return "PF";
        case 1:
            return "VF";
        case 2:
            return "SF";
        default:
            return "unknown(" + std::to_string(type) + ")";
    }
}

DocaVerbsAttrs query_verbs_attrs(const Library& verbs, doca_devinfo* devinfo,
                                 const ErrorNames& names) {
    DocaVerbsAttrs out;
    using namespace doca::fn;
    auto create = verbs.lib.function<verbs_context_create>("doca_verbs_context_create");
    auto destroy = verbs.lib.function<verbs_context_destroy>("doca_verbs_context_destroy");
    auto query = verbs.lib.function<verbs_query_device>("doca_verbs_query_device");
    auto free_attr = verbs.lib.function<verbs_device_attr_free>("doca_verbs_device_attr_free");
    if (create == nullptr || destroy == nullptr || query == nullptr || free_attr == nullptr) {
        out.gap = Gap{GapReason::not_found,
                      verbs.path + ": doca_verbs_context_create/query_device not exported"};
        return out;
    }
    doca_verbs_context* context = nullptr;
    if (const int rc = create(devinfo, 0, &context); rc != 0) {
        out.gap = Gap{GapReason::error, "doca_verbs_context_create: " + names.name(rc) + " (" +
                                            names.descr(rc) + ")"};
        return out;
    }
    doca_verbs_device_attr* attr = nullptr;
    if (const int rc = query(context, &attr); rc != 0) {
        destroy(context);
        out.gap = Gap{GapReason::error,
                      "doca_verbs_query_device: " + names.name(rc) + " (" + names.descr(rc) + ")"};
        return out;
    }
    for (const auto& getter : doca::verbs_attr_getters()) {
        void* sym = verbs.lib.symbol(getter.symbol);
        if (sym == nullptr) {
            out.missing.emplace_back(getter.symbol);
            continue;
        }
        switch (getter.width) {
            case doca::AttrWidth::u32:
                out.values.emplace_back(getter.name,
                                        reinterpret_cast<verbs_attr_u32>(sym)(attr));  // NOLINT
                break;
            case doca::AttrWidth::u16:
                out.values.emplace_back(getter.name,
                                        reinterpret_cast<verbs_attr_u16>(sym)(attr));  // NOLINT
                break;
            case doca::AttrWidth::u8:
                out.values.emplace_back(getter.name,
                                        reinterpret_cast<verbs_attr_u8>(sym)(attr));  // NOLINT
                break;
            case doca::AttrWidth::atomic_cap: {
                const int cap = reinterpret_cast<verbs_attr_int>(sym)(attr);  // NOLINT
                out.atomic_cap = cap == 0 ? "none" : cap == 1 ? "hca" : cap == 2 ? "glob" : "";
                break;
            }
        }
    }
    for (const auto& [symbol, flag] : doca::verbs_attr_predicates()) {
        auto fn = verbs.lib.function<verbs_attr_predicate>(symbol);
        if (fn == nullptr) {
            out.missing.emplace_back(symbol);
        } else if (fn(attr) == 0) {
            out.supported.emplace_back(flag);
        }
    }
    free_attr(attr);
    destroy(context);
    return out;
}

// Opens each library; one that does not open is a gap of the facts, the others are listed.
std::vector<Library> open_libraries(const std::vector<std::string>& paths, DocaCapsFacts& facts) {
    std::vector<Library> libs;
    for (const auto& path : paths) {
        auto lib = DynamicLibrary::open(path);
        if (!lib) {
            facts.library_gaps.push_back(lib.gap());
            continue;
        }
        facts.libraries.push_back(path);
        libs.push_back(Library{path, library_name(path), std::move(lib).value()});
    }
    return libs;
}

// The last library called `name` ("common" for libdoca_common), or null.
const Library* library_named(const std::vector<Library>& libs, std::string_view name) {
    const Library* named = nullptr;
    for (const auto& lib : libs) {
        if (lib.name == name) named = &lib;
    }
    return named;
}

using BoundPredicates = std::vector<std::pair<doca::CapSymbol, doca::fn::devinfo_predicate>>;

// The capability predicates the libraries' dynamic symbol tables name, each bound in the
// library that exports it; their symbols, sorted, go into the facts.
BoundPredicates bind_predicates(const std::vector<Library>& libs, DocaCapsFacts& facts) {
    BoundPredicates predicates;
    for (const auto& lib : libs) {
        for (auto& cap : doca::cap_symbols(doca::exported_function_names(lib.lib.loaded_path()))) {
            auto fn = lib.lib.function<doca::fn::devinfo_predicate>(cap.symbol.c_str());
            if (fn == nullptr) continue;
            facts.predicates.push_back(cap.symbol);
            predicates.emplace_back(std::move(cap), fn);
        }
    }
    std::sort(facts.predicates.begin(), facts.predicates.end());
    return predicates;
}

// The devinfo getters that name a device, each from the first library that exports it (null
// when none does).
struct IdentityGetters {
    explicit IdentityGetters(const std::vector<Library>& libs)
        : pci(find<doca::fn::devinfo_get_pci_addr_str>(libs, "doca_devinfo_get_pci_addr_str")),
          ibdev(find<doca::fn::devinfo_get_ibdev_name>(libs, "doca_devinfo_get_ibdev_name")),
          iface(find<doca::fn::devinfo_get_iface_name>(libs, "doca_devinfo_get_iface_name")),
          func_type(
              find<doca::fn::devinfo_get_pci_func_type>(libs, "doca_devinfo_get_pci_func_type")) {}

    doca::fn::devinfo_get_pci_addr_str pci;
    doca::fn::devinfo_get_ibdev_name ibdev;
    doca::fn::devinfo_get_iface_name iface;
    doca::fn::devinfo_get_pci_func_type func_type;
};

// Asks one device every question; a call that fails is noted among the device's errors.
class DeviceQuestions {
  public:
    DeviceQuestions(doca_devinfo* info, const ErrorNames& names) : info_(info), names_(names) {}

    // Its PCI address, RDMA device and interface names, and PCI function type.
    void identity(const IdentityGetters& get) {
        std::array<char, doca::kIfaceNameSize> buf{};
        if (get.pci != nullptr) {
            if (const int rc = get.pci(info_, buf.data()); rc == 0) {
                device_.pci_address.assign(buf.data(), strnlen(buf.data(), doca::kPciAddrSize));
            } else {
                call_error("doca_devinfo_get_pci_addr_str", rc);
            }
        }
        if (get.ibdev != nullptr) {
            buf.fill('\0');
            if (const int rc = get.ibdev(info_, buf.data(), doca::kIbdevNameSize); rc == 0) {
                device_.ibdev_name.assign(buf.data(), strnlen(buf.data(), doca::kIbdevNameSize));
            } else {
                call_error("doca_devinfo_get_ibdev_name", rc);
            }
        }
        if (get.iface != nullptr) {
            buf.fill('\0');
            if (const int rc = get.iface(info_, buf.data(), doca::kIfaceNameSize); rc == 0) {
                device_.iface_name.assign(buf.data(), strnlen(buf.data(), doca::kIfaceNameSize));
            } else {
                call_error("doca_devinfo_get_iface_name", rc);
            }
        }
        if (get.func_type != nullptr) {
            doca::doca_pci_func_type type{};
            if (const int rc = get.func_type(info_, &type); rc == 0) {
                device_.pci_func_type = func_type_name(static_cast<int>(type));
            } else {
                call_error("doca_devinfo_get_pci_func_type", rc);
            }
        }
    }

    // Every capability predicate's answer; doca_dpa_cap_is_supported's also says DPA.
    void capabilities(const BoundPredicates& predicates) {
        for (const auto& [cap, fn] : predicates) {
            const int rc = fn(info_);
            DocaCapAnswer answer{cap.library, cap.flag, cap.symbol, rc == 0, "", ""};
            if (rc != 0) {
                answer.error = names_.name(rc);
                answer.description = describe_error(rc);
            } else {
                device_.supported[cap.library].push_back(cap.flag);
            }
            if (cap.symbol == "doca_dpa_cap_is_supported" &&
                (rc == 0 || rc == static_cast<int>(doca::Error::not_supported)))
                device_.dpa = rc == 0;
            device_.answers.push_back(std::move(answer));
        }
    }

    // The RDMA limits the loaded libraries have getters for.
    void rdma_values(const std::vector<Library>& libs) {
        for (const auto& getter : doca::rdma_u32_getters()) {
            auto fn = find<doca::fn::u32_getter>(libs, getter.symbol);
            if (fn == nullptr) continue;
            std::uint32_t value = 0;
            if (const int rc = fn(info_, &value); rc == 0) {
                device_.rdma_values.emplace_back(getter.name, value);
            } else {
                call_error(getter.symbol, rc);
            }
        }
    }

    void verbs_attrs(const Library& verbs) {
        device_.verbs = query_verbs_attrs(verbs, info_, names_);
    }

    DocaDevice take() { return std::move(device_); }

  private:
    // This runs in the contained worker child: DOCA_ERROR_NOT_PERMITTED may be the
    // containment's refusal, never a fact about the device.
    [[nodiscard]] std::string describe_error(int rc) const {
        std::string text = names_.descr(rc);
        const std::string note = containment_refusal_note();
        if (rc == static_cast<int>(doca::Error::not_permitted) && !note.empty())
            text += " (" + note + ")";
        return text;
    }
    void call_error(const char* symbol, int rc) {
        device_.errors.push_back({symbol, names_.name(rc), describe_error(rc)});
    }

    doca_devinfo* info_;
    const ErrorNames& names_;
    DocaDevice device_;
};

}  // namespace

DocaCapsFacts query_doca_caps(const std::vector<std::string>& libraries) {
    DocaCapsFacts facts;
    const std::vector<Library> libs = open_libraries(libraries, facts);
    const Library* common = library_named(libs, "common");
    const Library* verbs = library_named(libs, "verbs");
    const ErrorNames names(common != nullptr ? &common->lib : nullptr);
    facts.error_names = names.from_library() ? "doca_error_get_name" : "fallback table";
    const BoundPredicates predicates = bind_predicates(libs, facts);

    using namespace doca::fn;
    auto create_list = find<devinfo_create_list>(libs, "doca_devinfo_create_list");
    auto destroy_list = find<devinfo_destroy_list>(libs, "doca_devinfo_destroy_list");
    if (create_list == nullptr || destroy_list == nullptr) {
        facts.gap =
            Gap{GapReason::not_found, "no loaded DOCA library exports doca_devinfo_create_list"};
        return facts;
    }
    doca_devinfo** list = nullptr;
    std::uint32_t count = 0;
    if (const int rc = create_list(&list, &count); rc != 0) {
        facts.gap = Gap{GapReason::error, "doca_devinfo_create_list: " + names.name(rc) + " (" +
                                              names.descr(rc) + ")"};
        return facts;
    }
    const IdentityGetters identity(libs);
    for (std::uint32_t i = 0; i < count && list != nullptr && list[i] != nullptr; ++i) {
        DeviceQuestions ask(list[i], names);
        ask.identity(identity);
        ask.capabilities(predicates);
        ask.rdma_values(libs);
        if (verbs != nullptr) ask.verbs_attrs(*verbs);
        facts.devices.push_back(ask.take());
    }
    destroy_list(list);
    return facts;
}

}  // namespace rdmi
