# The ISAs, read from the one ISA table, dispatch/isa/isa_list.hpp (a row:
# X(ENUM, name, PARENT, family, "flags")); see that file to add an ISA.
#   SIMDAX_ALL_ISAS       every ISA name, in simdax_isa order
#   SIMDAX_ISAS           the ISAs this build compiles in (those with sources in
#                         kernels/<isa>/ and a matching CPU family, and not
#                         switched off with SIMDAX_ENABLE_<ENUM>=OFF)
#   SIMDAX_ISA_FLAGS_<isa> the compile flags of kernels/<isa>/
set(_isa_table ${PROJECT_SOURCE_DIR}/dispatch/isa/isa_list.hpp)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_isa_table})
set(_isa_row_regex "X\\(([A-Z0-9]+), *([a-z0-9]+), *([A-Z0-9]+), *([a-z0-9]+), *\"([^\"]*)\"\\)")
file(READ ${_isa_table} _isa_text)
# The rows of the list macro only: the file's own comment shows a row's form.
string(FIND "${_isa_text}" "#define SIMDAX_ISA_LIST" _isa_list_at)
string(SUBSTRING "${_isa_text}" ${_isa_list_at} -1 _isa_text)
string(REGEX MATCHALL "${_isa_row_regex}" _isa_rows "${_isa_text}")
if(NOT _isa_rows)
  message(FATAL_ERROR "${_isa_table}: no ISA rows found")
endif()

set(SIMDAX_ALL_ISAS)
set(SIMDAX_ISAS)
foreach(row IN LISTS _isa_rows)
  string(REGEX MATCH "${_isa_row_regex}" _ "${row}")
  set(ISA ${CMAKE_MATCH_1})
  set(isa ${CMAKE_MATCH_2})
  set(family ${CMAKE_MATCH_4})
  separate_arguments(flags UNIX_COMMAND "${CMAKE_MATCH_5}")
  list(APPEND SIMDAX_ALL_ISAS ${isa})
  option(SIMDAX_ENABLE_${ISA} "Compile the ${isa} kernels" ON)
  file(GLOB isa_sources ${CMAKE_CURRENT_SOURCE_DIR}/kernels/${isa}/*.cpp)
  if(NOT SIMDAX_ENABLE_${ISA} OR NOT isa_sources)
    continue()
  endif()
  if(family STREQUAL "x86" AND NOT SIMDAX_X86)
    continue()
  endif()
  if(family STREQUAL "aarch64" AND NOT SIMDAX_AARCH64)
    continue()
  endif()
  list(APPEND SIMDAX_ISAS ${isa})
  set(SIMDAX_ISA_FLAGS_${isa} "${flags}")
endforeach()
message(STATUS "simdax ISAs compiled in: ${SIMDAX_ISAS}")
