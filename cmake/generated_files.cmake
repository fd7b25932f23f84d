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
    # What changed: the start of a unified diff against the text generated now.
    get_filename_component(name "${relative}" NAME)
    set(fresh "${BUILD_DIR}/generated_files/${name}")
    file(WRITE "${fresh}" "${text}")
    execute_process(COMMAND diff -u "${file}" "${fresh}" COMMAND head -n 60)
    string(JOIN " " command ${ARGN})
    message("${relative} is out of date: regenerate it with `jourdain ${command} > ${relative}`")
    set(stale "${stale} ${relative}" PARENT_SCOPE)
  endif()
endfunction()

generated(components/README.md describe --all --markdown)

if(NOT stale STREQUAL "")
  message(FATAL_ERROR "out of date:${stale}; regenerate every generated file with\n"
                      "  cmake --build ${BUILD_DIR} --target generated_files\n"
                      "and commit the result")
endif()
