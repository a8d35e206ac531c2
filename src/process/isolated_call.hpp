// Running code that may hang or crash (vendor library constructors, driver calls) in a forked
// child with a deadline, so the probe itself always returns on time.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/deadline.hpp"
#include "core/result.hpp"
#include "process/containment.hpp"

namespace rdmi {

/// What the child of run_isolated() does, for its containment.
struct ContainmentRequest {
    ContainedWork work = ContainedWork::library_calls;
    /// Files the child must still be able to write (created by the caller).
    std::vector<std::string> writable_files;
    /// Directories the child may create, write and remove files in (made by the caller).
    std::vector<std::string> writable_dirs;
};

/// Runs `work` in a forked child whose stdout is /dev/null and returns the string it produced.
/// The child is contained (`containment`) before `work` runs; one that cannot be gives a Gap
/// saying why, and `work` does not run. A child that outlives `deadline` is killed (Gap
/// timeout); one that crashes gives a Gap naming the signal; an exception thrown by `work`
/// becomes a Gap with its message. `what` names the call in messages ("dlopen
/// libdoca_common.so.3").
Result<std::string> run_isolated(const std::function<std::string()>& work, const Deadline& deadline,
                                 std::string_view what, const ContainmentRequest& containment = {});

}  // namespace rdmi
