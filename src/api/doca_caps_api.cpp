// Capability symbol classification and the in-memory .dynsym reader.
#include "api/doca_caps_api.hpp"

#include <link.h>

#include <algorithm>
#include <cstring>

namespace rdmi::doca {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool plain_name(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

struct Search {
    std::string path;
    std::vector<std::string> names;
    bool found = false;
};

// glibc relocates d_ptr in place on most architectures but not all (read-only dynamic
// sections on MIPS/RISC-V); an address below the load base is still relative.
template <typename T>
const T* dyn_ptr(ElfW(Addr) base, ElfW(Addr) value) {
    return reinterpret_cast<const T*>(value < base ? base + value : value);  // NOLINT
}

std::size_t symbol_count(ElfW(Addr) base, const ElfW(Dyn) * dyn) {
    const ElfW(Word)* hash = nullptr;
    const std::uint32_t* gnu_hash = nullptr;
    for (; dyn->d_tag != DT_NULL; ++dyn) {
        if (dyn->d_tag == DT_HASH) hash = dyn_ptr<ElfW(Word)>(base, dyn->d_un.d_ptr);
        if (dyn->d_tag == DT_GNU_HASH) gnu_hash = dyn_ptr<std::uint32_t>(base, dyn->d_un.d_ptr);
    }
    if (hash != nullptr) return hash[1];  // nchain == number of symbols
    if (gnu_hash == nullptr) return 0;
    const std::uint32_t nbuckets = gnu_hash[0];
    const std::uint32_t symoffset = gnu_hash[1];
    const std::uint32_t bloom_size = gnu_hash[2];
    const auto* buckets = gnu_hash + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
    const auto* chain = buckets + nbuckets;
    std::uint32_t last = 0;
    for (std::uint32_t i = 0; i < nbuckets; ++i) last = std::max(last, buckets[i]);
    if (last < symoffset) return symoffset;
    while ((chain[last - symoffset] & 1U) == 0) ++last;
    return last + 1;
}

int visit(dl_phdr_info* info, std::size_t, void* data) {
    auto* search = static_cast<Search*>(data);
    if (info->dlpi_name == nullptr || search->path != info->dlpi_name) return 0;
    search->found = true;
    const ElfW(Dyn)* dynamic = nullptr;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
            dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr +  // NOLINT
                                                         info->dlpi_phdr[i].p_vaddr);
        }
    }
    if (dynamic == nullptr) return 1;
    const ElfW(Sym)* symtab = nullptr;
    const char* strtab = nullptr;
    for (const auto* d = dynamic; d->d_tag != DT_NULL; ++d) {
        if (d->d_tag == DT_SYMTAB) symtab = dyn_ptr<ElfW(Sym)>(info->dlpi_addr, d->d_un.d_ptr);
        if (d->d_tag == DT_STRTAB) strtab = dyn_ptr<char>(info->dlpi_addr, d->d_un.d_ptr);
    }
    if (symtab == nullptr || strtab == nullptr) return 1;
    const std::size_t count = symbol_count(info->dlpi_addr, dynamic);
    for (std::size_t i = 1; i < count; ++i) {
        const auto& sym = symtab[i];
        const auto bind = ELF64_ST_BIND(sym.st_info);
        if (sym.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym.st_info) != STT_FUNC) continue;
        if (bind != STB_GLOBAL && bind != STB_WEAK) continue;
        search->names.emplace_back(strtab + sym.st_name);  // NOLINT
    }
    return 1;
}

}  // namespace

