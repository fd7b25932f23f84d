# The files generated from the registry's descriptors and checked in, so that a clone
# has them without a build: the component reference (components/README.md). (The
# netlist schema is not: `jourdain schema` writes it for the plugins one uses.)
#
#   cmake -DJOURDAIN=<jourdain> -DSOURCE_DIR=<repository> -DBUILD_DIR=<build> -DMODE=check|write
#         -P cmake/generated_files.cmake
#
# write: writes them (the `generated_files` target does this); check: fails, naming the
# command to run, when a checked-in file differs from what the registry gives now (the
# `generated_files_up_to_date` test).
cmake_minimum_required(VERSION 3.20)

set(stale "")
function(generated relative)
  execute_process(COMMAND ${JOURDAIN} ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "jourdain ${ARGN} failed (${rc}): ${err}")
  endif()
  set(file "${SOURCE_DIR}/${relative}")
  if(MODE STREQUAL "write")
    file(WRITE "${file}" "${text}")
    message(STATUS "wrote ${relative} (jourdain ${ARGN})")
    return()
  endif()
  set(old "")
  if(EXISTS "${file}")
    file(READ "${file}" old)
  endif()
  if(NOT old STREQUAL text)
    # The first line that differs, to show what changed.
    string(REPLACE "\n" ";" new_lines "${text}")
    string(REPLACE "\n" ";" old_lines "${old}")
    list(LENGTH new_lines n)
    set(line 0)
    foreach(i RANGE ${n})
      list(LENGTH old_lines m)
      if(i GREATER_EQUAL n OR i GREATER_EQUAL m)
        break()
      endif()
      list(GET new_lines ${i} a)
      list(GET old_lines ${i} b)
      if(NOT a STREQUAL b)
        math(EXPR line "${i} + 1")
        message("${relative}:${line}: checked in: ${b}")
        message("${relative}:${line}: generated:  ${a}")
        break()
      endif()
    endforeach()
    message("${relative} is out of date (jourdain ${ARGN})")
    set(stale "${stale} ${relative}" PARENT_SCOPE)
  endif()
endfunction()

generated(components/README.md describe --all --markdown)

if(NOT stale STREQUAL "")
  message(FATAL_ERROR "out of date:${stale}; regenerate them with\n"
                      "  cmake --build ${BUILD_DIR} --target generated_files\n"
                      "and commit the result")
endif()
