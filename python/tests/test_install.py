"""`pip install ./python` against a library found by pkg-config builds a package that works.
The library of this tree is described by a .pc file written here (TRACERD_LIBDIR: the
build folder holding libtracerd.so, given by make)."""
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, SAMPLES


def test_pip_install_with_pkg_config(tmp_path):
    libdir = os.environ.get("TRACERD_LIBDIR")
    if not libdir or not os.path.exists(os.path.join(libdir, "libtracerd.so")):
        pytest.fail("TRACERD_LIBDIR must name the folder of libtracerd.so (make check-python)")
    if shutil.which("pkg-config") is None:
        pytest.fail("pkg-config is needed")
    pc = tmp_path / "pc"
    pc.mkdir()
    (pc / "tracerd.pc").write_text(
        f"libdir={libdir}\nincludedir={ROOT / 'include'}\n"
        "Name: tracerd\nDescription: test\nVersion: 0.1.0\n"
        "Libs: -L${libdir} -ltracerd\nCflags: -I${includedir}\n")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "python", src, ignore=shutil.ignore_patterns("build", "*.egg-info",
                                                                          "__pycache__"))
    target = tmp_path / "site"
    env = dict(os.environ, PKG_CONFIG_PATH=str(pc), PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                    "--target", str(target), str(src)], env=env, check=True,
                   capture_output=True)
    code = ("import tracerd, sys; n = sum(1 for _ in tracerd.open(sys.argv[1])); "
            "print(tracerd.__file__, n)")
    out = subprocess.run([sys.executable, "-c", code, str(SAMPLES["fxt"])],
                         env=dict(env, PYTHONPATH=str(target)), check=True,
                         capture_output=True, text=True).stdout.split()
    assert out[0].startswith(str(target)) and out[1] == "18"
