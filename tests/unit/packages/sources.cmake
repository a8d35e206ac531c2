target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/rpm_records_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dpkg_records_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dpkg_status_test.cpp
)
