target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/check_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/duration_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/failed_check_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/finding_catalog_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fix_plan_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version_test.cpp
)
