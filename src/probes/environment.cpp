// The environment probe.
#include "probes/environment.hpp"

#include <utility>

namespace rdmi {
namespace {

bool is_set(const EnvVariable& variable) {
    return variable.value && !variable.value->empty();
}

Check preload_check(const EnvVariable& variable, bool applies) {
    Check check{finding::env_ld_preload, Status::info, "", "", {{"env", variable.name}}};
    if (!is_set(variable)) {
        check.message = "LD_PRELOAD is not set";
    } else if (!applies) {
        check.message = "LD_PRELOAD is set in this process (" + *variable.value +
                        "), but --root probes another tree: not judged";
    } else {
        // Every application started from this environment maps these objects first and lets
        // them interpose any symbol, DOCA's included.
        check.status = Status::fail;
        check.message = "LD_PRELOAD is set: " + *variable.value +
                        " is loaded into every application started from this environment";
        check.remediation = "unset LD_PRELOAD unless the preload is intended (e.g. a profiler)";
    }
    return check;
}

Check library_path_check(const EnvVariable& variable, bool applies) {
    Check check{finding::env_ld_library_path, Status::info, "", "", {{"env", variable.name}}};
    if (!is_set(variable)) {
        check.message = "LD_LIBRARY_PATH is not set";
    } else if (!applies) {
        check.message = "LD_LIBRARY_PATH is set in this process (" + *variable.value +
                        "), but --root probes another tree: not judged";
    } else {
        // Common and often intended (DOCA's environment scripts set it), so a fact, not a fault;
        // the symbols probe already predicts the loader's choice with it.
        check.message = "LD_LIBRARY_PATH is set: " + *variable.value +
                        " is searched before ld.so.cache and the default directories";
    }
    return check;
}

}  // namespace

EnvironmentFacts probe_environment(const ProbeContext& ctx) {
    EnvironmentFacts facts;
    facts.applies = ctx.live();
    facts.variables.push_back({"LD_PRELOAD", ctx.env.get("LD_PRELOAD")});
    facts.variables.push_back({"LD_LIBRARY_PATH", ctx.env.get("LD_LIBRARY_PATH")});
    facts.checks.push_back(preload_check(facts.variables[0], facts.applies));
    facts.checks.push_back(library_path_check(facts.variables[1], facts.applies));
    return facts;
}

json::Json environment_json(const EnvironmentFacts& facts) {
    using json::Json;
    using json::object;
    Json variables = Json::array();
    for (const auto& v : facts.variables) {
        variables.push_back(object({{"name", v.name},
                                    {"value", v.value ? Json(*v.value) : Json(nullptr)},
                                    {"source", json::provenance({"env", v.name})}}));
    }
    return object({{"applies", facts.applies}, {"variables", std::move(variables)}});
}

}  // namespace rdmi
