// The sample answers of wire_samples.hpp.
#include "unit/context/wire_samples.hpp"

namespace rdmi::test {

DocaCapsFacts sample_doca_caps() {
    DocaCapsFacts facts;
    facts.libraries = {"/opt/mellanox/doca/lib/libdoca_common.so.3"};
    facts.library_gaps = {Gap{GapReason::not_installed, "libdoca_dpa.so.3: not found"}};
    facts.predicates = {"doca_dpa_cap_is_supported"};
    facts.error_names = "fallback table";
    DocaDevice d;
    d.pci_address = "0000:03:00.0";
    d.dpa = true;
    d.supported["rdma"] = {"task_write"};
    d.answers.push_back({"rdma", "task_read", "doca_rdma_cap_task_read_is_supported", false,
                         "DOCA_ERROR_NOT_SUPPORTED", "Operation not supported"});
    d.rdma_values = {{"max_message_size", 1U << 30U}};
    d.errors.push_back({"doca_rdma_cap_x", "DOCA_ERROR_DRIVER", "d"});
    d.verbs = DocaVerbsAttrs{{{"max_qp", 5}}, "hca", {"a"}, {"x"}, Gap{GapReason::error, "v"}};
    facts.devices.push_back(d);
    return facts;
}

LoopbackVerdict sample_loopback_verdict() {
    LoopbackVerdict verdict;
    verdict.level_requested = 3;
    verdict.steps.push_back({"find-device", 0, StepOutcome::pass, 1.5, "chose mlx5_0", {}});
    verdict.steps.push_back({"connect", 3, StepOutcome::fail, 2.25, "doca_rdma_connect failed",
                             DocaFailure{"doca_rdma_connect", 21, "DOCA_ERROR_DRIVER", "d"}});
    verdict.device = LoopbackDevice{"0000:08:00.0", "mlx5_0"};
    verdict.measurements = LoopbackMeasurements{65536, 2, 1.0, 2.0, 3.0, 4.5};
    verdict.mismatch_offset = 17;
    verdict.selftest = LoopbackSelftest{Status::pass, "doca_rdma", "A", "B", "C"};
    verdict.teardown = LoopbackTeardown{5, {"x: y"}, false};
    verdict.libraries = {"/lib/a.so"};
    return verdict;
}

}  // namespace rdmi::test
