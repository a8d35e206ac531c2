target_sources(rdmi_probe_tests PRIVATE
)
