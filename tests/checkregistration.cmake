# Fails when `ctest -N` lists fewer tests for a suite prefix than required.
# SUITES is a list of prefix:minimum pairs.
execute_process(COMMAND ${CTEST} -N WORKING_DIRECTORY ${BUILD_DIR}
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctest -N failed (${rc})")
endif()
foreach(pair IN LISTS SUITES)
  string(REPLACE ":" ";" parts "${pair}")
  list(GET parts 0 prefix)
  list(GET parts 1 minimum)
  string(REGEX MATCHALL "Test +#[0-9]+: ${prefix}:[^\n]*" found "${listing}")
  list(LENGTH found count)
  if(count LESS minimum)
    message(FATAL_ERROR "suite '${prefix}' registered ${count} tests, expected at least ${minimum}")
  endif()
  message(STATUS "suite '${prefix}': ${count} tests registered")
endforeach()
