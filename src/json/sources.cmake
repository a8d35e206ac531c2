target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/exact_number.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_pointer.cpp
)
