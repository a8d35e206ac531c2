target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/header_scanner.cpp
)
