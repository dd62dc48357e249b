# AttnplayDeps.cmake — header-only dependencies from Debian's packages, usable by Emscripten too.
# Emscripten must not see /usr/include as a whole (its libc would clash), so the needed headers
# are linked into one private folder of the build tree.
find_path(EIGEN3_INCLUDE_DIR Eigen/Core PATHS /usr/include/eigen3 NO_CMAKE_FIND_ROOT_PATH REQUIRED)
find_path(NLOHMANN_JSON_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
find_path(CATCH2_DIR catch2/catch.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH)

set(ATTNPLAY_THIRD_PARTY_INCLUDE "${CMAKE_BINARY_DIR}/third_party_include")
file(MAKE_DIRECTORY "${ATTNPLAY_THIRD_PARTY_INCLUDE}")
if(NOT EXISTS "${ATTNPLAY_THIRD_PARTY_INCLUDE}/nlohmann")
  file(CREATE_LINK "${NLOHMANN_JSON_DIR}/nlohmann" "${ATTNPLAY_THIRD_PARTY_INCLUDE}/nlohmann" SYMBOLIC)
endif()
if(CATCH2_DIR AND NOT EXISTS "${ATTNPLAY_THIRD_PARTY_INCLUDE}/catch2")
  file(CREATE_LINK "${CATCH2_DIR}/catch2" "${ATTNPLAY_THIRD_PARTY_INCLUDE}/catch2" SYMBOLIC)
endif()

add_library(attnplay_deps INTERFACE)
target_include_directories(attnplay_deps SYSTEM INTERFACE "${EIGEN3_INCLUDE_DIR}" "${ATTNPLAY_THIRD_PARTY_INCLUDE}")
# Eigen's own asserts stay on in tests; NDEBUG in Release removes them.
if(EMSCRIPTEN)
  # Exceptions are used at decoder boundaries (nlohmann-json); hot loops never throw. Native WebAssembly
  # exceptions: JS-emulated ones (-fexceptions) route every call that may throw through a JS trampoline, which
  # made the page's module far larger and slower to start. Every browser with wasm SIMD has them.
  target_compile_options(attnplay_deps INTERFACE -msimd128 -fwasm-exceptions)
  target_link_options(attnplay_deps INTERFACE -msimd128 -fwasm-exceptions)
elseif(ATTNPLAY_NATIVE_ARCH)
  target_compile_options(attnplay_deps INTERFACE -march=native)
endif()
if(ATTNPLAY_SANITIZE)
  # The sanitizer tree is built by clang++-14 so that the same objects also feed the libFuzzer target
  # (tests/fuzz): fuzzer-no-link adds the coverage hooks, which the ASan runtime answers when not fuzzing.
  set(_fuzz_cov "")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(_fuzz_cov -fsanitize=fuzzer-no-link)
  endif()
  target_compile_options(attnplay_deps INTERFACE -fsanitize=address,undefined ${_fuzz_cov} -fno-omit-frame-pointer
                                                 -fno-sanitize-recover=undefined)
  target_link_options(attnplay_deps INTERFACE -fsanitize=address,undefined)
endif()
