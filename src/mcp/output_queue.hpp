// The server's output: whole lines written to a non-blocking descriptor as it takes them, so that
// the server's one thread never waits on a client that reads slowly. Short answers (ping, a
// list, a notification) go before the tool results still waiting whole, never into the middle
// of a line already begun: a ping is answered while 100 KB results queue behind a slow reader.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

namespace rdmi::mcp {

class OutputQueue {
  public:
    /// Queues one message line (its newline included). `bulk`: a tool result, which a short
    /// answer may overtake.
    void push(std::string line, bool bulk);

    enum class Flow { drained, blocked, broken };
    /// Writes what `fd` takes now: drained when nothing is left, blocked when the descriptor is
    /// full (poll it for POLLOUT), broken when the reader is gone (EPIPE or another error).
    Flow write_to(int fd);

    [[nodiscard]] bool empty() const {
        return current_.empty() && prompt_.empty() && bulk_.empty();
    }
    /// Bytes waiting, including the unwritten rest of the line begun.
    [[nodiscard]] std::size_t bytes() const { return bytes_; }
    /// Forgets everything waiting (the reader is gone).
    void clear();

  private:
    bool take_next();

    std::string current_;  ///< the line being written
    std::size_t written_ = 0;
    std::deque<std::string> prompt_;
    std::deque<std::string> bulk_;
    std::size_t bytes_ = 0;
};

}  // namespace rdmi::mcp
