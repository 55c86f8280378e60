# Runs a GPU test binary (or the plugin probe) and checks how it behaves without a device: exit 77
# with the "SKIPPED: no CUDA device" line. On a machine with a device the binary's own result
# (exit 0) is accepted and said so. Usage: cmake -DBIN=path [-DARGS=...] -DEXPECT=regex -P ...
execute_process(COMMAND ${BIN} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(rc EQUAL 77)
  if(NOT all MATCHES "${EXPECT}")
    message(FATAL_ERROR "exit 77 but the output lacks /${EXPECT}/:\n${all}")
  endif()
  message(STATUS "skip reported correctly: ${all}")
elseif(rc EQUAL 0)
  message(STATUS "a device is present; the binary ran and passed:\n${all}")
else()
  message(FATAL_ERROR "exit ${rc} (expected 77 without a device, 0 with one):\n${all}")
endif()
