// Answers of the isolated children with every field set: what the wire round-trips encode and
// what the hostile-input tests mutate, so that both cover the same fields.
#pragma once

#include "probes/doca_caps/doca_caps.hpp"
#include "probes/loopback/loopback_run.hpp"

namespace rdmi::test {

/// DOCA's capability answer: a library found and one not, a device with every kind of answer.
DocaCapsFacts sample_doca_caps();

/// A level-3 loopback verdict that failed at connect, with measurements, self-test and teardown.
LoopbackVerdict sample_loopback_verdict();

}  // namespace rdmi::test
