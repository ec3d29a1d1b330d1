"""Builds the tracerd Python package (a C extension over libtracerd's public API).

Against an installed library (found by pkg-config):   pip install ./python
Against the source tree (what `make python` does):    TRACERD_INCLUDE=include dir,
    TRACERD_STATIC=path of libtracerd.a (linked in, so nothing to install).
TRACERD_CFLAGS adds compiler flags (make passes -Werror and the sanitizers).
"""
import os
import re
import shlex
import subprocess
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def pkg_config(*args):
    try:
        out = subprocess.check_output(["pkg-config", *args, "tracerd"], text=True)
    except (OSError, subprocess.CalledProcessError):
        sys.exit("setup.py: libtracerd not found by pkg-config (install it with `make install`, "
                 "or set PKG_CONFIG_PATH); or build in the source tree with `make python`")
    return out.strip()


include = os.environ.get("TRACERD_INCLUDE")
static = os.environ.get("TRACERD_STATIC")
cflags = ["-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers",
          "-Wno-cast-function-type"]
cflags += shlex.split(os.environ.get("TRACERD_CFLAGS", ""))
ldflags = shlex.split(os.environ.get("TRACERD_LDFLAGS", ""))
objects = []
rpath = []
if include and static:
    cflags.append("-I" + include)
    objects.append(static)
    ldflags += ["-ljansson", "-lm"]  # what libtracerd.a needs (Requires.private: jansson)
    with open(os.path.join(include, "tracerd", "core.h")) as f:
        parts = dict(re.findall(r"#define TRACERD_VERSION_(MAJOR|MINOR|PATCH) (\d+)", f.read()))
    version = "{MAJOR}.{MINOR}.{PATCH}".format(**parts)
else:
    version = pkg_config("--modversion")
    cflags += shlex.split(pkg_config("--cflags"))
    ldflags += shlex.split(pkg_config("--libs"))
    libdir = pkg_config("--variable=libdir")
    if libdir and libdir not in ("/usr/lib", "/lib", "/usr/lib64"):
        rpath.append(libdir)  # found at run time without LD_LIBRARY_PATH

sources = sorted(os.path.join("src", n) for n in os.listdir(os.path.join(HERE, "src"))
                 if n.endswith(".c"))

setup(
    name="tracerd",
    version=version,
    description="Streaming readers for XRay, FXT, CTF and xtrace traces (libtracerd bindings)",
    packages=["tracerd"],
    python_requires=">=3.9",
    ext_modules=[Extension("tracerd._tracerd", sources=sources, depends=["src/pytracerd.h"],
                           extra_compile_args=cflags, extra_link_args=ldflags,
                           extra_objects=objects, runtime_library_dirs=rpath)],
)
