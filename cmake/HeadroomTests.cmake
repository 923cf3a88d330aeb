# headroom_add_test: shared by the test tree (tests/CMakeLists.txt) and the sanitizer build
# (HEADROOM_FUZZ=ON), which builds the engine and store suites with ASan and UBSan.
find_package(Catch2 2.13 REQUIRED)
include(Catch)

# headroom_add_test(<target> <prefix> [GUI] [TEST_SPEC <spec>] SOURCES ... LIBS ...)
# Registers every Catch2 test case (or those TEST_SPEC selects) with CTest under
# "<prefix>: <name>".
function(headroom_add_test target prefix)
  cmake_parse_arguments(ARG "GUI;QT" "TEST_SPEC" "SOURCES;LIBS" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE Catch2::Catch2 ${ARG_LIBS})
  # The suite's own folder too: tests sit in area folders and reach the suite's shared
  # helpers as "common/x.h" (or an area's, "cost/costsupport.h").
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/tests/support ${CMAKE_CURRENT_SOURCE_DIR})
  if(ARG_QT OR ARG_GUI)
    target_sources(${target} PRIVATE ${CMAKE_SOURCE_DIR}/tests/support/testmain.cpp)
    target_link_libraries(${target} PRIVATE Qt6::Core)
  endif()
  if(ARG_GUI)
    target_compile_definitions(${target} PRIVATE HEADROOM_TEST_GUI)
  endif()
  target_compile_definitions(${target} PRIVATE
    HEADROOM_SHARED_DATA="${HEADROOM_SHARED_DATA}"
    HEADROOM_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  # --warn NoTests fails a test whose name filter matches nothing (e.g. a name split at ";").
  catch_discover_tests(${target} TEST_SPEC ${ARG_TEST_SPEC} TEST_PREFIX "${prefix}: "
    EXTRA_ARGS --warn NoTests
    PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
               SKIP_REGULAR_EXPRESSION "SKIPPED: public traces not found at")
endfunction()
