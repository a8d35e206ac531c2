// ProbeContext: everything a probe may use to look at the world, and nothing else.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/deadline.hpp"
#include "core/progress.hpp"
#include "core/result.hpp"
#include "loader/load_closure.hpp"
#include "os/env.hpp"
#include "os/fs.hpp"
#include "os/live_answers.hpp"
#include "os/private_dir.hpp"
#include "packages/package_database.hpp"
#include "process/isolated_worker.hpp"

namespace spdlog {
class logger;
}

namespace rdmi {

/// The seams and settings a probe runs with. Probes never print; they log through `log`.
struct ProbeContext {
    const Fs& fs;                            ///< every file read goes through here (rooted)
    const Env& env;                          ///< environment variables (PKG_CONFIG_PATH, ...)
    spdlog::logger& log;                     ///< diagnostics to stderr
    Deadline deadline;                       ///< bound on the whole run
    std::chrono::milliseconds call_timeout;  ///< bound on one external call or device open
    std::optional<std::string> doca_prefix;  ///< --doca-prefix, in-root path
    bool allow_untrusted_libs = false;       ///< --allow-untrusted-libs
    Progress& progress = Progress::none();   ///< how far a long operation got (never printed here)
    /// Every live-only answer passes here: asked on this machine, recorded by gather, or
    /// replayed from a bundle's capture.
    const LiveAnswers& answers = LiveAnswers::direct();
    /// The run's one child for vendor code (library loads, driver calls): started by the first
    /// isolated() call, shared by every copy of this context.
    std::shared_ptr<IsolatedWorker> worker = std::make_shared<IsolatedWorker>();
    /// What the run's trust checks learnt of the host's files (facts, never verdicts), shared
    /// by every copy of this context.
    std::shared_ptr<TrustCache> trust_cache = std::make_shared<TrustCache>();
    /// The run's private directory (made on first use), shared by every copy of this context.
    std::shared_ptr<RunPrivateDir> private_dir =
        std::make_shared<RunPrivateDir>(default_private_parent());
    /// The probed system's package database, opened only when a fix needs a file's owner or
    /// integrity is asked for; shared by every copy of this context.
    std::shared_ptr<PackageDatabase> packages = std::make_shared<PackageDatabase>();

    /// The probed system's package records (dpkg's, else rpm's), opened on the first call and
    /// shared by every copy of this context: only a fix that needs a file's owner, or the
    /// integrity check, calls it.
    [[nodiscard]] const Result<std::shared_ptr<const PackageRecords>>& package_records() const;

    /// Live calls (dlopen, subprocesses, device opens) happen only on the live root, or are
    /// answered from a bundle's capture (answers.captured()).
    [[nodiscard]] bool live() const { return fs.is_live() || answers.captured(); }
    /// The machine the root's programs are for under --root ("x86_64", "aarch64"); "" on the
    /// live root or when the root does not say (then the probing machine's conventions apply).
    [[nodiscard]] std::string root_machine() const;
    /// The deadline for one external call: the call timeout, capped by the run's deadline.
    [[nodiscard]] Deadline call_deadline() const { return deadline.capped(call_timeout); }
    /// `task(request)` in the run's worker child, bounded by call_deadline(); `what` names the
    /// call in messages.
    [[nodiscard]] Result<std::string> isolated(WorkerTask task, std::string_view request,
                                               std::string_view what) const {
        return worker->call(task, request, call_deadline(), what);
    }
    /// isolated() in two halves: the call is sent now, bounded by call_deadline() from now, and
    /// its answer taken later by worker->receive(), so that the child's work overlaps the
    /// caller's own reads.
    [[nodiscard]] IsolatedWorker::Sent send_isolated(WorkerTask task, std::string_view request,
                                                     std::string_view what) const {
        return worker->send(task, request, call_deadline(), what);
    }

    /// The one trust gate before anything is dlopen'ed, here or in a child: the host path to
    /// load for the in-root `path` (kind library, or ibverbs to include its providers). A Gap
    /// when it may not be loaded: not_applicable off the live root; untrusted, "<why>; not
    /// loaded", when the file, its load closure or a directory searched before it fails the
    /// trusted-library rule (--allow-untrusted-libs lets it through with a logged warning).
    [[nodiscard]] Result<std::string> loadable(const std::string& path,
                                               LoadKind kind = LoadKind::library) const;
    /// The same gate for a library of this machine itself, named by its host path (librpm,
    /// which reads a copy of a root's rpm database): allowed under --root too, since nothing
    /// of the root is loaded; never in a replayed bundle, whose answers are captured.
    [[nodiscard]] Result<std::string> host_library_loadable(const std::string& host_path) const;
    /// The same gate before an external program is run ("<why>; not run"): the program and
    /// the libraries it needs, resolved without the loader variables run_process() drops.
    [[nodiscard]] Result<std::string> runnable(const std::string& path) const;
};

}  // namespace rdmi
