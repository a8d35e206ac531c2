target_sources(rdmi_core PRIVATE
)
