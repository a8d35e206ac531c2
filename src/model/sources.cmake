target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/capabilities.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_facts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_scope.cpp
  ${CMAKE_CURRENT_LIST_DIR}/registry.cpp
)
