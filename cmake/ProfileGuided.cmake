# A profile-guided build of the Python module (UNVEIL_PGO, on for wheels).
#
# The decompiler is branchy code whose hot paths a compiler cannot guess: a
# profile of a real run tells GCC which branches are taken, what to inline and
# how to lay out the code (about 16% less time per call on the stdlib sample,
# with link-time optimisation). Three steps, all inside one build:
#
#   1. pgo/instrumented: this same project, built as a separate CMake project
#      with -fprofile-generate (the module only);
#   2. tools/pgo_train.py runs that module over the build Python's standard
#      library packages; the counts land in pgo/profile;
#   3. unveil_core and the module are compiled with -fprofile-use, and
#      link-time optimised.
#
# -fprofile-prefix-path makes the profile's file names relative to each build
# folder, so that step 3's objects find step 1's counts. Any source change
# reruns all three (a stale profile would only cost speed, but a build should
# be the same however it was reached).
include(ExternalProject)

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 11)
  message(STATUS "UNVEIL_PGO: needs GCC 11 or later (have ${CMAKE_CXX_COMPILER_ID} "
                 "${CMAKE_CXX_COMPILER_VERSION}); building without a profile")
  return()
endif()
if(NOT UNVEIL_BUILD_PYTHON)
  message(STATUS "UNVEIL_PGO: the training run uses the Python module; building without a profile")
  return()
endif()
find_package(Python 3.8 REQUIRED COMPONENTS Interpreter)
# With the profile, inlining across files pays (another ~3.5%; alone it gave
# nothing): both builds link-time optimise when the toolchain can.
include(CheckIPOSupported)
check_ipo_supported(RESULT _lto LANGUAGES CXX)

set(UNVEIL_PGO_DIR ${CMAKE_BINARY_DIR}/pgo)
set(_instrumented ${UNVEIL_PGO_DIR}/instrumented)
set(_profile ${UNVEIL_PGO_DIR}/profile)
set(_trained ${UNVEIL_PGO_DIR}/trained.stamp)

# The inner build runs as one step of this one, which would leave it one job.
if(DEFINED ENV{CMAKE_BUILD_PARALLEL_LEVEL})
  set(_jobs $ENV{CMAKE_BUILD_PARALLEL_LEVEL})
else()
  cmake_host_system_information(RESULT _jobs QUERY NUMBER_OF_LOGICAL_CORES)
endif()

ExternalProject_Add(unveil_pgo_instrumented
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${_instrumented}
  CMAKE_CACHE_ARGS
    -DCMAKE_BUILD_TYPE:STRING=${CMAKE_BUILD_TYPE}
    -DCMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}
    -DCMAKE_CXX_COMPILER_LAUNCHER:STRING=${CMAKE_CXX_COMPILER_LAUNCHER}
    # (single: the training run has one thread, and atomic counters are slow)
    "-DCMAKE_CXX_FLAGS:STRING=${CMAKE_CXX_FLAGS} -fprofile-generate=${_profile} -fprofile-prefix-path=${_instrumented} -fprofile-update=single"
    -DCMAKE_MODULE_LINKER_FLAGS:STRING=-fprofile-generate
    -DCMAKE_INTERPROCEDURAL_OPTIMIZATION:BOOL=${_lto}
    -DPython_EXECUTABLE:FILEPATH=${Python_EXECUTABLE}
    -Dnanobind_DIR:PATH=${nanobind_DIR}
    -DUNVEIL_BUILD_PYTHON:BOOL=ON
    -DUNVEIL_BUILD_CLI:BOOL=OFF
    -DUNVEIL_BUILD_TESTS:BOOL=OFF
    -DUNVEIL_PGO:BOOL=OFF
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target _core --parallel ${_jobs}
  BUILD_ALWAYS ON  # (its sources are ours: its own build tool decides what is stale)
  INSTALL_COMMAND "")

# What else the profile depends on. pip builds in a new temporary environment
# each time, so nanobind's headers move, and GCC keys a function's counts by
# its file's path: a profile taken with the old path is rejected as out of
# date (-Werror=coverage-mismatch) when the tree is built again. file(CONFIGURE)
# rewrites this file only when its text changes.
set(_inputs ${UNVEIL_PGO_DIR}/inputs.txt)
file(CONFIGURE OUTPUT ${_inputs} CONTENT "nanobind: ${nanobind_DIR}
python: ${Python_EXECUTABLE}
compiler: ${CMAKE_CXX_COMPILER} ${CMAKE_CXX_COMPILER_VERSION}
flags: ${CMAKE_CXX_FLAGS}
")

# The training reruns when any source or input does; every profiled object
# depends on it.
file(GLOB_RECURSE _profiled_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/core/*.cpp ${PROJECT_SOURCE_DIR}/core/*.h ${PROJECT_SOURCE_DIR}/core/*.inc
  ${PROJECT_SOURCE_DIR}/bindings/*.cpp)
add_custom_command(OUTPUT ${_trained}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${_profile}
  COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/pgo_train.py ${_instrumented}/bindings
  COMMAND ${CMAKE_COMMAND} -E touch ${_trained}
  DEPENDS unveil_pgo_instrumented ${_profiled_sources} ${_inputs} ${PROJECT_SOURCE_DIR}/tools/pgo_train.py
  COMMENT "Training the instrumented decompiler (profile-guided build)"
  VERBATIM)
add_custom_target(unveil_pgo_profile DEPENDS ${_trained})

set(_profiled_targets unveil_core _core)
if(TARGET nanobind-static)  # (nanobind's own library, linked into the module)
  list(APPEND _profiled_targets nanobind-static)
endif()
foreach(target IN LISTS _profiled_targets)
  add_dependencies(${target} unveil_pgo_profile)
  # -fprofile-partial-training: code the training never ran is optimised as
  # usual, not for size. -Wno-missing-profile: such code has no counts.
  set_target_properties(${target} PROPERTIES INTERPROCEDURAL_OPTIMIZATION ${_lto})
  target_compile_options(${target} PRIVATE
    -fprofile-use=${_profile} -fprofile-prefix-path=${CMAKE_BINARY_DIR}
    -fprofile-partial-training -Wno-missing-profile)
  # ccache does not see the profile among a compile's inputs: no launcher.
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "")
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_source_dir ${target} SOURCE_DIR)
  foreach(source IN LISTS _sources)
    if(NOT IS_ABSOLUTE ${source})
      set(source ${_source_dir}/${source})
    endif()
    set_property(SOURCE ${source} TARGET_DIRECTORY ${target} APPEND PROPERTY OBJECT_DEPENDS ${_trained})
  endforeach()
endforeach()
message(STATUS "UNVEIL_PGO: profile-guided build (profile in ${_profile})")
