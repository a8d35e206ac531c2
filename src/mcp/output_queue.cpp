// Lines out, whole and in order within each kind; a short answer overtakes waiting results.
#include "mcp/output_queue.hpp"

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace rdmi::mcp {

void OutputQueue::push(std::string line, bool bulk) {
    bytes_ += line.size();
    (bulk ? bulk_ : prompt_).push_back(std::move(line));
}

bool OutputQueue::take_next() {
    auto& from = !prompt_.empty() ? prompt_ : bulk_;
    if (from.empty()) return false;
    current_ = std::move(from.front());
    from.pop_front();
    written_ = 0;
    return true;
}

OutputQueue::Flow OutputQueue::write_to(int fd) {
    while (true) {
        if (written_ == current_.size()) {
            current_.clear();
            written_ = 0;
            if (!take_next()) return Flow::drained;
        }
        const auto n = ::write(fd, current_.data() + written_, current_.size() - written_);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return Flow::blocked;
        if (n <= 0) return Flow::broken;
        written_ += static_cast<std::size_t>(n);
        bytes_ -= static_cast<std::size_t>(n);
    }
}

void OutputQueue::clear() {
    current_.clear();
    written_ = 0;
    prompt_.clear();
    bulk_.clear();
    bytes_ = 0;
}

}  // namespace rdmi::mcp
