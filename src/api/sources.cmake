target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/doca_dpa_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doca_types.cpp
)
