target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/exact_number_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/finding_catalog_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fix_plan_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_common_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_input_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_pointer_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sha256_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shell_word_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version_test.cpp
)
