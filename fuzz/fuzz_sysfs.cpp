// libFuzzer target: every sysfs/procfs attribute parser; the first byte picks the parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "host/proc_modules.hpp"
#include "host/proc_mounts.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/ib_attrs.hpp"
#include "sysfs/net_attrs.hpp"
#include "sysfs/pci_attrs.hpp"

namespace {

template <typename R>
void expect_one_line(const R& result) {
    if (!result && result.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    using namespace rdmi::sysfs;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 22U) {
        case 0:
            expect_one_line(attr_line(bytes));
            break;
        case 1:
            expect_one_line(parse_line(bytes));
            break;
        case 2:
            expect_one_line(parse_unsigned(bytes));
            break;
        case 3:
            expect_one_line(parse_first_line(bytes));
            break;
        case 4:
            expect_one_line(parse_decimal(bytes, 0xffffffffU));
            break;
        case 5:
            expect_one_line(parse_signed(bytes, -1, 1 << 20));
            break;
        case 6:
            expect_one_line(parse_hex(bytes, 0xffffU));
            break;
        case 7:
            expect_one_line(parse_pci_id(bytes));
            break;
        case 8:
            expect_one_line(parse_numa_node(bytes));
            break;
        case 9:
            expect_one_line(parse_count(bytes));
            break;
        case 10:
            (void)is_pci_address(bytes);
            break;
        case 11:
            expect_one_line(parse_numbered_name(bytes));
            break;
        case 12:
            expect_one_line(parse_link_layer(bytes));
            break;
        case 13:
            expect_one_line(parse_rate(bytes));
            break;
        case 14:
            expect_one_line(parse_lid(bytes));
            break;
        case 15:
            expect_one_line(parse_guid(bytes));
            break;
        case 16:
            expect_one_line(parse_fw_ver(bytes));
            break;
        case 17:
            expect_one_line(parse_gid(bytes));
            break;
        case 18:
            expect_one_line(parse_mtu(bytes));
            break;
        case 19:
            expect_one_line(parse_operstate(bytes));
            break;
        case 20:
            expect_one_line(parse_hw_address(bytes));
            (void)parse_port_name(bytes);
            break;
        default:
            expect_one_line(rdmi::host::parse_proc_modules(bytes));
            expect_one_line(rdmi::host::parse_hugetlbfs_mounts(bytes));
            (void)quote_for_message(bytes);
            break;
    }
    return 0;
}
