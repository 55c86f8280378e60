# Unit tests of the third-party adapters' entry points against hand-derived spec values, one file
# per adapter, built for the adapters this machine could build. Label `thirdparty`, default run.
set(nc_tp_tests "")
set(nc_tp_defs "")
foreach(pair IN ITEMS cuda_host:CUDA_HOST eigen:EIGEN fp16:FP16 gcc_float16_soft:GCC_FLOAT16_SOFT
                      gcc_float16_f16c:GCC_FLOAT16_F16C avx512_bf16:AVX512_BF16 highway_sse4:HIGHWAY_SSE4
                      highway_avx2:HIGHWAY_AVX2)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 impl)
  list(GET pair 1 macro)
  if(TARGET nc_tp_${impl})
    list(APPEND nc_tp_defs "NC_TP_PLUGIN_${macro}=\"$<TARGET_FILE:nc_tp_${impl}>\"")
  endif()
endforeach()
if(TARGET nc_tp_cuda_host)
  list(APPEND nc_tp_tests ${CMAKE_CURRENT_LIST_DIR}/cuda_host_test.cc)
endif()
list(APPEND nc_tp_tests ${CMAKE_CURRENT_LIST_DIR}/eigen_test.cc ${CMAKE_CURRENT_LIST_DIR}/fp16_test.cc)
if(TARGET nc_tp_highway_sse4)
  list(APPEND nc_tp_tests ${CMAKE_CURRENT_LIST_DIR}/highway_test.cc)
endif()
if(TARGET nc_tp_gcc_float16_soft)
  list(APPEND nc_tp_tests ${CMAKE_CURRENT_LIST_DIR}/gcc_float16_test.cc ${CMAKE_CURRENT_LIST_DIR}/avx512_bf16_test.cc)
endif()