std::optional<CapSymbol> classify_cap_symbol(std::string_view name) {
    if (name == "doca_dpa_cap_is_supported") return CapSymbol{std::string(name), "dpa", "dpa"};
    constexpr std::string_view kPrefix = "doca_";
    if (name.substr(0, kPrefix.size()) != kPrefix || !plain_name(name)) return std::nullopt;
    const auto cap = name.find("_cap_");
    if (cap == std::string_view::npos || cap <= kPrefix.size()) return std::nullopt;
    const std::string library(name.substr(kPrefix.size(), cap - kPrefix.size()));
    const std::string_view rest = name.substr(cap + 5);
    if (library.rfind("devinfo", 0) == 0) return std::nullopt;
    constexpr std::string_view kTask = "task_";
    constexpr std::string_view kIsSupported = "_is_supported";
    if (rest.substr(0, kTask.size()) == kTask && ends_with(rest, kIsSupported) &&
        rest.size() > kTask.size() + kIsSupported.size()) {
        return CapSymbol{std::string(name), library,
                         std::string(rest.substr(0, rest.size() - kIsSupported.size()))};
    }
    constexpr std::string_view kSupported = "_supported";
    if (library == "sync_event" && ends_with(rest, kSupported) && rest.size() > kSupported.size()) {
        return CapSymbol{std::string(name), library,
                         std::string(rest.substr(0, rest.size() - kSupported.size()))};
    }
    return std::nullopt;
}

std::vector<CapSymbol> cap_symbols(const std::vector<std::string>& names) {
    std::vector<CapSymbol> out;
    for (const auto& name : names) {
        if (auto cap = classify_cap_symbol(name)) out.push_back(std::move(*cap));
    }
    std::sort(out.begin(), out.end(),
              [](const CapSymbol& a, const CapSymbol& b) { return a.symbol < b.symbol; });
    out.erase(
        std::unique(out.begin(), out.end(),
                    [](const CapSymbol& a, const CapSymbol& b) { return a.symbol == b.symbol; }),
        out.end());
    return out;
}

std::vector<std::string> exported_function_names(const std::string& path) {
    Search search{path, {}, false};
    dl_iterate_phdr(&visit, &search);
    return search.names;
}

const std::vector<U32Getter>& rdma_u32_getters() {
    static const std::vector<U32Getter> kGetters = {
        {"doca_rdma_cap_get_max_recv_queue_size", "max_recv_queue_size"},
        {"doca_rdma_cap_get_max_send_queue_size", "max_send_queue_size"},
        {"doca_rdma_cap_get_max_send_buf_list_len", "max_send_buf_list_len"},
        {"doca_rdma_cap_get_max_message_size", "max_message_size"},
        {"doca_rdma_cap_get_gid_table_size", "gid_table_size"},
    };
    return kGetters;
}

const std::vector<VerbsAttrGetter>& verbs_attr_getters() {
    static const std::vector<VerbsAttrGetter> kGetters = {
        {"doca_verbs_device_attr_get_max_qp", "max_qp", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_qp_wr", "max_qp_wr", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_sge", "max_sge", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_cq", "max_cq", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_cqe", "max_cqe", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_mr", "max_mr", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_pd", "max_pd", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_ah", "max_ah", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_srq", "max_srq", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_srq_wr", "max_srq_wr", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_srq_sge", "max_srq_sge", AttrWidth::u32},
        {"doca_verbs_device_attr_get_max_pkeys", "max_pkeys", AttrWidth::u16},
        {"doca_verbs_device_attr_get_max_qp_rd_atom", "max_qp_rd_atom", AttrWidth::u8},
        {"doca_verbs_device_attr_get_max_qp_init_rd_atom", "max_qp_init_rd_atom", AttrWidth::u8},
        {"doca_verbs_device_attr_get_atomic_cap", "atomic_cap", AttrWidth::atomic_cap},
    };
    return kGetters;
}

const std::vector<std::pair<const char*, const char*>>& verbs_attr_predicates() {
    static const std::vector<std::pair<const char*, const char*>> kPredicates = {
        {"doca_verbs_device_attr_get_is_dpa_external_datapath_supported", "dpa_external_datapath"},
        {"doca_verbs_device_attr_get_is_gpu_external_datapath_supported", "gpu_external_datapath"},
        {"doca_verbs_device_attr_get_is_ece_supported", "ece"},
        {"doca_verbs_device_attr_get_is_cc_group_supported", "cc_group"},
        {"doca_verbs_device_attr_get_is_cqe_inline_supported", "cqe_inline"},
    };
    return kPredicates;
}

}  // namespace rdmi::doca
