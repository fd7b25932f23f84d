# The layers of the source tree, each allowed to use only those before it (README.md,
# "Layout"; framework/README.md, "Layers"):
#   framework   knows no domain, no solver, no application;
#   components  know the framework only (no solver, no application);
#   solvers     see the framework's assembled model only (no component, no application);
#   apps        the applications, over all of them.
# Run by ctest (tests/architecture/CMakeLists.txt) as
#   cmake -DSOURCE_DIR=<tree> -DLINKS=<links.cmake> -P check_layers.cmake
# It fails, naming each one, on
#   - an #include in a layer's sources (*.hpp, *.cpp, *.h, *.c, *.in) of a header that lies
#     in a layer it may not use, found as the compiler would find it: beside the file, or
#     under one of the layers' include/ folders (a "../" path included);
#   - a target of a layer that links, depends on or takes the objects of a target of a
#     layer it may not use (LINKS: written at configure time, see CMakeLists.txt).
cmake_minimum_required(VERSION 3.25)
foreach(var SOURCE_DIR LINKS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_layers.cmake: -D${var}=... is required")
  endif()
endforeach()

set(layers framework components solvers apps)
set(forbidden_for_framework components solvers apps)
set(forbidden_for_components solvers apps)
set(forbidden_for_solvers components apps)
set(forbidden_for_apps)

# The layer a path of the tree lies in ("" outside them all).
function(layer_of path out)
  file(RELATIVE_PATH relative "${SOURCE_DIR}" "${path}")
  string(REGEX MATCH "^[^/]+" top "${relative}")
  if(top IN_LIST layers)
    set(${out} ${top} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

file(GLOB include_dirs LIST_DIRECTORIES true ${SOURCE_DIR}/framework/include ${SOURCE_DIR}/components/include
     ${SOURCE_DIR}/solvers/include ${SOURCE_DIR}/apps/*/include)

set(problems 0)
set(checked 0)
foreach(layer framework components solvers)
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${layer}/*.hpp ${SOURCE_DIR}/${layer}/*.cpp ${SOURCE_DIR}/${layer}/*.h
       ${SOURCE_DIR}/${layer}/*.c ${SOURCE_DIR}/${layer}/*.in)
  foreach(source ${sources})
    get_filename_component(dir "${source}" DIRECTORY)
    file(STRINGS "${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*$" "\\1" header "${line}")
      math(EXPR checked "${checked} + 1")
      # Where the compiler finds it: beside the file first, then the include folders
      # (a generated header, version.hpp, by its template version.hpp.in).
      set(found "")
      foreach(candidate_dir "${dir}" ${include_dirs})
        foreach(candidate "${candidate_dir}/${header}" "${candidate_dir}/${header}.in")
          if(NOT found AND EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
            get_filename_component(found "${candidate}" ABSOLUTE)
          endif()
        endforeach()
      endforeach()
      if(NOT found)
        continue()  # a system or third-party header
      endif()
      layer_of("${found}" owner)
      if(owner IN_LIST forbidden_for_${layer})
        file(RELATIVE_PATH shown "${SOURCE_DIR}" "${source}")
        file(RELATIVE_PATH target "${SOURCE_DIR}" "${found}")
        message(SEND_ERROR "${shown}: includes ${header} (${target}): ${layer}/ may not use ${owner}/")
        math(EXPR problems "${problems} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

# LINKS sets layer_targets_<layer> (the targets defined under each layer's folders) and,
# per target, uses_<target>: the names its link libraries, dependencies and sources mention.
include("${LINKS}")
set(links_checked 0)
foreach(layer framework components solvers)
  foreach(target ${layer_targets_${layer}})
    math(EXPR links_checked "${links_checked} + 1")
    foreach(other ${forbidden_for_${layer}})
      foreach(used ${uses_${target}})
        if(used IN_LIST layer_targets_${other} OR used IN_LIST layer_aliases_${other})
          message(SEND_ERROR "target ${target} (${layer}/) uses ${used} (${other}/): ${layer}/ may not use ${other}/")
          math(EXPR problems "${problems} + 1")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()

if(problems GREATER 0)
  message(FATAL_ERROR "check_layers: ${problems} arrow(s) running the wrong way")
endif()
message(STATUS "check_layers: ${checked} includes and ${links_checked} targets of framework/, components/ and "
               "solvers/, none using a layer above or beside it")
