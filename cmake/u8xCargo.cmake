# The libraries, built by cargo and staged in ${PROJECT_BINARY_DIR}/lib, and
# the u8x::u8x / u8x::u8x_static targets over them (included by
# CMakeLists.txt, which sets the options and U8X_SONAME, U8X_REALNAME).
#
# Rebuilding when a Rust source changes is cargo's job: the custom target
# runs cargo on every build (a tenth of a second when nothing changed), and
# the staged files are replaced only when their contents change, so an up to
# date build relinks nothing. BYPRODUCTS tell Ninja (and the Makefile
# generators' clean) which rule writes the files the targets link.

if(U8X_CARGO_PROFILE STREQUAL "dev")
  set(_u8x_profile_dir debug)
else()
  set(_u8x_profile_dir "${U8X_CARGO_PROFILE}")
endif()
set(_u8x_cargo_env)
if(U8X_RUST_TARGET)
  set(_u8x_cargo_target --target "${U8X_RUST_TARGET}")
  set(_u8x_out "${U8X_CARGO_TARGET_DIR}/${U8X_RUST_TARGET}/${_u8x_profile_dir}")
  # Cargo links the shared library with the host's `cc` unless told
  # otherwise; the project's C compiler is the one for that target.
  string(TOUPPER "${U8X_RUST_TARGET}" _u8x_triple_var)
  string(REPLACE "-" "_" _u8x_triple_var "${_u8x_triple_var}")
  if(NOT DEFINED ENV{CARGO_TARGET_${_u8x_triple_var}_LINKER})
    set(_u8x_cargo_env "CARGO_TARGET_${_u8x_triple_var}_LINKER=${CMAKE_C_COMPILER}")
  endif()
else()
  set(_u8x_cargo_target)
  set(_u8x_out "${U8X_CARGO_TARGET_DIR}/${_u8x_profile_dir}")
endif()
foreach(_u8x_tool LINKER NM OBJCOPY AR)
  if(NOT CMAKE_${_u8x_tool})
    message(FATAL_ERROR "u8x: CMake found no ${_u8x_tool} (GNU binutils) for the static library")
  endif()
endforeach()

set(_u8x_lib "${PROJECT_BINARY_DIR}/lib")
file(MAKE_DIRECTORY "${_u8x_lib}")
# The same rustc command line as the Makefile's, so that cargo finds the
# Makefile's build fresh in a shared target directory, and the reverse.
add_custom_target(u8x_cargo
  COMMAND ${CMAKE_COMMAND} -E env ${_u8x_cargo_env} CARGO_TERM_PROGRESS_WHEN=never
    "${U8X_CARGO}" rustc --profile "${U8X_CARGO_PROFILE}" --lib --features capi
    --crate-type cdylib,staticlib --target-dir "${U8X_CARGO_TARGET_DIR}" ${_u8x_cargo_target}
    -- -C "link-arg=-Wl,-soname,${U8X_SONAME}"
  COMMAND ${CMAKE_COMMAND} -E copy_if_different "${_u8x_out}/libu8x.so" "${_u8x_lib}/${U8X_REALNAME}"
  COMMAND ${CMAKE_COMMAND} -E create_symlink "${U8X_REALNAME}" "${_u8x_lib}/${U8X_SONAME}"
  COMMAND ${CMAKE_COMMAND} -E create_symlink "${U8X_SONAME}" "${_u8x_lib}/libu8x.so"
  COMMAND ${CMAKE_COMMAND} "-DNM=${CMAKE_NM}" "-DLD=${CMAKE_LINKER}" "-DOBJCOPY=${CMAKE_OBJCOPY}"
    "-DAR=${CMAKE_AR}" "-DINPUT=${_u8x_out}/libu8x.a" "-DOUTPUT=${_u8x_lib}/libu8x.a"
    "-DWORK=${PROJECT_BINARY_DIR}/static" -P "${PROJECT_SOURCE_DIR}/cmake/u8xLocaliseStatic.cmake"
  BYPRODUCTS "${_u8x_out}/libu8x.so" "${_u8x_out}/libu8x.a" "${_u8x_lib}/${U8X_REALNAME}"
    "${_u8x_lib}/${U8X_SONAME}" "${_u8x_lib}/libu8x.so" "${_u8x_lib}/libu8x.a"
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  COMMENT "u8x: cargo rustc --profile ${U8X_CARGO_PROFILE} (libu8x.so, libu8x.a)"
  USES_TERMINAL
  VERBATIM)

