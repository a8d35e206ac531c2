target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/closest_name_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fit_width_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shell_word_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wrap_test.cpp
)
