# Cross build for aarch64 Linux with Debian's cross toolchain, tested under
# qemu-user (packages g++-aarch64-linux-gnu qemu-user; see README "Arm").
#   cmake -S . -B build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm && ctest --test-dir build-arm -L emulated
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SIMDAX_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${SIMDAX_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${SIMDAX_CROSS_TRIPLE}-g++)

# Target libraries come from the cross sysroot only, never from the host's
# /usr/lib. Headers and CMake package configs may also come from the host:
# the architecture-independent ones (nlohmann-json's config in
# /usr/share/cmake, xsimd/gtest headers in /usr/include) serve both, and the
# host's binary packages keep their configs under /usr/lib/x86_64-linux-gnu,
# which a search for the aarch64-linux-gnu library architecture never visits.
# (The cross g++ itself searches /usr/include last, after the sysroot; never
# add -I/usr/include, which would put x86 glibc headers first.)
set(CMAKE_FIND_ROOT_PATH /usr/${SIMDAX_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# ctest (and try_run) put this in front of every target program: qemu-user
# with the sysroot's loader and libraries. The emulated CPU defaults to
# qemu's "max" (FP16 included); QEMU_CPU=cortex-a53 picks a v8.0 core.
find_program(SIMDAX_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${SIMDAX_QEMU_AARCH64} -L /usr/${SIMDAX_CROSS_TRIPLE})
