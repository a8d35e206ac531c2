target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/host_kind.cpp
  ${CMAKE_CURRENT_LIST_DIR}/live_host.cpp
  ${CMAKE_CURRENT_LIST_DIR}/platform.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proc_modules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proc_mounts.cpp
)
