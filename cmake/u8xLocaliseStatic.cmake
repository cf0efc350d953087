# cmake -DNM= -DLD= -DOBJCOPY= -DAR= -DINPUT=cargo's libu8x.a -DOUTPUT=libu8x.a -DWORK=dir -P this
#
# The Makefile's recipe for libu8x.a, for builds without make: rustc's
# staticlib carries all of core and compiler_builtins with global symbols,
# which clash with any other Rust static library in the same link. Link it
# into one relocatable object from the u8x_ entry points (dropping what they
# cannot reach), make every other symbol local, strip debug info.
# (tests/consumers/run.sh checks that both recipes install the same bytes.)
#
# OUTPUT is replaced only when its contents change, so that an up to date build
# relinks nothing; the work is skipped when INPUT has not changed since.

foreach(_var NM LD OBJCOPY AR INPUT OUTPUT WORK)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "u8xLocaliseStatic.cmake: -D${_var}= is missing")
  endif()
endforeach()

file(TIMESTAMP "${INPUT}" _stamp "%Y-%m-%dT%H:%M:%S" UTC)
file(SIZE "${INPUT}" _size)
set(_stamp "${_stamp} ${_size} ${INPUT} ${LD} ${OBJCOPY} ${AR}")
if(EXISTS "${OUTPUT}" AND EXISTS "${WORK}/stamp")
  file(READ "${WORK}/stamp" _done)
  if(_done STREQUAL _stamp)
    return()
  endif()
endif()
file(MAKE_DIRECTORY "${WORK}")

function(u8x_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(REPLACE ";" " " _cmd "${ARGN}")
    message(FATAL_ERROR "u8x: `${_cmd}` failed (${_rc}):\n${_out}${_err}")
  endif()
  set(u8x_run_output "${_out}" PARENT_SCOPE)
endfunction()

u8x_run("${NM}" -g --defined-only "${INPUT}")
string(REGEX MATCHALL "[^\n]+" _lines "${u8x_run_output}")
set(_entries)
foreach(_line IN LISTS _lines)
  # "address type name": the entry points are the defined u8x_ names.
  if(_line MATCHES "^[0-9a-fA-F]+ [A-Za-z] (u8x_[^ ]*)$")
    list(APPEND _entries "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(REMOVE_DUPLICATES _entries)
list(SORT _entries)
if(NOT _entries)
  message(FATAL_ERROR "u8x: ${INPUT} defines no u8x_ symbol")
endif()
set(_undefined)
foreach(_name IN LISTS _entries)
  list(APPEND _undefined -u "${_name}")
endforeach()

u8x_run("${LD}" -r --gc-sections ${_undefined} -o "${WORK}/u8x-all.o" "${INPUT}")
u8x_run("${OBJCOPY}" --wildcard "--keep-global-symbol=u8x_*" --strip-debug
  "${WORK}/u8x-all.o" "${WORK}/u8x.o")
file(REMOVE "${WORK}/libu8x.a")
u8x_run("${AR}" rcsD "${WORK}/libu8x.a" "${WORK}/u8x.o")
u8x_run("${CMAKE_COMMAND}" -E copy_if_different "${WORK}/libu8x.a" "${OUTPUT}")
file(WRITE "${WORK}/stamp" "${_stamp}")
