target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/doca_caps_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doca_dpa_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doca_types.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ibverbs_api.cpp
)
