// read_dynamic_info: the program headers and the PT_DYNAMIC entries through libelf
// (gelf_getphdr, gelf_getdyn over the segment's bytes), DT_STRTAB's address mapped to a file
// offset through the PT_LOAD segments (glibc elf/dl-load.c does the same).
#include "loader/elf_dynamic.hpp"

#include <elf.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

namespace rdmi {
namespace {

struct Segment {
    std::uint64_t vaddr = 0;
    std::uint64_t offset = 0;
    std::uint64_t filesz = 0;
};

bool host_is_little_endian() {
    const std::uint16_t probe = 1;
    std::uint8_t first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 1;
}

std::optional<std::uint64_t> file_offset(const std::vector<Segment>& loads, std::uint64_t vaddr) {
    for (const auto& seg : loads) {
        if (vaddr >= seg.vaddr && vaddr - seg.vaddr < seg.filesz) {
            return seg.offset + (vaddr - seg.vaddr);
        }
    }
    return std::nullopt;
}

// PT_INTERP as the kernel's ELF loader reads it (fs/binfmt_elf.c): 2 to PATH_MAX bytes whose
// last one is NUL, else the exec fails; the path ends at the first NUL.
Result<std::string> read_interpreter(std::string_view bytes, const Segment& interp) {
    constexpr std::uint64_t kInterpMax = 4096;  // PATH_MAX
    if (interp.filesz < 2 || interp.filesz > kInterpMax || interp.offset > bytes.size() ||
        bytes.size() - interp.offset < interp.filesz) {
        return make_gap(GapReason::malformed, "PT_INTERP lies outside the file or is too long");
    }
    const std::string_view text = bytes.substr(interp.offset, interp.filesz);
    if (text.back() != '\0') return make_gap(GapReason::malformed, "PT_INTERP is not terminated");
    return std::string(text.substr(0, text.find('\0')));
}

// The most bytes of dynamic strings one file may name. Each DT_NEEDED costs 16 bytes of the file
// but may name a string as long as DT_STRTAB; ld.so points into the table, this copies, so a 4 MB
// file of offsets into one long string asked for 100 GB. Real objects name a few kilobytes.
constexpr std::size_t kMaxDynamicStringBytes = std::size_t{16} << 20U;

std::string libelf_error() {
    const char* message = elf_errmsg(-1);
    return message != nullptr ? message : "unknown libelf error";
}

struct Ref {
    std::int64_t tag;
    std::uint64_t value;
};

// The program headers: the PT_LOAD segments, the PT_DYNAMIC and the first PT_INTERP.
struct Segments {
    std::vector<Segment> loads;
    std::optional<Segment> dynamic;
    std::optional<Segment> interp;
};

Result<Segments> read_segments(Elf* elf, const GElf_Ehdr& ehdr) {
    if (ehdr.e_phentsize != gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT)) {
        return make_gap(GapReason::malformed,
                        "unexpected program header size " + std::to_string(ehdr.e_phentsize));
    }
    Segments segments;
    // e_phnum as ld.so takes it (elf_getphdrnum would read PN_XNUM's count from section 0).
    for (int i = 0; i < static_cast<int>(ehdr.e_phnum); ++i) {
        GElf_Phdr ph{};
        if (gelf_getphdr(elf, i, &ph) == nullptr)
            return make_gap(GapReason::malformed, "program headers run past the end");
        const Segment seg{ph.p_vaddr, ph.p_offset, ph.p_filesz};
        if (ph.p_type == PT_LOAD) segments.loads.push_back(seg);
        if (ph.p_type == PT_DYNAMIC) segments.dynamic = seg;
        if (ph.p_type == PT_INTERP && !segments.interp) segments.interp = seg;  // the kernel's
    }
    return segments;
}

// The DT_* entries of PT_DYNAMIC up to DT_NULL: its p_filesz bytes, or with a p_filesz of 0
// up to the end of the file; an entry that would run past the end is malformed.
Result<std::vector<GElf_Dyn>> read_dynamic_entries(Elf* elf, std::size_t file_size,
                                                   const Segment& dynamic) {
    const std::uint64_t entry = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
    const Gap past_end{GapReason::malformed, "dynamic section runs past the end"};
    if (entry == 0 || dynamic.offset > file_size) return past_end;
    const std::uint64_t in_file = (file_size - dynamic.offset) / entry;
    const std::uint64_t wanted =
        dynamic.filesz == 0 ? in_file : (dynamic.filesz + entry - 1) / entry;
    const std::uint64_t count = std::min(wanted, in_file);
    std::vector<GElf_Dyn> entries;
    if (count > 0) {
        Elf_Data* data = elf_getdata_rawchunk(elf, static_cast<std::int64_t>(dynamic.offset),
                                              count * entry, ELF_T_DYN);
        if (data == nullptr) return past_end;
        for (int i = 0; i < static_cast<int>(count); ++i) {
            GElf_Dyn dyn{};
            if (gelf_getdyn(data, i, &dyn) == nullptr) return past_end;
            if (dyn.d_tag == DT_NULL) return entries;
            entries.push_back(dyn);
        }
    }
    // No DT_NULL: the end of p_filesz ends the section; the end of the file breaks it.
    if (dynamic.filesz != 0 && count == wanted) return entries;
    return past_end;
}

Result<DynamicInfo> read_image(Elf* elf, std::string_view bytes, unsigned elf_class) {
    GElf_Ehdr ehdr{};
    if (gelf_getehdr(elf, &ehdr) == nullptr)
        return make_gap(GapReason::malformed, "truncated ELF header");
    DynamicInfo info;
    info.elf_class = elf_class;
    info.machine = ehdr.e_machine;
    auto segments = read_segments(elf, ehdr);
    if (!segments) return segments.gap();
    if (segments->interp) {
        auto text = read_interpreter(bytes, *segments->interp);
        if (!text) return text.gap();
        info.interpreter = std::move(text).value();
    }
    if (!segments->dynamic) return info;  // statically linked: nothing to load
    info.has_dynamic = true;
    auto entries = read_dynamic_entries(elf, bytes.size(), *segments->dynamic);
    if (!entries) return entries.gap();
    std::optional<std::uint64_t> strtab;
    std::uint64_t strsz = 0;
    std::vector<Ref> refs;
    for (const GElf_Dyn& dyn : *entries) {
        const auto tag = static_cast<std::int64_t>(dyn.d_tag);
        const auto value = static_cast<std::uint64_t>(dyn.d_un.d_val);
        if (tag == DT_STRTAB) strtab = file_offset(segments->loads, value);
        if (tag == DT_STRSZ) strsz = value;
        // Every way a link asks ld.so to bind at load (-z now): then a missing symbol stops the
        // program before main, not at its first call.
        if (tag == DT_BIND_NOW || (tag == DT_FLAGS && (value & DF_BIND_NOW) != 0) ||
            (tag == DT_FLAGS_1 && (value & DF_1_NOW) != 0))
            info.bind_now = true;
        if (tag == DT_NEEDED || tag == DT_SONAME || tag == DT_RPATH || tag == DT_RUNPATH ||
            tag == DT_AUXILIARY || tag == DT_FILTER) {
            refs.push_back({tag, value});
        }
    }
    if (refs.empty()) return info;
    if (!strtab || *strtab > bytes.size() || strsz > bytes.size() - *strtab) {
        return make_gap(GapReason::malformed, "DT_STRTAB lies outside the file");
    }
    const std::string_view strings = bytes.substr(*strtab, strsz);
    std::size_t copied = 0;
    for (const auto& ref : refs) {
        if (ref.value >= strings.size()) {
            return make_gap(GapReason::malformed, "a dynamic string lies outside DT_STRTAB");
        }
        const auto end = strings.find('\0', ref.value);
        if (end == std::string_view::npos) {
            return make_gap(GapReason::malformed, "an unterminated dynamic string");
        }
        copied += end - ref.value;
        if (copied > kMaxDynamicStringBytes) {
            return make_gap(GapReason::malformed, "its dynamic strings total more than " +
                                                      std::to_string(kMaxDynamicStringBytes) +
                                                      " bytes");
        }
        std::string text(strings.substr(ref.value, end - ref.value));
        switch (ref.tag) {
            case DT_NEEDED:
                info.needed.push_back(std::move(text));
                break;
            case DT_SONAME:
                info.soname = std::move(text);
                break;
            case DT_RPATH:
                info.rpath = std::move(text);
                break;
            case DT_AUXILIARY:
            case DT_FILTER:
                info.filtees.push_back(std::move(text));
                break;
            default:
                info.runpath = std::move(text);
                info.has_runpath = true;
                break;
        }
    }
    return info;
}

}  // namespace

