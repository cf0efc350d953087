# Run by the install rules (u8xInstall.cmake), at install time: writes u8x.pc,
# u8xConfig.cmake and u8xConfigVersion.cmake from the templates in pkg/ for
# CMAKE_INSTALL_PREFIX, with the substitutions of the Makefile's subst_dirs.
# In: U8X_TEMPLATES U8X_OUT U8X_LIBDIR U8X_INCLUDEDIR (absolute, or relative
# to the prefix) U8X_VERSION U8X_MAJOR U8X_SONAME U8X_POINTER_BYTES.

set(_prefix "${CMAKE_INSTALL_PREFIX}")
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${U8X_${_dir}}")
    set(_${_dir} "${U8X_${_dir}}")
  else()
    set(_${_dir} "${_prefix}/${U8X_${_dir}}")
  endif()
endforeach()

# template, output, the directory the file is installed in
function(u8x_subst_dirs template output filedir)
  file(RELATIVE_PATH _lib_rel "${filedir}" "${_LIBDIR}")
  file(RELATIVE_PATH _include_rel "${filedir}" "${_INCLUDEDIR}")
  foreach(_rel _lib_rel _include_rel)
    if(${_rel} STREQUAL "")
      set(${_rel} ".")
    endif()
    string(REGEX REPLACE "/$" "" ${_rel} "${${_rel}}")
  endforeach()
  file(READ "${U8X_TEMPLATES}/${template}" _text)
  foreach(_pair PREFIX=_prefix LIBDIR=_LIBDIR INCLUDEDIR=_INCLUDEDIR
      LIBDIR_FROM_CMAKEDIR=_lib_rel INCLUDEDIR_FROM_CMAKEDIR=_include_rel VERSION=U8X_VERSION
      MAJOR=U8X_MAJOR SONAME=U8X_SONAME POINTER_BYTES=U8X_POINTER_BYTES)
    string(REGEX REPLACE "=.*" "" _key "${_pair}")
    string(REGEX REPLACE ".*=" "" _var "${_pair}")
    string(REPLACE "@${_key}@" "${${_var}}" _text "${_text}")
  endforeach()
  file(WRITE "${U8X_OUT}/${output}" "${_text}")
endfunction()

u8x_subst_dirs(u8x.pc.in u8x.pc "${_LIBDIR}/pkgconfig")
u8x_subst_dirs(u8xConfig.cmake.in u8xConfig.cmake "${_LIBDIR}/cmake/u8x")
u8x_subst_dirs(u8xConfigVersion.cmake.in u8xConfigVersion.cmake "${_LIBDIR}/cmake/u8x")
