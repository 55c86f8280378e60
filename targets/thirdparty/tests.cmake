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

# The Python pipe adapters, run by the project venv (scripts/install-thirdparty). Without the venv
# the test reports SKIPPED (exit 77) and says how to create it; scripts/test always creates it.
add_test(NAME "thirdparty: ml_dtypes, gfloat, numpy, gguf and pyarrow pipe adapters"
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/pipe_adapters_test.py
                 ${PROJECT_SOURCE_DIR})
set_tests_properties("thirdparty: ml_dtypes, gfloat, numpy, gguf and pyarrow pipe adapters" PROPERTIES
                     LABELS thirdparty SKIP_RETURN_CODE 77 TIMEOUT 60)

# The ML framework adapters, one test each so a framework the venv cannot import skips alone
# (exit 77, saying what the import lacked).
foreach(adapter pytorch pytorch-strided jax openvino openvino-static onnxruntime onnx-reference torchao
                compressed-tensors modelopt)
  add_test(NAME "thirdparty: ${adapter} pipe adapter"
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/framework_adapters_test.py
                   ${PROJECT_SOURCE_DIR} ${adapter})
  set_tests_properties("thirdparty: ${adapter} pipe adapter" PROPERTIES
                       LABELS thirdparty SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# The certification check itself, on a hand-derived fixture corpus (needs the CLI and zstd, and
# the GCC-only x86 adapters it certifies: not in clang builds such as the asan preset).
if(TARGET ninfer-conform AND TARGET nc_tp_avx512_bf16)
  add_test(NAME "thirdparty: certification check detects changed findings"
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/certify_check_test.py
                   $<TARGET_FILE:ninfer-conform> ${PROJECT_BINARY_DIR})
  set_tests_properties("thirdparty: certification check detects changed findings" PROPERTIES
                       LABELS thirdparty TIMEOUT 60)

  # One re-certification per implementation against the committed corpus plus sweeps of every
  # convert.* and decode.* domain it provides (every binary32 input, or the stride certify.py names
  # for the slow ones), compared with docs/certifications/IMPL/expected-findings.json (skipped until
  # both exist, and for a hardware adapter on a CPU without its instruction).
  # The frameworks are swept 1 in certify.py's CI_STRIDE here, against
  # expected-findings.stride-S.json.
  foreach(impl cuda-toolkit-host eigen fp16-lib gcc-float16-libgcc gcc-float16-f16c
               x86-avx512bf16-vcvtneps2bf16 highway-sse4 highway-avx2 ml_dtypes gfloat numpy gguf pyarrow
               pytorch pytorch-strided pytorch-avx2 pytorch-default jax openvino openvino-static onnxruntime
               onnx-reference torchao compressed-tensors modelopt)
    add_test(NAME "thirdparty certification: ${impl}"
             COMMAND python3 ${PROJECT_SOURCE_DIR}/targets/thirdparty/certify.py
                     --cli $<TARGET_FILE:ninfer-conform> --build ${PROJECT_BINARY_DIR} ${impl} --check)
    set_tests_properties("thirdparty certification: ${impl}" PROPERTIES
                         LABELS thirdparty SKIP_RETURN_CODE 77 TIMEOUT 900)
  endforeach()

  # The frameworks' certificates' own sweeps (every binary32 input), compared with the committed
  # expected-findings.json: 3 to 40 minutes each on two cores, so label `long`.
  foreach(impl pytorch pytorch-strided jax openvino onnxruntime onnx-reference numpy gguf
               highway-sse4 highway-avx2)
    add_test(NAME "thirdparty certification, certificate sweeps: ${impl}"
             COMMAND python3 ${PROJECT_SOURCE_DIR}/targets/thirdparty/certify.py
                     --cli $<TARGET_FILE:ninfer-conform> --build ${PROJECT_BINARY_DIR} ${impl} --check --full)
    set_tests_properties("thirdparty certification, certificate sweeps: ${impl}" PROPERTIES
                         LABELS long SKIP_RETURN_CODE 77 TIMEOUT 7200)
  endforeach()
endif()
