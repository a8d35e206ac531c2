target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/duration.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exhaustion.cpp
  ${CMAKE_CURRENT_LIST_DIR}/finding_catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fix_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/purpose.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version.cpp
)
