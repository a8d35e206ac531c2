target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/diff_symbols_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diff_compare_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_json_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nfd_features_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/terminal_text_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_device_block_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verdict_writer_test.cpp
)