add_executable(nc_thirdparty_adapter_tests ${nc_tp_tests})
target_include_directories(nc_thirdparty_adapter_tests PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(nc_thirdparty_adapter_tests PRIVATE ${nc_tp_defs})
target_link_libraries(nc_thirdparty_adapter_tests PRIVATE nc_catch_main ${CMAKE_DL_LIBS})
get_property(nc_tp_plugins GLOBAL PROPERTY NC_THIRDPARTY_PLUGINS)
add_dependencies(nc_thirdparty_adapter_tests ${nc_tp_plugins})
catch_discover_tests(nc_thirdparty_adapter_tests PROPERTIES LABELS thirdparty)

if(TARGET nc_tp_gcc_float16_f16c)
  add_test(NAME "thirdparty: x86 adapters unavailable without the CPU feature"
           COMMAND nc_thirdparty_adapter_tests "[unavailable]")
  set_tests_properties("thirdparty: x86 adapters unavailable without the CPU feature" PROPERTIES
                       LABELS thirdparty ENVIRONMENT NC_THIRDPARTY_NO_X86_FEATURES=1)
endif()

# One row per implementation in implementations.json (implementations.py names the members): the
# pipe adapters' tests and the certification checks below are registered from its rows.
set(nc_tp_rows_file ${CMAKE_CURRENT_LIST_DIR}/implementations.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${nc_tp_rows_file})
file(READ ${nc_tp_rows_file} nc_tp_rows_json)
string(JSON nc_tp_row_count ERROR_VARIABLE nc_tp_json_error LENGTH "${nc_tp_rows_json}" implementations)
if(nc_tp_json_error)
  message(FATAL_ERROR "${nc_tp_rows_file}: ${nc_tp_json_error}")
endif()
set(nc_tp_names "")           # every row, in order
set(nc_tp_pipe_group "")      # adapter_test pipe_adapters_test.py: one ctest for all of them
set(nc_tp_framework_tests "") # adapter_test framework_adapters_test.py: one ctest each
set(nc_tp_sampled "")         # ci_stride: CI samples; the certificate's own sweeps under label long
math(EXPR nc_tp_last "${nc_tp_row_count} - 1")
foreach(i RANGE ${nc_tp_last})
  string(JSON name GET "${nc_tp_rows_json}" implementations ${i} name)
  list(APPEND nc_tp_names ${name})
  string(JSON adapter_test ERROR_VARIABLE no_member GET "${nc_tp_rows_json}" implementations ${i} adapter_test)
  if(adapter_test STREQUAL "pipe_adapters_test.py")
    list(APPEND nc_tp_pipe_group ${name})
  elseif(adapter_test STREQUAL "framework_adapters_test.py")
    list(APPEND nc_tp_framework_tests ${name})
  endif()
  string(JSON ci_stride ERROR_VARIABLE no_member GET "${nc_tp_rows_json}" implementations ${i} ci_stride)
  if(NOT no_member)
    list(APPEND nc_tp_sampled ${name})
  endif()
endforeach()

# The generated tables (README.md, docs/certifications/README.md, this folder's README.md) are what
# implementations.json and the committed expected findings give; the file itself is valid.
add_test(NAME "thirdparty: implementations.json and the tables generated from it"
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/implementations.py --check)
set_tests_properties("thirdparty: implementations.json and the tables generated from it" PROPERTIES
                     LABELS thirdparty TIMEOUT 60)

# Its checks on edited copies: pins agree within a venv (not across), venv names, the target spec.
add_test(NAME "thirdparty: implementations.py refuses what one venv cannot hold"
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/implementations_test.py)
set_tests_properties("thirdparty: implementations.py refuses what one venv cannot hold" PROPERTIES
                     LABELS thirdparty TIMEOUT 60)

# The Python pipe adapters, run by the project venv (scripts/install-thirdparty). Without the venv
# the test reports SKIPPED (exit 77) and says how to create it; scripts/test always creates it.
list(POP_BACK nc_tp_pipe_group nc_tp_pipe_last)
list(JOIN nc_tp_pipe_group ", " nc_tp_pipe_names)
set(nc_tp_pipe_test "thirdparty: ${nc_tp_pipe_names} and ${nc_tp_pipe_last} pipe adapters")
add_test(NAME "${nc_tp_pipe_test}"
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/pipe_adapters_test.py
                 ${PROJECT_SOURCE_DIR})
set_tests_properties("${nc_tp_pipe_test}" PROPERTIES LABELS thirdparty SKIP_RETURN_CODE 77 TIMEOUT 60)

# The ML framework adapters, one test each so a framework the venv cannot import skips alone
# (exit 77, saying what the import lacked).
foreach(adapter IN LISTS nc_tp_framework_tests)
  add_test(NAME "thirdparty: ${adapter} pipe adapter"
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/framework_adapters_test.py
                   ${PROJECT_SOURCE_DIR} ${adapter})
  set_tests_properties("thirdparty: ${adapter} pipe adapter" PROPERTIES
                       LABELS thirdparty SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()

# The committed certificates as `ninfer-conform verify` sees them: every digest holds, every
# identity is whole, each folder's files agree.
if(TARGET ninfer-conform)
  add_test(NAME "thirdparty: committed certificates verify"
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/implementations.py
                   --verify-certificates $<TARGET_FILE:ninfer-conform>)
  set_tests_properties("thirdparty: committed certificates verify" PROPERTIES LABELS thirdparty TIMEOUT 120)
endif()

# The certification check itself, on a hand-derived fixture corpus (needs the CLI and zstd, and
# the GCC-only x86 adapters it certifies: not in clang builds such as the asan preset).
if(TARGET ninfer-conform AND TARGET nc_tp_avx512_bf16)
  add_test(NAME "thirdparty: certification check detects changed findings"
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/certify_check_test.py
                   $<TARGET_FILE:ninfer-conform> ${PROJECT_BINARY_DIR})
  set_tests_properties("thirdparty: certification check detects changed findings" PROPERTIES
                       LABELS thirdparty TIMEOUT 60)

  # One re-certification per implementation against the committed corpus plus sweeps of every
  # convert.* and decode.* domain it provides (every binary32 input, or its row's sweep_stride),
  # compared with docs/certifications/IMPL/expected-findings.json (skipped until both exist, and
  # for a hardware adapter on a CPU without its instruction). The rows with a ci_stride are swept
  # 1 in S here, against expected-findings.stride-S.json.
  foreach(impl IN LISTS nc_tp_names)
    add_test(NAME "thirdparty certification: ${impl}"
             COMMAND python3 ${PROJECT_SOURCE_DIR}/targets/thirdparty/certify.py
                     --cli $<TARGET_FILE:ninfer-conform> --build ${PROJECT_BINARY_DIR} ${impl} --check)
    set_tests_properties("thirdparty certification: ${impl}" PROPERTIES
                         LABELS thirdparty SKIP_RETURN_CODE 77 TIMEOUT 900)
  endforeach()

  # Their certificates' own sweeps (every binary32 input), compared with the committed
  # expected-findings.json: 3 to 40 minutes each on two cores, so label `long`.
  foreach(impl IN LISTS nc_tp_sampled)
    add_test(NAME "thirdparty certification, certificate sweeps: ${impl}"
             COMMAND python3 ${PROJECT_SOURCE_DIR}/targets/thirdparty/certify.py
                     --cli $<TARGET_FILE:ninfer-conform> --build ${PROJECT_BINARY_DIR} ${impl} --check --full)
    set_tests_properties("thirdparty certification, certificate sweeps: ${impl}" PROPERTIES
                         LABELS long SKIP_RETURN_CODE 77 TIMEOUT 7200)
  endforeach()
endif()
