target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/app_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bus_error_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/completion_scripts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/completion_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/document_output_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exit_codes_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/field_output_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/help_text_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/interrupt_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/option_model_json_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/option_model_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_time_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/terminal_progress_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/user_path_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wait_loop_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watchdog_test.cpp
)
