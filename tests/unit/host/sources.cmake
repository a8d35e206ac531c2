target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/host_kind_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/platform_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proc_modules_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proc_mounts_test.cpp
)
