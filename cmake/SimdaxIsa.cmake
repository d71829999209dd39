# The ISA table: one row per ISA — name|CPU family|compile flags (comma-separated).
# The name is the one identifier used everywhere (file suffix, namespace,
# SIMDAX_MAX_ISA value, test and benchmark names).
# To add an ISA: a row here, an enum value in include/simdax/simdax.h and
# dispatch/isa.cpp, a detection predicate in dispatch/cpu_features.cpp,
# and kernels/<isa>/.
set(SIMDAX_ISA_ROWS
  "scalar|any|"
  "avx2|x86|-mavx2,-mfma,-mf16c"
  "avx512|x86|-mavx2,-mfma,-mf16c,-mavx512f,-mavx512cd,-mavx512bw,-mavx512dq,-mavx512vl"
  "avx512fp16|x86|-mavx2,-mfma,-mf16c,-mavx512f,-mavx512cd,-mavx512bw,-mavx512dq,-mavx512vl,-mavx512fp16,-mavx512bf16"
  "neon|aarch64|"
  "neonfp16|aarch64|-march=armv8.2-a+fp16"
)

# SIMDAX_ISAS: the ISAs this build compiles in (those with sources in
# kernels/<isa>/ and a matching CPU family, and not switched off).
set(SIMDAX_ISAS)
foreach(row IN LISTS SIMDAX_ISA_ROWS)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 isa)
  list(GET fields 1 family)
  list(GET fields 2 flags)
  string(REPLACE "," ";" flags "${flags}")
  string(TOUPPER "${isa}" ISA)
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
