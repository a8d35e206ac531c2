// The device-id table: kernel mlx5_core_pci_table and pci.ids, and the NVIDIA functions that are
// no RDMA NICs (docs/reference/sysfs-formats.md#pci-ids); DPA per the dpacc -mcpu targets
// nv-dpa-bf3/cx7/cx8/cx9 (docs/reference/sysfs-formats.md#dpa-devices).
#include "sysfs/pci_ids.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace rdmi::sysfs {
namespace {

constexpr DpaSupport kYes = DpaSupport::yes;
constexpr DpaSupport kNo = DpaSupport::no;
constexpr DpaSupport kUnknown = DpaSupport::unknown;
constexpr FunctionRole kManagement = FunctionRole::management;
constexpr FunctionRole kOther = FunctionRole::other;
constexpr std::string_view kNotNic = "not an RDMA NIC";

// VF rows say "no": a VF's DPA is its PF's, which the caller looks up instead.
constexpr std::array<PciProduct, 36> kProducts = {{
    {0x1011, "Connect-IB", false, false, kNo, ""},
    {0x1012, "Connect-IB VF", true, false, kNo, ""},
    {0x1013, "ConnectX-4", false, false, kNo, ""},
    {0x1014, "ConnectX-4 VF", true, false, kNo, ""},
    {0x1015, "ConnectX-4 Lx", false, false, kNo, ""},
    {0x1016, "ConnectX-4 Lx VF", true, false, kNo, ""},
    {0x1017, "ConnectX-5", false, false, kNo, ""},
    {0x1018, "ConnectX-5 VF", true, false, kNo, ""},
    {0x1019, "ConnectX-5 Ex", false, false, kNo, ""},
    {0x101a, "ConnectX-5 Ex VF", true, false, kNo, ""},
    {0x101b, "ConnectX-6", false, false, kNo, ""},
    {0x101c, "ConnectX-6 VF", true, false, kNo, ""},
    {0x101d, "ConnectX-6 Dx", false, false, kNo, ""},
    {0x101e, "ConnectX family mlx5Gen Virtual Function", true, false, kNo, ""},
    {0x101f, "ConnectX-6 Lx", false, false, kNo, ""},
    {0x1021, "ConnectX-7", false, false, kYes, ""},
    {0x1023, "ConnectX-8", false, false, kYes, ""},
    {0x1024, "ConnectX-8 PCIe Switch", false, false, kNo, kNotNic, kOther},
    {0x1025, "ConnectX-9", false, false, kYes, ""},
    {0x1027, "ConnectX-10", false, false, kUnknown, "unconfirmed"},
    {0x1028, "ConnectX-10 Trusted Network Control Memory", false, false, kNo, kNotNic, kOther},
    {0x2100, "CX8 Data Direct Interface", false, false, kNo, kNotNic, kOther},
    {0x2101, "ConnectX-10 NVLink-C2C", false, false, kUnknown, "unconfirmed"},
    {0x6001, "NVMe SNAP Controller", false, false, kNo, kNotNic, kOther},
    {0xa2d2, "BlueField integrated ConnectX-5 network controller", false, true, kNo, ""},
    {0xa2d3, "BlueField multicore SoC family VF", true, true, kNo, ""},
    {0xa2d6, "BlueField-2 integrated ConnectX-6 Dx network controller", false, true, kNo, ""},
    {0xa2d9, "BlueField-3 Lx integrated ConnectX-7 network controller", false, true, kUnknown,
     "unconfirmed"},
    {0xa2dc, "BlueField-3 integrated ConnectX-7 network controller", false, true, kYes, ""},
    {0xa2df, "BlueField-4 integrated network controller", false, true, kUnknown, "unconfirmed"},
    // The DPU's auxiliary communication channel is no management interface either.
    {0xc2d1, "BlueField DPU Family Auxiliary Communication Channel", false, true, kNo, kNotNic,
     kOther},
    {0xc2d2, "BlueField SoC Management Interface", false, true, kNo,
     "management function, not an mlx5 device", kManagement},
    {0xc2d3, "BlueField-2 SoC Management Interface", false, true, kNo,
     "management function, not an mlx5 device", kManagement},
    {0xc2d4, "BlueField-3 Lx SoC Management Interface", false, true, kNo,
     "management function, not an mlx5 device", kManagement},
    {0xc2d5, "BlueField-3 SoC Management Interface", false, true, kNo,
     "management function, not an mlx5 device", kManagement},
    {0xc2d6, "BlueField-4 SoC Management Interface", false, true, kNo,
     "management function, not an mlx5 device", kManagement},
}};

}  // namespace

std::string_view to_string(DpaSupport support) {
    switch (support) {
        case DpaSupport::yes:
            return "yes";
        case DpaSupport::no:
            return "no";
        case DpaSupport::unknown:
            return "unknown";
    }
    return "unknown";
}

std::string_view to_string(FunctionRole role) {
    switch (role) {
        case FunctionRole::network:
            return "network";
        case FunctionRole::management:
            return "management";
        case FunctionRole::other:
            return "other";
    }
    return "other";
}

FunctionRole role_of(std::uint32_t device_id) {
    const auto product = find_product(device_id);
    return product ? product->role : FunctionRole::network;
}

std::optional<PciProduct> find_product(std::uint32_t device_id) {
    const auto* it = std::find_if(kProducts.begin(), kProducts.end(),
                                  [&](const PciProduct& p) { return p.device_id == device_id; });
    if (it == kProducts.end()) return std::nullopt;
    return *it;
}

namespace {

// "BlueField-3" for "BlueField-3 integrated ConnectX-7 network controller": the product, not
// the NIC inside it.
std::string_view product_word(std::string_view name) {
    return name.substr(0, name.find(' '));
}

}  // namespace

std::string dpa_products_text() {
    // Family -> generations in table order: "ConnectX" -> {"7", "8", "9"}.
    std::vector<std::pair<std::string, std::vector<std::string>>> families;
    for (const auto& row : kProducts) {
        if (row.dpa != DpaSupport::yes || row.virtual_function) continue;
        const std::string_view word = product_word(row.name);
        const auto dash = word.rfind('-');
        const std::string family(word.substr(0, dash));
        const std::string generation(dash == std::string_view::npos ? "" : word.substr(dash + 1));
        auto it = std::find_if(families.begin(), families.end(),
                               [&family](const auto& f) { return f.first == family; });
        if (it == families.end()) {
            families.push_back({family, {}});
            it = families.end() - 1;
        }
        if (std::find(it->second.begin(), it->second.end(), generation) == it->second.end())
            it->second.push_back(generation);
    }
    std::sort(families.begin(), families.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out;
    for (std::size_t i = 0; i < families.size(); ++i) {
        if (i > 0) out += i + 1 == families.size() ? " or " : ", ";
        out += families[i].first;
        for (std::size_t g = 0; g < families[i].second.size(); ++g) {
            if (families[i].second[g].empty()) continue;
            out += (g == 0 ? "-" : "/") + families[i].second[g];
        }
    }
    return out;
}

std::string with_dpa_products(std::string_view text) {
    static constexpr std::string_view kPlaceholder = "{dpa-devices}";
    std::string out;
    std::size_t from = 0;
    for (auto at = text.find(kPlaceholder); at != std::string_view::npos;
         at = text.find(kPlaceholder, from)) {
        out.append(text.substr(from, at - from));
        out += dpa_products_text();
        from = at + kPlaceholder.size();
    }
    out.append(text.substr(from));
    return out;
}

}  // namespace rdmi::sysfs
