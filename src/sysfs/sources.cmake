target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/attr_dir.cpp
  ${CMAKE_CURRENT_LIST_DIR}/attr_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_names.cpp
  ${CMAKE_CURRENT_LIST_DIR}/devices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gid_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ib_attrs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inventory_poll.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_attrs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pci_attrs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pci_ids.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scan_functions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scan_netdevs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scan_rdma.cpp
)
