target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/contract_documents_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/embedded_schemas_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kinds_test.cpp
)
