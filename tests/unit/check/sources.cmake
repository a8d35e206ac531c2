target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/device_wording_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate_pcie_link_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_evaluator_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_formats_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/policy_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/warn_test.cpp
)
