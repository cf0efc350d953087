"""Builds u8x._u8x, the C extension, with libu8x.a linked in statically.

The static library comes from the Rust sources by the repository's own
`make lib` (cargo and a C compiler; nothing else is needed), or from an
existing build:

  U8X_STATIC_LIB=/path/to/libu8x.a   link that file (an installed libu8x.a);
                                     its header is looked for beside it in
                                     ../include, or set U8X_INCLUDE_DIR.
  U8X_CARGO_TARGET_DIR=dir           where cargo builds (default: the
                                     checkout's target/, shared with `make`;
                                     from an sdist, the build directory).

Where the Rust sources are: in a checkout, two directories up (this file is
bindings/python/setup.py); in an sdist, `u8x-crate/`, which the sdist
command below writes (the library crate alone: its Cargo.toml without the
workspace, the dev-dependencies and the benches, src/, include/, the
Makefile).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent
BUNDLED = HERE / "u8x-crate"
CRATE_FILES = ["Cargo.lock", "Makefile", "build.rs", "include/u8x.h"]
CRATE_DIRS = ["src", "pkg"]


def crate_dir():
    for d in (CHECKOUT, BUNDLED):
        if (d / "Cargo.toml").is_file() and (d / "include" / "u8x.h").is_file():
            if re.search(r'^name = "u8x"$', (d / "Cargo.toml").read_text(), re.M):
                return d
    return None


def library_only_manifest(text):
    """Cargo.toml without [workspace], [dev-dependencies] and [[bench]]:
    what building the library needs, and no path to another crate."""
    out, keep = [], True
    for line in text.splitlines():
        if line.startswith("["):
            keep = line.strip() not in ("[workspace]", "[dev-dependencies]", "[[bench]]")
        if keep:
            out.append(line)
    return "\n".join(out) + "\n"


class BuildLibu8x(build_ext):
    def run(self):
        lib = os.environ.get("U8X_STATIC_LIB")
        if lib:
            lib = Path(lib).resolve()
            include = Path(os.environ.get("U8X_INCLUDE_DIR", lib.parent.parent / "include"))
        else:
            crate = crate_dir()
            if crate is None:
                sys.exit(
                    "u8x: the Rust sources of libu8x are not here (neither %s nor %s); "
                    "build from a checkout or an sdist, or set U8X_STATIC_LIB" % (CHECKOUT, BUNDLED)
                )
            if shutil.which(os.environ.get("CARGO", "cargo")) is None:
                sys.exit("u8x: building libu8x needs cargo (Rust); install it, or set U8X_STATIC_LIB")
            default = crate / "target" if crate == CHECKOUT else Path(self.build_temp).resolve() / "cargo"
            target = Path(os.environ.get("U8X_CARGO_TARGET_DIR", default)).resolve()
            make = os.environ.get("MAKE", "make")
            print("u8x: building libu8x.a in %s (make lib TARGET_DIR=%s)" % (crate, target))
            subprocess.check_call([make, "-s", "-C", str(crate), "lib", "TARGET_DIR=%s" % target])
            lib = target / "capi" / "stage" / "lib" / "libu8x.a"
            include = crate / "include"
        if not lib.is_file() or not (include / "u8x.h").is_file():
            sys.exit("u8x: no %s or no %s/u8x.h" % (lib, include))
        for ext in self.extensions:
            ext.include_dirs.append(str(include))
            ext.extra_objects.append(str(lib))
        super().run()


class SdistWithCrate(sdist):
    """Puts the library crate into the sdist as u8x-crate/, so that a wheel
    built from the sdist (`python -m build`) builds libu8x too."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        crate = crate_dir()
        if crate is None:
            sys.exit("u8x: no Rust sources to put into the sdist")
        dest = Path(base_dir) / "u8x-crate"
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir()
        for f in CRATE_FILES:
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(crate / f, dest / f)
        for d in CRATE_DIRS:
            shutil.copytree(crate / d, dest / d)
        manifest = (crate / "Cargo.toml").read_text()
        if crate == CHECKOUT:
            manifest = library_only_manifest(manifest)
        (dest / "Cargo.toml").write_text(manifest)


setup(
    ext_modules=[
        Extension(
            "u8x._u8x",
            sources=["src/module.c", "src/decode.c", "src/encode.c", "src/forms.c"],
            depends=["src/u8xpy.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
                                "-Wno-missing-field-initializers", "-Wno-cast-function-type"],
            # libu8x.a exports only u8x_ symbols; keep them out of the
            # extension's dynamic symbol table too.
            extra_link_args=["-Wl,--exclude-libs,ALL"],
        )
    ],
    cmdclass={"build_ext": BuildLibu8x, "sdist": SdistWithCrate},
)
