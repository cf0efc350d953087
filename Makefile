# Builds and installs u8x as a C library (GNU make; Linux with GNU binutils).
#
#   make                                  libraries, header, pkg-config and CMake
#                                         files and the u8x command, staged in
#                                         target/capi/stage/
#   make install PREFIX=/usr DESTDIR=/tmp/pkg
#   make uninstall PREFIX=/usr
#   make preload                          libu8x-libc.so (the preload library: glibc's
#                                         multibyte functions answered by u8x in UTF-8
#                                         locales, preload/README.md) and u8x_posix.h
#   make check-install                    installs into a scratch DESTDIR and builds
#                                         and runs every consumer in
#                                         tests/consumers/ against it
#   make TARGET=aarch64-unknown-linux-gnu CROSS=aarch64-linux-gnu-
#                                         cross-builds for a Rust target triple with
#                                         that binutils prefix, staged in
#                                         target/TRIPLE/capi/stage/
#   make TARGET=x86_64-pc-windows-gnu CROSS=x86_64-w64-mingw32- BUILD_STD=1
#                                         Windows (MinGW-w64): bin/u8x.dll, its import
#                                         library lib/libu8x.dll.a, lib/libu8x.a, the
#                                         header, pkg-config and CMake files (make lib
#                                         or make all; no command, man pages or preload
#                                         library there). BUILD_STD=1 builds core from
#                                         rust-src (-Zbuild-std; RUSTC_BOOTSTRAP=1 on a
#                                         stable compiler) where no Windows standard
#                                         library is installed (tests/windows/run.sh).
#
# Versioning: the crate version (Cargo.toml) is the release; ABI_VERSION is the
# shared library's SONAME number and moves only when binary compatibility
# breaks (a function removed or changed, a struct's layout changed), never for
# additions. The real name is libu8x.so.ABI.MINOR.PATCH, as utf8proc does.
# PE has no SONAME: a program records the DLL's file name (u8x.dll, written
# into the import library), and Windows has no symlinks to version it by.

