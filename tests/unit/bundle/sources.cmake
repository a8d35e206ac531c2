target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bundle_limits_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_links_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/libarchive_api_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redact_test.cpp
)
