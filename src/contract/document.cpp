// Contract document bookkeeping.
#include "contract/document.hpp"

namespace rdmi::contract {

void Document::source(std::string pointer, Provenance from) {
    provenance.emplace_back(std::move(pointer), std::move(from));
}

void Document::gap(std::string pointer, Gap why) {
    gaps.push_back(FieldGap{std::move(pointer), std::move(why)});
}

void Document::fallback(std::string pointer, std::string primary, std::string used,
                        std::string note) {
    fallbacks.push_back(
        Fallback{std::move(pointer), std::move(primary), std::move(used), std::move(note)});
}

}  // namespace rdmi::contract
