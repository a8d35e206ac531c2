target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/doca_error_catalog.cpp
)
