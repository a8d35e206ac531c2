target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/check_catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate_devices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate_install.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate_pcie_link.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluate_symbols.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_evaluator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/policy.cpp
)
