# Packaging: version check, build-tree aliases, and the install rules —
# headers, libsimdax.so.MAJOR (target simdax) and libsimdax.a (simdax_static),
# the CMake package (find_package(simdax CONFIG) -> simdax::simdax,
# simdax::simdax_static) and simdax.pc, all in the GNUInstallDirs places
# under CMAKE_INSTALL_PREFIX. Included from the top-level CMakeLists.txt
# after the library targets exist.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The header's SIMDAX_VERSION_* must equal project(VERSION): simdax_version()
# reports PROJECT_VERSION, a program compiled against the header sees the
# macros, and the package and SONAME are named after PROJECT_VERSION.
file(STRINGS ${PROJECT_SOURCE_DIR}/include/simdax/simdax.h _simdax_version_lines
     REGEX "^#define SIMDAX_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
foreach(_part MAJOR MINOR PATCH)
  set(_value "")
  foreach(_line IN LISTS _simdax_version_lines)
    if(_line MATCHES "^#define SIMDAX_VERSION_${_part} +([0-9]+)")
      set(_value "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT _value STREQUAL "${PROJECT_VERSION_${_part}}")
    message(FATAL_ERROR "include/simdax/simdax.h: SIMDAX_VERSION_${_part} is '${_value}' "
      "but project(simdax VERSION ${PROJECT_VERSION}) says '${PROJECT_VERSION_${_part}}'")
  endif()
endforeach()

# The names a consumer uses, also when simdax is an add_subdirectory().
add_library(simdax::simdax ALIAS simdax)
add_library(simdax::simdax_static ALIAS simdax_static)

# Install rules: on by default for a top-level build, off when simdax is
# someone's subdirectory (set SIMDAX_INSTALL=ON to ship it with the parent).
if(CMAKE_SOURCE_DIR STREQUAL PROJECT_SOURCE_DIR)
  set(_simdax_install_default ON)
else()
  set(_simdax_install_default OFF)
endif()
option(SIMDAX_INSTALL "Generate the install rules of simdax" ${_simdax_install_default})
if(NOT SIMDAX_INSTALL)
  return()
endif()

set(SIMDAX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/simdax)

# Two export sets: the static library's interface names Threads and
# libcpuid, the shared library's names nothing, so a consumer of the shared
# library configures without libcpuid's development files.
install(TARGETS simdax EXPORT simdaxTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT devel
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS simdax_static EXPORT simdaxStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/simdax
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

# CMake package. The targets files are relocatable; the config file finds
# the static library's dependencies itself (Threads; libcpuid through
# pkg-config on x86) and loads that library only when they are there.
install(EXPORT simdaxTargets NAMESPACE simdax:: FILE simdaxTargets.cmake
  DESTINATION ${SIMDAX_CMAKE_DIR} COMPONENT devel)
install(EXPORT simdaxStaticTargets NAMESPACE simdax:: FILE simdaxStaticTargets.cmake
  DESTINATION ${SIMDAX_CMAKE_DIR} COMPONENT devel)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/simdaxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/simdaxConfig.cmake INSTALL_DESTINATION ${SIMDAX_CMAKE_DIR})
# The ABI is stable within a major version (see simdax.h).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/simdaxConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/simdaxConfig.cmake
              ${PROJECT_BINARY_DIR}/simdaxConfigVersion.cmake
  DESTINATION ${SIMDAX_CMAKE_DIR} COMPONENT devel)

# pkg-config. The prefix is written at install time, so the file names the
# prefix actually installed to (CMAKE_INSTALL_PREFIX, or cmake --install
# --prefix); libdir/includedir are relative to it unless absolute.
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(SIMDAX_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(SIMDAX_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
# Static linking needs what libsimdax.a uses: libcpuid (x86), threads, and
# the C++ runtime (a C program links with the C driver).
set(SIMDAX_PC_LIBS_PRIVATE "-pthread -lstdc++ -lm")
if(SIMDAX_X86)
  set(SIMDAX_PC_LIBS_PRIVATE "-lcpuid ${SIMDAX_PC_LIBS_PRIVATE}")
endif()
# simdax.pc: -lsimdax, which the linker resolves to libsimdax.so wherever
# both libraries are installed (its --static output serves fully static
# links, cc -static). simdax-static.pc names the archive itself, plus what
# it needs, for a program that links libsimdax.a and nothing of simdax
# dynamically.
set(SIMDAX_PC_PREFIX "@SIMDAX_PC_PREFIX@")  # kept for the install-time pass
foreach(_pc simdax simdax-static)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${_pc}.pc.in ${PROJECT_BINARY_DIR}/${_pc}.pc.in @ONLY)
  install(CODE "
    set(SIMDAX_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${PROJECT_BINARY_DIR}/${_pc}.pc.in\" \"${PROJECT_BINARY_DIR}/${_pc}.pc\" @ONLY)
  " COMPONENT devel)
  install(FILES ${PROJECT_BINARY_DIR}/${_pc}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)
endforeach()