CARGO ?= cargo
PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
LIBDIR ?= $(EXEC_PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(EXEC_PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/u8x
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATAROOTDIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATAROOTDIR)/fish/vendor_completions.d
DESTDIR ?=
INSTALL ?= install

ABI_VERSION := 1
VERSION := $(shell sed -n 's/^version = "\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
MAJOR := $(word 1,$(subst ., ,$(VERSION)))
MINOR := $(word 2,$(subst ., ,$(VERSION)))
PATCH := $(word 3,$(subst ., ,$(VERSION)))
SONAME := libu8x.so.$(ABI_VERSION)
REALNAME := libu8x.so.$(ABI_VERSION).$(MINOR).$(PATCH)
POINTER_BYTES := $(shell echo $$(( $$(getconf LONG_BIT) / 8 )))

TARGET_DIR ?= target
# Cross builds: a Rust target triple, and the prefix of that target's GNU
# binutils (the static library is linked and localised with them).
TARGET ?=
CROSS ?=
CARGO_TARGET := $(if $(TARGET),--target $(TARGET))
# Windows targets: PE/COFF, a DLL and its import library.
WINDOWS := $(findstring -windows-,$(TARGET))
# Only the library's crates from source: it needs nothing but core (the
# memory primitives from compiler_builtins, so the DLL imports none).
BUILD_STD ?=
comma := ,
CARGO_STD := $(if $(BUILD_STD),-Zbuild-std=core$(comma)compiler_builtins -Zbuild-std-features=compiler-builtins-mem)
LD := $(CROSS)ld
NM := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
AR := $(CROSS)ar
# The `capi` profile (Cargo.toml): release with panic = "abort", no debug info.
OUT := $(TARGET_DIR)/$(if $(TARGET),$(TARGET)/)capi
STAGE := $(OUT)/stage
SOURCES := Makefile Cargo.toml Cargo.lock build.rs $(shell find src cli/src -name '*.rs')

.PHONY: all lib cli docs preload install uninstall check-install clean-stage
PACKAGING := $(STAGE)/lib/pkgconfig/u8x.pc $(STAGE)/lib/cmake/u8x/u8xConfig.cmake \
	$(STAGE)/lib/cmake/u8x/u8xConfigVersion.cmake $(STAGE)/include/u8x.h
ifeq ($(WINDOWS),)
all: lib cli docs preload $(PACKAGING)
lib: $(STAGE)/lib/$(REALNAME) $(STAGE)/lib/libu8x.a
else
# The command needs Rust's std (and Wine 8 cannot run a std program: no
# bcryptprimitives.dll), its man pages come from running it, and the
# preload library is glibc's: the libraries only.
all: lib $(PACKAGING)
lib: $(STAGE)/bin/u8x.dll $(STAGE)/lib/libu8x.dll.a $(STAGE)/lib/libu8x.a
endif
cli: $(STAGE)/bin/u8x
docs: $(STAGE)/share/man/man1/u8x.1
preload: $(STAGE)/lib/libu8x-libc.so $(STAGE)/include/u8x_posix.h

# One rustc run emits both libraries. `capi` adds the panic handler the
# no_std libraries need; the SONAME is set here, next to the file names.
ifeq ($(WINDOWS),)
$(OUT)/libu8x.so $(OUT)/libu8x.a &: $(SOURCES)
	$(CARGO) rustc --quiet --profile capi --lib --features capi --crate-type cdylib,staticlib \
		--target-dir $(TARGET_DIR) $(CARGO_TARGET) -- -C link-arg=-Wl,-soname,$(SONAME)
	@touch $(OUT)/libu8x.so $(OUT)/libu8x.a

else
# Windows: rustc writes the import library beside the DLL, and exports
# exactly the #[no_mangle] functions (tests/windows/run.sh checks it).
$(OUT)/u8x.dll $(OUT)/libu8x.dll.a $(OUT)/libu8x.a &: $(SOURCES)
	$(CARGO) rustc --quiet --profile capi --lib --features capi --crate-type cdylib,staticlib \
		--target-dir $(TARGET_DIR) $(CARGO_TARGET) $(CARGO_STD)
	@touch $(OUT)/u8x.dll $(OUT)/libu8x.dll.a $(OUT)/libu8x.a
endif

# DLLs go beside the programs (bin/), import libraries in lib/, as MinGW
# packages have them.
$(STAGE)/bin/u8x.dll: $(OUT)/u8x.dll
	@mkdir -p $(@D)
	cp $< $@

$(STAGE)/lib/libu8x.dll.a: $(OUT)/libu8x.dll.a
	@mkdir -p $(@D)
	cp $< $@

$(STAGE)/lib/$(REALNAME): $(OUT)/libu8x.so
	@mkdir -p $(@D)
	cp $< $@
	ln -sf $(REALNAME) $(STAGE)/lib/$(SONAME)
	ln -sf $(SONAME) $(STAGE)/lib/libu8x.so

# rustc's staticlib carries all of core and compiler_builtins with global
# symbols, which clash with any other Rust static library in the same link.
# Link it into one relocatable object from the u8x_ entry points (dropping
# what they cannot reach), make every other symbol local, strip debug info
# and the LLVM bitcode a core built from source embeds (binutils' LTO
# plugin then mistakes the object for LLVM IR it cannot read).
# The same steps work on PE/COFF objects (MinGW's binutils), where
# --gc-sections drops little: rustc puts a crate's code in one .text.
$(STAGE)/lib/libu8x.a: $(OUT)/libu8x.a
	@mkdir -p $(@D) $(OUT)/static
	$(LD) -r --gc-sections \
		$$($(NM) -g --defined-only $< 2>/dev/null | awk '$$3 ~ /^u8x_/ { print "-u", $$3 }' | sort -u) \
		-o $(OUT)/static/u8x-all.o $<
	$(OBJCOPY) --wildcard --keep-global-symbol='u8x_*' --strip-debug \
		--remove-section=.llvmbc --remove-section=.llvmcmd \
		$(OUT)/static/u8x-all.o $(OUT)/static/u8x.o
	rm -f $@
	$(AR) rcsD $@ $(OUT)/static/u8x.o

# The preload library (preload/README.md): C, linked with libu8x.a so that
# it needs nothing but libc (dlsym is in libc from glibc 2.34; -ldl, as
# needed, for older ones), exporting exactly the names in exports.map.
# Unversioned: it is loaded by path (LD_PRELOAD), never by a SONAME, and
# its ABI is glibc's, which it follows rather than defines.
PRELOAD_CC := $(if $(CROSS),$(CROSS)gcc,$(CC))
PRELOAD_CFLAGS ?= -O2 -ffunction-sections
$(STAGE)/lib/libu8x-libc.so: preload/u8x_libc.c preload/exports.map include/u8x.h $(STAGE)/lib/libu8x.a
	@mkdir -p $(@D)
	$(PRELOAD_CC) -std=gnu11 $(PRELOAD_CFLAGS) -fPIC -fvisibility=hidden -Wall -Wextra -Iinclude -shared \
		-o $@ preload/u8x_libc.c $(STAGE)/lib/libu8x.a -Wl,--version-script=preload/exports.map \
		-Wl,-z,defs -Wl,--gc-sections -Wl,--as-needed -ldl

$(STAGE)/include/u8x_posix.h: preload/u8x_posix.h
	@mkdir -p $(@D)
	cp $< $@

$(STAGE)/bin/u8x: $(SOURCES) cli/Cargo.toml
	$(CARGO) build --quiet --profile capi -p u8x-cli --target-dir $(TARGET_DIR) $(CARGO_TARGET)
	@mkdir -p $(@D)
	cp $(OUT)/u8x $@

# The man pages (u8x.1, one u8x-COMMAND.1 per command) and the shell
# completions are generated from the command's argument definitions by the
# command itself (a cross-built one runs under binfmt/qemu).
COMPLETIONS := $(STAGE)/share/completions
$(STAGE)/share/man/man1/u8x.1: $(STAGE)/bin/u8x
	rm -rf $(@D) $(COMPLETIONS)
	mkdir -p $(@D) $(COMPLETIONS)
	$< man --dir $(@D)
	$< completions bash > $(COMPLETIONS)/u8x
	$< completions zsh > $(COMPLETIONS)/_u8x
	$< completions fish > $(COMPLETIONS)/u8x.fish

$(STAGE)/include/u8x.h: include/u8x.h
	@mkdir -p $(@D)
	cp $< $@

# Both files are written for the final PREFIX at install time; the staged
# copies use the staging directory as their prefix. For Windows, CMake's
# shared library is the DLL (found from libdir) with its import library,
# and the preload library's lines go.
# $(call subst_dirs,template,prefix,libdir,includedir,cmakedir,bindir)
define subst_dirs
	sed $(if $(WINDOWS),-e 's|IMPORTED_SONAME "@SONAME@"|IMPORTED_IMPLIB "$${_u8x_libdir}/libu8x.dll.a"|' \
		-e "s|@SONAME@|$$(realpath -m --relative-to=$(3) $(6))/u8x.dll|g" -e '/preload/Id') \
		-e 's|@PREFIX@|$(2)|g' -e 's|@LIBDIR@|$(3)|g' -e 's|@INCLUDEDIR@|$(4)|g' \
		-e "s|@LIBDIR_FROM_CMAKEDIR@|$$(realpath -m --relative-to=$(5) $(3))|g" \
		-e "s|@INCLUDEDIR_FROM_CMAKEDIR@|$$(realpath -m --relative-to=$(5) $(4))|g" \
		-e 's|@VERSION@|$(VERSION)|g' -e 's|@MAJOR@|$(MAJOR)|g' -e 's|@SONAME@|$(SONAME)|g' \
		-e 's|@POINTER_BYTES@|$(POINTER_BYTES)|g' $(1)
endef

$(STAGE)/lib/pkgconfig/u8x.pc: pkg/u8x.pc.in Cargo.toml
	@mkdir -p $(@D)
	$(call subst_dirs,$<,$(abspath $(STAGE)),$(abspath $(STAGE))/lib,$(abspath $(STAGE))/include,$(abspath $(STAGE))/lib/pkgconfig,$(abspath $(STAGE))/bin) > $@

$(STAGE)/lib/cmake/u8x/%.cmake: pkg/%.cmake.in Cargo.toml
	@mkdir -p $(@D)
	$(call subst_dirs,$<,$(abspath $(STAGE)),$(abspath $(STAGE))/lib,$(abspath $(STAGE))/include,$(abspath $(@D)),$(abspath $(STAGE))/bin) > $@

ifneq ($(WINDOWS),)
install: all
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR)
	$(INSTALL) -m 755 $(STAGE)/bin/u8x.dll $(DESTDIR)$(BINDIR)/u8x.dll
	$(INSTALL) -m 644 $(STAGE)/lib/libu8x.dll.a $(DESTDIR)$(LIBDIR)/libu8x.dll.a
	$(INSTALL) -m 644 $(STAGE)/lib/libu8x.a $(DESTDIR)$(LIBDIR)/libu8x.a
	$(INSTALL) -m 644 include/u8x.h $(DESTDIR)$(INCLUDEDIR)/u8x.h
	$(call subst_dirs,pkg/u8x.pc.in,$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(CMAKEDIR),$(BINDIR)) > $(DESTDIR)$(PKGCONFIGDIR)/u8x.pc
	$(call subst_dirs,pkg/u8xConfig.cmake.in,$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(CMAKEDIR),$(BINDIR)) > $(DESTDIR)$(CMAKEDIR)/u8xConfig.cmake
	$(call subst_dirs,pkg/u8xConfigVersion.cmake.in,$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(CMAKEDIR),$(BINDIR)) > $(DESTDIR)$(CMAKEDIR)/u8xConfigVersion.cmake

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/u8x.dll $(DESTDIR)$(LIBDIR)/libu8x.dll.a $(DESTDIR)$(LIBDIR)/libu8x.a \
		$(DESTDIR)$(INCLUDEDIR)/u8x.h $(DESTDIR)$(PKGCONFIGDIR)/u8x.pc \
		$(DESTDIR)$(CMAKEDIR)/u8xConfig.cmake $(DESTDIR)$(CMAKEDIR)/u8xConfigVersion.cmake
	-rmdir $(DESTDIR)$(CMAKEDIR)
else
install: all
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR)
	$(INSTALL) -m 755 $(STAGE)/lib/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sf $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libu8x.so
	$(INSTALL) -m 644 $(STAGE)/lib/libu8x.a $(DESTDIR)$(LIBDIR)/libu8x.a
	$(INSTALL) -m 644 include/u8x.h $(DESTDIR)$(INCLUDEDIR)/u8x.h
	$(INSTALL) -m 755 $(STAGE)/lib/libu8x-libc.so $(DESTDIR)$(LIBDIR)/libu8x-libc.so
	$(INSTALL) -m 644 preload/u8x_posix.h $(DESTDIR)$(INCLUDEDIR)/u8x_posix.h
	$(INSTALL) -m 755 $(STAGE)/bin/u8x $(DESTDIR)$(BINDIR)/u8x
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	$(INSTALL) -m 644 $(STAGE)/share/man/man1/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(COMPLETIONS)/u8x $(DESTDIR)$(BASHCOMPDIR)/u8x
	$(INSTALL) -m 644 $(COMPLETIONS)/_u8x $(DESTDIR)$(ZSHCOMPDIR)/_u8x
	$(INSTALL) -m 644 $(COMPLETIONS)/u8x.fish $(DESTDIR)$(FISHCOMPDIR)/u8x.fish
	$(call subst_dirs,pkg/u8x.pc.in,$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(CMAKEDIR),$(BINDIR)) > $(DESTDIR)$(PKGCONFIGDIR)/u8x.pc
	$(call subst_dirs,pkg/u8xConfig.cmake.in,$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(CMAKEDIR),$(BINDIR)) > $(DESTDIR)$(CMAKEDIR)/u8xConfig.cmake
	$(call subst_dirs,pkg/u8xConfigVersion.cmake.in,$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(CMAKEDIR),$(BINDIR)) > $(DESTDIR)$(CMAKEDIR)/u8xConfigVersion.cmake

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libu8x.so $(DESTDIR)$(LIBDIR)/libu8x.a \
		$(DESTDIR)$(INCLUDEDIR)/u8x.h $(DESTDIR)$(BINDIR)/u8x \
		$(DESTDIR)$(LIBDIR)/libu8x-libc.so $(DESTDIR)$(INCLUDEDIR)/u8x_posix.h \
		$(DESTDIR)$(PKGCONFIGDIR)/u8x.pc $(DESTDIR)$(CMAKEDIR)/u8xConfig.cmake \
		$(DESTDIR)$(CMAKEDIR)/u8xConfigVersion.cmake \
		$(DESTDIR)$(MANDIR)/man1/u8x.1 $(DESTDIR)$(MANDIR)/man1/u8x-*.1 \
		$(DESTDIR)$(BASHCOMPDIR)/u8x $(DESTDIR)$(ZSHCOMPDIR)/_u8x $(DESTDIR)$(FISHCOMPDIR)/u8x.fish
	-rmdir $(DESTDIR)$(CMAKEDIR)
endif

check-install: all
	bash tests/consumers/run.sh

clean-stage:
	rm -rf $(STAGE) $(OUT)/static
