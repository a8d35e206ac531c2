# From DOCA 3.2 the samples build every DPA application with `dpacc --dpa-proc-attr=<blob>`, the
# blob made by `<prefix>/tools/dpa-app-attributes2blob <attributes.yaml> <blob>`, and they run the
# tool unconditionally: a 3.2/3.3 samples tree assumes it is there. DOCA 3.0 and 3.1 ship neither
# the tool nor the option. Whether 3.2+ dpacc refuses to build without it is not published. This
# project builds against either toolchain, so it passes the option exactly when the tool exists
# (its own rule, not the samples': look at the file system, not at a version string), and the
# configure log says which path was taken (docs/reference/install-layout.md#dpacc-and-the-host-stub).
#
# rdmi_dpa_proc_attr(<prefix> <out_tool> <out_message>): <out_tool> is the tool's path or empty.
# Usable in script mode (cmake -P), which is how the test suite checks it.
function(rdmi_dpa_proc_attr prefix out_tool out_message)
  set(_tool "")
  if(EXISTS "${prefix}/tools/dpa-app-attributes2blob" AND
     NOT IS_DIRECTORY "${prefix}/tools/dpa-app-attributes2blob")
    set(_tool "${prefix}/tools/dpa-app-attributes2blob")
  else()
    find_program(_found dpa-app-attributes2blob NO_CACHE)
    if(_found)
      set(_tool "${_found}")
    endif()
  endif()
  if(_tool)
    set(_message "dpacc gets --dpa-proc-attr (blob from ${_tool}, DOCA 3.2+ toolchain)")
  else()
    set(_message "dpa-app-attributes2blob not found in ${prefix}/tools or PATH: dpacc runs "
                 "without --dpa-proc-attr (DOCA 3.0/3.1 toolchain)")
    string(CONCAT _message ${_message})
  endif()
  set(${out_tool} "${_tool}" PARENT_SCOPE)
  set(${out_message} "${_message}" PARENT_SCOPE)
endfunction()
