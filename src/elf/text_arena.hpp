// Bump-allocated text: many short strings (symbol names, evidence texts) copied into a few large
// blocks, viewed by std::string_view.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace rdmi {

/// Owns copies of texts; a view copy() returns stays valid for as long as the arena lives (the
/// arena can move: its blocks do not). A 100k-symbol library then costs one copy of each name in
/// 64 KiB blocks instead of one heap string per name.
class TextArena {
  public:
    std::string_view copy(std::string_view text) {
        if (text.empty()) return {};
        if (text.size() > room_) {
            const std::size_t size = std::max(kBlock, text.size());
            // Not zero-filled: a small library's texts use a few hundred bytes of the block,
            // and clearing all of it cost a static probe 400k instructions and its page faults.
            blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
            next_ = blocks_.back().get();
            room_ = size;
        }
        std::copy(text.begin(), text.end(), next_);
        const std::string_view kept(next_, text.size());
        next_ += text.size();
        room_ -= text.size();
        return kept;
    }

  private:
    static constexpr std::size_t kBlock = std::size_t{64} << 10U;
    std::vector<std::unique_ptr<char[]>> blocks_;
    char* next_ = nullptr;
    std::size_t room_ = 0;
};

}  // namespace rdmi
