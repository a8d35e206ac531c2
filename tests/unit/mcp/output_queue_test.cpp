// Tests for OutputQueue: whole lines, short answers before waiting results but never inside a
// line begun, a full pipe that blocks without losing a byte, a reader gone.
#include "mcp/output_queue.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <string>

namespace rdmi::mcp {
namespace {

struct Pipe {
    std::array<int, 2> fds{-1, -1};
    Pipe() {
        REQUIRE(::pipe2(fds.data(), O_NONBLOCK | O_CLOEXEC) == 0);
        ::fcntl(fds[1], F_SETPIPE_SZ, 4096);
    }
    ~Pipe() {
        for (const int fd : fds)
            if (fd >= 0) ::close(fd);
    }
    std::string drain() const {
        std::string out;
        std::array<char, 4096> buffer{};
        while (true) {
            const auto n = ::read(fds[0], buffer.data(), buffer.size());
            if (n <= 0) return out;
            out.append(buffer.data(), static_cast<std::size_t>(n));
        }
    }
};

TEST_CASE("a short answer overtakes a waiting result, never one begun") {
    Pipe pipe;
    OutputQueue queue;
    const std::string first_result = std::string(20000, 'a') + "\n";
    const std::string second_result = std::string(100, 'b') + "\n";
    queue.push(first_result, true);
    queue.push(second_result, true);
    CHECK(queue.write_to(pipe.fds[1]) == OutputQueue::Flow::blocked);
    CHECK(queue.bytes() > 0);
    queue.push("ping\n", false);
    std::string seen;
    while (true) {
        seen += pipe.drain();
        if (queue.write_to(pipe.fds[1]) == OutputQueue::Flow::drained) break;
    }
    seen += pipe.drain();
    CHECK(queue.empty());
    CHECK(queue.bytes() == 0);
    // The first result was begun when the ping came: it ends first, then the ping goes before
    // the second result.
    CHECK(seen == first_result + "ping\n" + second_result);
}

TEST_CASE("a reader gone breaks the flow, and clear forgets what waits") {
    Pipe pipe;
    ::signal(SIGPIPE, SIG_IGN);
    ::close(pipe.fds[0]);
    pipe.fds[0] = -1;
    OutputQueue queue;
    queue.push("line\n", false);
    CHECK(queue.write_to(pipe.fds[1]) == OutputQueue::Flow::broken);
    queue.clear();
    CHECK(queue.empty());
    CHECK(queue.bytes() == 0);
    CHECK(queue.write_to(pipe.fds[1]) == OutputQueue::Flow::drained);
}

}  // namespace
}  // namespace rdmi::mcp
