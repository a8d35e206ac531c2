target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/capabilities.cpp
  ${CMAKE_CURRENT_LIST_DIR}/containment.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated_call.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated_worker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/landlock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/syscall_filter.cpp
)