# IMPORTED GLOBAL, as find_package's targets are imported: the parent links
# them alike, and a later find_package(u8x) in the same build keeps these.
add_library(u8x::u8x SHARED IMPORTED GLOBAL)
set_target_properties(u8x::u8x PROPERTIES
  IMPORTED_LOCATION "${_u8x_lib}/${U8X_SONAME}"
  IMPORTED_SONAME "${U8X_SONAME}"
  INTERFACE_INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/include")
add_dependencies(u8x::u8x u8x_cargo)

# Needs only libc, which every C and C++ link brings (as installed).
add_library(u8x::u8x_static STATIC IMPORTED GLOBAL)
set_target_properties(u8x::u8x_static PROPERTIES
  IMPORTED_LOCATION "${_u8x_lib}/libu8x.a"
  IMPORTED_LINK_INTERFACE_LANGUAGES "C"
  INTERFACE_INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/include")
add_dependencies(u8x::u8x_static u8x_cargo)

# The preload library (preload/README.md), with the Makefile's flags: C,
# linked with libu8x.a, exporting exactly exports.map, unversioned (loaded by
# path, never by a SONAME). Built only for the install rules.
if(U8X_INSTALL)
  set(_u8x_preload_all)
else()
  set(_u8x_preload_all EXCLUDE_FROM_ALL)
endif()
add_library(u8x_preload SHARED ${_u8x_preload_all} "${PROJECT_SOURCE_DIR}/preload/u8x_libc.c")
set_target_properties(u8x_preload PROPERTIES
  OUTPUT_NAME u8x-libc
  LIBRARY_OUTPUT_DIRECTORY "${_u8x_lib}"
  NO_SONAME ON
  C_STANDARD 11
  C_EXTENSIONS ON
  C_VISIBILITY_PRESET hidden
  LINK_DEPENDS "${PROJECT_SOURCE_DIR}/preload/exports.map")
target_compile_options(u8x_preload PRIVATE -O2 -ffunction-sections -Wall -Wextra)
target_link_libraries(u8x_preload PRIVATE u8x::u8x_static)
target_link_options(u8x_preload PRIVATE
  "-Wl,--version-script=${PROJECT_SOURCE_DIR}/preload/exports.map"
  -Wl,-z,defs -Wl,--gc-sections -Wl,--as-needed)
target_link_libraries(u8x_preload PRIVATE dl)

# The command, and the man pages and completions it writes about itself.
if(U8X_CLI)
  set(_u8x_share "${PROJECT_BINARY_DIR}/share")
  add_custom_target(u8x_cli ALL
    COMMAND ${CMAKE_COMMAND} -E env ${_u8x_cargo_env} CARGO_TERM_PROGRESS_WHEN=never
      "${U8X_CARGO}" build --profile "${U8X_CARGO_PROFILE}" -p u8x-cli
      --target-dir "${U8X_CARGO_TARGET_DIR}" ${_u8x_cargo_target}
    COMMAND ${CMAKE_COMMAND} -E rm -rf "${_u8x_share}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_u8x_share}/man1" "${_u8x_share}/completions"
    COMMAND "${_u8x_out}/u8x" man --dir "${_u8x_share}/man1"
    COMMAND "${_u8x_out}/u8x" completions bash > "${_u8x_share}/completions/u8x"
    COMMAND "${_u8x_out}/u8x" completions zsh > "${_u8x_share}/completions/_u8x"
    COMMAND "${_u8x_out}/u8x" completions fish > "${_u8x_share}/completions/u8x.fish"
    BYPRODUCTS "${_u8x_out}/u8x" "${_u8x_share}/man1/u8x.1" "${_u8x_share}/completions/u8x"
      "${_u8x_share}/completions/_u8x" "${_u8x_share}/completions/u8x.fish"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    COMMENT "u8x: cargo build -p u8x-cli --profile ${U8X_CARGO_PROFILE}, man pages, completions"
    USES_TERMINAL
    VERBATIM)
  set(U8X_CLI_EXECUTABLE "${_u8x_out}/u8x")
endif()

unset(_u8x_tool)
unset(_u8x_triple_var)
unset(_u8x_profile_dir)
unset(_u8x_preload_all)
