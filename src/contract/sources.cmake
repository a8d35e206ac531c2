target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/embedded_schemas.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kinds.cpp
)
