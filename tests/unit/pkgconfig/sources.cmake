target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pc_parser_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pc_text_check_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pkgconfig_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/requires_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version_test.cpp
)
