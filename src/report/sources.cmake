target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/contract_caps.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_env.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_matrix.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diff_compare.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diff_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_style.cpp
)
