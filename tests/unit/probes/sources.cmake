target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/install_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_versions_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_test.cpp
)
