target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/exact_number_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_common_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_input_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_pointer_test.cpp
)
