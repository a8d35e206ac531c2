target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/md5.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp
)
