/* Host side of the rdmi-probe DPA plugin. The dpacc archive linked into this shared object
 * supplies the app handle and the kernels' host stubs; this file only pins the ABI header into
 * the build so that a changed contract fails to compile here, not at run time on a BlueField. */
#include "rdmi_probe_dpa_abi.h"

_Static_assert(RDMI_PROBE_WRITE_ARG_COUNT == 15, "update rdmi_probe_write_kernel_v3 and the host");
