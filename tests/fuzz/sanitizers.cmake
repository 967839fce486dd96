# The fuzzing build (-DFE_FUZZ=ON, clang only): every library is compiled with AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation, so the fuzz targets in this
# folder find bugs in the project's code, and the unit tests built alongside run sanitised too.
# A separate build directory keeps the ordinary g++ build untouched (scripts/fuzz.sh).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "FE_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
endif()
# Any undefined behaviour aborts the input that caused it, as a crash would: a fuzzer that only
# printed it would report the run as clean.
set(FE_SANITIZE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options(${FE_SANITIZE} -fsanitize=fuzzer-no-link -gline-tables-only)
add_link_options(${FE_SANITIZE})
