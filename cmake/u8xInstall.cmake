# The install rules (U8X_INSTALL): the files `make install` installs, where
# it installs them, so that the parent's `cmake --install` gives a later
# find_package(u8x) or pkg-config the same u8x::u8x and u8x::u8x_static.
# The directories follow the parent's GNUInstallDirs variables when it set
# them, else the Makefile's defaults; nothing is added to the cache.

foreach(_u8x_dir LIBDIR:lib INCLUDEDIR:include BINDIR:bin DATAROOTDIR:share)
  string(REPLACE ":" ";" _u8x_dir "${_u8x_dir}")
  list(GET _u8x_dir 0 _u8x_name)
  list(GET _u8x_dir 1 _u8x_default)
  if(CMAKE_INSTALL_${_u8x_name})
    set(_u8x_${_u8x_name} "${CMAKE_INSTALL_${_u8x_name}}")
  else()
    set(_u8x_${_u8x_name} "${_u8x_default}")
  endif()
endforeach()
if(CMAKE_INSTALL_MANDIR)
  set(_u8x_MANDIR "${CMAKE_INSTALL_MANDIR}")
else()
  set(_u8x_MANDIR "${_u8x_DATAROOTDIR}/man")
endif()

install(PROGRAMS "${_u8x_lib}/${U8X_REALNAME}" DESTINATION "${_u8x_LIBDIR}")
install(FILES "${_u8x_lib}/${U8X_SONAME}" "${_u8x_lib}/libu8x.so" "${_u8x_lib}/libu8x.a"
  DESTINATION "${_u8x_LIBDIR}")
# (Mode 755 as `make install` gives it: CMake on Debian installs
# libraries 644, CMAKE_INSTALL_SO_NO_EXE.)
install(TARGETS u8x_preload LIBRARY DESTINATION "${_u8x_LIBDIR}"
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
install(FILES "${PROJECT_SOURCE_DIR}/include/u8x.h" "${PROJECT_SOURCE_DIR}/preload/u8x_posix.h"
  DESTINATION "${_u8x_INCLUDEDIR}")

# u8x.pc and the CMake package are the Makefile's templates (pkg/), written
# at install time for the prefix then chosen (`cmake --install --prefix`).
set(_u8x_pkg "${PROJECT_BINARY_DIR}/pkg")
install(CODE "
  set(U8X_TEMPLATES \"${PROJECT_SOURCE_DIR}/pkg\")
  set(U8X_OUT \"${_u8x_pkg}\")
  set(U8X_LIBDIR \"${_u8x_LIBDIR}\")
  set(U8X_INCLUDEDIR \"${_u8x_INCLUDEDIR}\")
  set(U8X_VERSION \"${U8X_VERSION}\")
  set(U8X_MAJOR \"${U8X_VERSION_MAJOR}\")
  set(U8X_SONAME \"${U8X_SONAME}\")
  set(U8X_POINTER_BYTES \"${CMAKE_SIZEOF_VOID_P}\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/u8xPackageFiles.cmake\")")
install(FILES "${_u8x_pkg}/u8x.pc" DESTINATION "${_u8x_LIBDIR}/pkgconfig")
install(FILES "${_u8x_pkg}/u8xConfig.cmake" "${_u8x_pkg}/u8xConfigVersion.cmake"
  DESTINATION "${_u8x_LIBDIR}/cmake/u8x")

if(U8X_CLI)
  install(PROGRAMS "${U8X_CLI_EXECUTABLE}" DESTINATION "${_u8x_BINDIR}")
  install(DIRECTORY "${_u8x_share}/man1/" DESTINATION "${_u8x_MANDIR}/man1")
  install(FILES "${_u8x_share}/completions/u8x"
    DESTINATION "${_u8x_DATAROOTDIR}/bash-completion/completions")
  install(FILES "${_u8x_share}/completions/_u8x" DESTINATION "${_u8x_DATAROOTDIR}/zsh/site-functions")
  install(FILES "${_u8x_share}/completions/u8x.fish"
    DESTINATION "${_u8x_DATAROOTDIR}/fish/vendor_completions.d")
endif()

foreach(_u8x_name LIBDIR INCLUDEDIR BINDIR DATAROOTDIR MANDIR)
  unset(_u8x_${_u8x_name})
endforeach()
unset(_u8x_dir)
unset(_u8x_name)
unset(_u8x_default)
unset(_u8x_pkg)
