"""The extension and the library linked into it: versions, tier, linkage."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import u8x
from u8x import _u8x


def test_library_version_matches_package():
    assert re.fullmatch(r"\d+\.\d+\.\d+", u8x.library_version)
    assert u8x.library_version == u8x.__version__ == u8x.header_version


def test_package_version_matches_header():
    header = Path(__file__).resolve().parents[3] / "include" / "u8x.h"
    if not header.is_file():
        pytest.skip("no include/u8x.h")
    m = re.search(r'#define U8X_VERSION_STRING "([^"]+)"', header.read_text())
    assert m and m.group(1) == u8x.__version__


def test_tier():
    assert u8x.tier() in ("scalar", "sse42", "avx2", "avx512", "neon")


def test_extension_is_compiled_and_links_libu8x_statically():
    path = _u8x.__file__
    assert path.endswith(".so"), path
    if not sys.platform.startswith("linux"):
        pytest.skip("readelf/nm are for ELF")
    needed = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    assert "libu8x" not in needed, needed
    # libu8x.a's symbols stay inside the extension (-Wl,--exclude-libs,ALL).
    dynsyms = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True).stdout
    assert "PyInit__u8x" in dynsyms
    assert not re.search(r"\bu8x_", dynsyms), dynsyms


def test_no_ctypes():
    # The ctypes binding is gone: nothing loads a shared library at run time.
    code = "import sys, u8x; print('ctypes' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr
