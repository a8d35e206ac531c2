// probe_verbs(): locate and trust-check libibverbs.so.1, then list and query the devices, each
// device in its own call to the run's worker child: one hung driver call costs only that device
// (the worker is killed and the next device gets a fresh one).
#include "probes/verbs/verbs.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace rdmi {
namespace {

constexpr const char* kSoname = "libibverbs.so.1";

// libibverbs prints provider warnings ("couldn't load driver ...") to stderr; the probe reports
// the same facts as data, so the child's stderr is silenced like its stdout while it calls
// libibverbs (the worker's other calls keep theirs).
class SilencedStderr {
  public:
    SilencedStderr() : saved_(::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)) {
        const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null_fd >= 0) {
            ::dup2(null_fd, STDERR_FILENO);
            ::close(null_fd);
        }
    }
    ~SilencedStderr() {
        if (saved_ < 0) return;
        ::dup2(saved_, STDERR_FILENO);
        ::close(saved_);
    }
    SilencedStderr(const SilencedStderr&) = delete;
    SilencedStderr& operator=(const SilencedStderr&) = delete;

  private:
    int saved_;
};

// In the worker child. Request: the library's path.
std::string verbs_list_in_child(std::string_view path) {
    const SilencedStderr silenced;
    return encode_verbs_devices(list_verbs_devices(std::string(path)));
}

// In the worker child. Request: the library's path, a NUL, the device's name.
std::string verbs_query_in_child(std::string_view request) {
    const SilencedStderr silenced;
    const auto nul = request.find('\0');
    return encode_verbs_devices({query_verbs_device(std::string(request.substr(0, nul)),
                                                    std::string(request.substr(nul + 1)))});
}

}  // namespace

VerbsStart start_verbs(const ProbeContext& ctx) {
    VerbsStart started;
    if (!ctx.live()) {
        started.library = Sourced<std::string>::missing(
            {GapReason::not_applicable, "libibverbs is not loaded under --root"},
            {"file", kSoname});
        return started;
    }
    started.library = locate_soname(ctx.fs, ctx.env, kSoname);
    if (!started.library.ok()) return started;
    // The child forks and contains itself while the trust gate below reads the library and its
    // providers; it runs nothing until the gate has passed and the listing is sent.
    const bool asks_here = !ctx.answers.captured();
    if (asks_here) ctx.worker->prestart("the libibverbs worker");
    // libibverbs pulls in libnl and, at ibv_get_device_list, its providers: all are checked.
    auto loadable = ctx.loadable(*started.library.value, LoadKind::ibverbs);
    if (!loadable) {
        started.library.gap = loadable.gap();
        return started;
    }
    started.path = *loadable;
    // Replayed, the listing is the bundle's: nothing may be asked of this machine.
    if (asks_here) {
        started.listing = ctx.send_isolated(&verbs_list_in_child, started.path,
                                            "ibv_get_device_list via " + started.path);
    }
    return started;
}

VerbsFacts probe_verbs(const ProbeContext& ctx) {
    return probe_verbs(ctx, start_verbs(ctx));
}

VerbsFacts probe_verbs(const ProbeContext& ctx, VerbsStart started) {
    VerbsFacts facts;
    facts.library = std::move(started.library);
    // No path: not located, not loadable, or not live; the library's gap says which.
    if (started.path.empty()) {
        facts.gap = facts.library.gap;
        return facts;
    }
    const std::string path = std::move(started.path);
    auto listed = ctx.answers.answer("verbs ibv_get_device_list via " + path, [&]() {
        if (started.listing) return ctx.worker->receive(*started.listing);
        return ctx.isolated(&verbs_list_in_child, path, "ibv_get_device_list via " + path);
    });
    if (!listed) {
        facts.gap = listed.gap();
        return facts;
    }
    auto devices = decode_verbs_devices(*listed);
    if (!devices) {
        facts.gap = devices.gap();
        return facts;
    }
    const std::size_t total = devices->size();
    std::size_t done = 0;
    for (auto& listed_device : devices.value()) {
        const std::string name = listed_device.name;
        // Each open may wait up to the call timeout: with many devices that is seconds.
        ctx.progress.update("libibverbs: opening " + name, done++, total);
        auto answer = ctx.answers.answer("verbs ibv_open_device(" + name + ") via " + path, [&]() {
            return ctx.isolated(&verbs_query_in_child, path + '\0' + name,
                                "ibv_open_device(" + name + ")");
        });
        Result<std::vector<VerbsDevice>> decoded =
            answer ? decode_verbs_devices(*answer) : Result<std::vector<VerbsDevice>>(answer.gap());
        if (decoded && decoded->size() == 1) {
            facts.devices.push_back(std::move(decoded->front()));
        } else {
            listed_device.gap =
                decoded ? Gap{GapReason::malformed, name + ": the child answered for no device"}
                        : decoded.gap();
            facts.devices.push_back(std::move(listed_device));
        }
    }
    ctx.progress.finish();
    return facts;
}

}  // namespace rdmi