Result<DynamicInfo> read_dynamic_info(std::string_view image) {
    const std::string_view bytes = image;
    if (bytes.size() < EI_NIDENT || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) {
        return make_gap(GapReason::malformed, "not an ELF file");
    }
    const auto data = static_cast<unsigned char>(bytes[EI_DATA]);
    if ((data == ELFDATA2LSB) != host_is_little_endian()) {
        return make_gap(GapReason::malformed, "ELF byte order differs from this machine's");
    }
    unsigned elf_class = 0;
    std::size_t header_size = 0;
    switch (static_cast<unsigned char>(bytes[EI_CLASS])) {
        case ELFCLASS64:
            elf_class = 64;
            header_size = sizeof(Elf64_Ehdr);
            break;
        case ELFCLASS32:
            elf_class = 32;
            header_size = sizeof(Elf32_Ehdr);
            break;
        default:
            return make_gap(GapReason::malformed, "unknown ELF class");
    }
    if (bytes.size() < header_size) return make_gap(GapReason::malformed, "truncated ELF header");
    static const bool libelf_ready = elf_version(EV_CURRENT) != EV_NONE;
    if (!libelf_ready) return make_gap(GapReason::error, "libelf refuses EV_CURRENT");
    const std::unique_ptr<Elf, int (*)(Elf*)> elf(
        elf_memory(const_cast<char*>(
                       image.data()),  // NOLINT(cppcoreguidelines-pro-type-const-cast): see header
                   image.size()),
        &elf_end);
    if (elf == nullptr || elf_kind(elf.get()) != ELF_K_ELF)
        return make_gap(GapReason::malformed, "libelf cannot read it: " + libelf_error());
    return read_image(elf.get(), bytes, elf_class);
}

}  // namespace rdmi
