# Dependencies, all from Debian packages (see README).
find_package(Threads REQUIRED)

# xsimd 8.1 (libxsimd-dev, header only): the base of the AVX2 and NEON vector
# traits. Its exported target links "xtl", which Debian's config never finds;
# drop that link (docs/dependencies.md). Debian keeps the config under the build
# host's multiarch directory, which a cross build does not search: look there.
find_package(xsimd 8.1 CONFIG REQUIRED
  PATHS /usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu/cmake/xsimd)
if(NOT TARGET xtl)
  set_target_properties(xsimd PROPERTIES INTERFACE_LINK_LIBRARIES "")
endif()

# libcpuid (libcpuid-dev) ships only a pkg-config file; x86 only.
set(SIMDAX_X86 OFF)
set(SIMDAX_AARCH64 OFF)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(SIMDAX_X86 ON)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(LIBCPUID REQUIRED IMPORTED_TARGET libcpuid)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(SIMDAX_AARCH64 ON)
endif()

if(SIMDAX_BUILD_TESTS)
  if(CMAKE_CROSSCOMPILING AND EXISTS /usr/src/googletest/CMakeLists.txt)
    # No target-arch gtest package: build Debian's sources (docs/dependencies.md).
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(/usr/src/googletest ${CMAKE_BINARY_DIR}/_googletest EXCLUDE_FROM_ALL)
    if(NOT TARGET GTest::gtest_main)
      add_library(GTest::gtest_main ALIAS gtest_main)
      add_library(GTest::gtest ALIAS gtest)
    endif()
  else()
    find_package(GTest REQUIRED)
  endif()
endif()
if(SIMDAX_BUILD_BENCH AND NOT CMAKE_CROSSCOMPILING)
  find_package(benchmark QUIET)
endif()
find_package(nlohmann_json 3 QUIET)
