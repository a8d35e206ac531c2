/* DPA device code of rdmi-probe: an empty kernel (level 2) and a one-shot loopback RDMA write
 * (level 3). Compiled by dpacc only; written to DOCA's published device API
 * (docs/reference/dpa-lifecycle.md#device-api). */
#include <stdint.h>

#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>
#include <dpaintrin.h>

#include "rdmi_probe_dpa_abi.h"

_Static_assert(RDMI_PROBE_SUBMIT_FLAG_FLUSH == DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH,
               "the ABI's FLUSH is DOCA's");
_Static_assert(RDMI_PROBE_SUBMIT_FLAG_OPTIMIZE_REPORTS == DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS,
               "the ABI's OPTIMIZE_REPORTS is DOCA's");

/* Level 2: proves a launch reaches the DPA and its return sets the completion event. */
__dpa_global__ void rdmi_probe_noop_kernel_v1(void) {}

/* Completions are drained without blocking: polling a completion from a kernel-launch kernel
 * (no attached thread) is not confirmed to work (docs/reference/dpa-lifecycle.md#completions), so
 * the verdict never depends on it; it only reports a SEND_ERR when one shows up. */
static uint64_t drain_completions(doca_dpa_dev_completion_t comp, uint64_t* last_type) {
    uint64_t drained = 0;
    doca_dpa_dev_completion_element_t element;
    while (drained < 64 && doca_dpa_dev_get_completion(comp, &element) == 1) {
        *last_type = (uint64_t)doca_dpa_dev_get_completion_type(element);
        drained++;
    }
    if (drained > 0) doca_dpa_dev_completion_ack(comp, drained);
    return drained;
}

/* Level 3 preparation: the host times this kernel to learn how fast the DPA timer ticks. The
 * device API gives __dpa_thread_time() in "timer ticks" without publishing their rate, so the host
 * divides the ticks by its own measure of the launch (which includes the launch overhead, so the
 * quotient never exceeds the real rate) and turns a wall-clock budget into ticks from it. */
__dpa_global__ void rdmi_probe_clock_kernel_v1(uint64_t status_ptr, uint64_t spins) {
    const uint64_t start = __dpa_thread_time();
    /* volatile: the loop is the measurement, so the compiler must not fold it away. */
    for (volatile uint64_t i = 0; i < spins; i++) {
    }
    *(volatile uint64_t*)status_ptr = __dpa_thread_time() - start;
}

/* Level 3 (docs/reference/dpa-lifecycle.md#loopback-sequence): post the write with the host's
 * flags (FLUSH | OPTIMIZE_REPORTS, as the all-to-all application posts), then an RDMA signal on
 * the same RC connection to a remote-net sync event whose subscriber is this DPA; RC executes the
 * signal after the write, so seeing the event proves the write landed. The wait is a bounded loop,
 * never doca_dpa_dev_sync_event_wait_gt (which has no bound): at most spin_limit polls and, when
 * the host calibrated the timer, at most tick_budget timer ticks, so the kernel ends well inside
 * the DPA's kernel run-time limit (a kernel past it may be terminated). Its outcome goes to the
 * status word. The timer is read only every 256 polls; unsigned subtraction makes a counter that
 * went backwards (the thread moved to another execution unit) look huge, which ends the wait early:
 * the safe direction. */
__dpa_global__ void rdmi_probe_write_kernel_v3(
    uint64_t rdma, uint64_t connection_id, uint64_t dst_mmap, uint64_t dst_addr, uint64_t src_mmap,
    uint64_t src_addr, uint64_t length, uint64_t remote_signal, uint64_t local_event,
    uint64_t signal_value, uint64_t status_ptr, uint64_t completion, uint64_t spin_limit,
    uint64_t submit_flags, uint64_t tick_budget) {
    const uint64_t start = __dpa_thread_time();
    volatile uint64_t* status = (volatile uint64_t*)status_ptr;
    uint64_t last_type = 0xff;
    uint64_t drained = 0;
    uint64_t seen = 0;
    uint64_t code = RDMI_PROBE_STATUS_SIGNAL_TIMEOUT;

    doca_dpa_dev_rdma_post_write(
        (doca_dpa_dev_rdma_t)rdma, (uint32_t)connection_id, (doca_dpa_dev_mmap_t)dst_mmap, dst_addr,
        (doca_dpa_dev_mmap_t)src_mmap, src_addr, (size_t)length, (uint32_t)submit_flags);
    doca_dpa_dev_rdma_signal_set((doca_dpa_dev_rdma_t)rdma, (uint32_t)connection_id,
                                 (doca_dpa_dev_sync_event_remote_net_t)remote_signal, signal_value);
    for (uint64_t spin = 0; spin < spin_limit; spin++) {
        doca_dpa_dev_sync_event_get((doca_dpa_dev_sync_event_t)local_event, &seen);
        if (seen >= signal_value) {
            code = RDMI_PROBE_STATUS_OK;
            break;
        }
        if ((spin & 0xffu) == 0) {
            drained += drain_completions((doca_dpa_dev_completion_t)completion, &last_type);
            if (tick_budget != 0 && __dpa_thread_time() - start >= tick_budget) {
                code = RDMI_PROBE_STATUS_TICK_BUDGET;
                break;
            }
        }
    }
    drained += drain_completions((doca_dpa_dev_completion_t)completion, &last_type);
    if (last_type == DOCA_DPA_DEV_COMP_SEND_ERR) code = RDMI_PROBE_STATUS_SEND_ERROR;
    *status = code | ((drained & 0xffffffu) << 8) | ((last_type & 0xffu) << 32);
}
