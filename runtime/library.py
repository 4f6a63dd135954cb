"""Compiled kernel libraries callable from Python with sub-microsecond overhead.

`compile_library` builds the kernels plus a generated CPython extension
(see `pyext`) into one cached shared object and imports it; each kernel is then
a builtin function that validates its arguments and calls the C code directly.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sysconfig
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy

from . import build, isa as isa_mod
from .pyext import QUERY_PREFIX, extension_source
from .signature import KernelSignature

_loaded: dict[str, tuple[ModuleType, Path]] = {}
"""Extension modules this process imported, by module name (one per content hash), with their cache path."""
_load_lock = threading.Lock()
_name_locks: dict[str, threading.Lock] = {}


def _python_abi_tag() -> str:
    return f"{sysconfig.get_config_var('SOABI')}{sysconfig.get_config_var('EXT_SUFFIX')}"


def _import_extension(module_name: str, path: Path) -> ModuleType:
    """Import the extension module `module_name` from the shared object at `path` (dlopen)."""
    loader = importlib.machinery.ExtensionFileLoader(module_name, str(path))
    spec = importlib.util.spec_from_file_location(module_name, str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _build_and_load_extension(
    module_name: str, source: Callable[[], str], flags: Sequence[str], key_extra: str
) -> tuple[ModuleType, Path]:
    """Build (or take from the cache) and import the extension once per process.

    The import goes through `build.build_and_load`: the cached .so is hashed and
    loaded from a private copy, and a cached artifact that fails to import is
    rebuilt once. Later calls with the same module name touch neither the disk nor
    the compiler, nor generate the wrapper `source()`.
    """
    with _load_lock:
        found = _loaded.get(module_name)
        if found is not None:
            return found
        name_lock = _name_locks.setdefault(module_name, threading.Lock())
    with name_lock:  # other modules build and load in parallel threads meanwhile
        found = _loaded.get(module_name)
        if found is None:
            path, module = build.build_and_load(
                source(), flags, lambda private: _import_extension(module_name, private), key_extra=key_extra
            )
            module.__file__ = str(path)  # the private copy it was loaded from is already gone
            found = _loaded[module_name] = (module, path)
        return found


def results_tuple(signature: KernelSignature, returned: Any) -> tuple[Any, ...]:
    """A native call's return value (None, a scalar or a tuple) as a tuple of the results it
    returns: `signature.visible_results` (all but computed extents; `signature.full_results`
    puts them back in C order)."""
    visible = signature.visible_results
    if not visible:
        return ()
    if len(visible) == 1:
        return (returned,)
    return tuple(returned)


class Library:
    """A loaded library of kernels: `lib["name"](*args)` or `lib.name(*args)`.

    Arguments are passed positionally in C parameter order (inputs, then
    caller-allocated outputs); the call returns None, the single scalar result,
    or a tuple of the scalar results, each a numpy scalar of its exact dtype
    (np.float32 for an f32 result, np.int64 for a filter count).
    """

    def __init__(self, module: ModuleType, signatures: Sequence[KernelSignature], path: Path, isa: str):
        self._module = module
        self.signatures: dict[str, KernelSignature] = {s.name: s for s in signatures}
        self._functions: dict[str, Callable[..., Any]] = {s.name: getattr(module, s.name) for s in signatures}
        self.path = path
        self.isa = isa

    def __getitem__(self, name: str) -> Callable[..., Any]:
        try:
            return self._functions[name]
        except KeyError:
            raise KeyError(f"no kernel {name!r} in library (has {', '.join(sorted(self._functions))})") from None

    def __getattr__(self, name: str) -> Callable[..., Any]:
        functions = self.__dict__.get("_functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"no kernel {name!r} in library (has {', '.join(sorted(functions))})")

    def __contains__(self, name: object) -> bool:
        return name in self._functions

    def __iter__(self) -> Iterator[str]:
        return iter(self._functions)

    def __repr__(self) -> str:
        return f"<Library {', '.join(self._functions)} isa={self.isa} at {self.path}>"

    def call_alloc(self, name: str, *inputs: Any, extents: Mapping[str, int] | None = None) -> tuple[Any, ...]:
        """Call `name` on its inputs only, allocating the outputs; returns (*outputs, *results).

        Each output dimension gets the extent of its axis, from the inputs or from
        `extents` (an axis no input has); an output on a computed axis (a range's) is
        sized by asking the kernel first (`KernelSignature.call_alloc`); a filter output
        (one with a `count_result`) is trimmed to the count it returned.
        """
        function = self[name]
        sig = self.signatures[name]
        query = getattr(self._module, QUERY_PREFIX + name) if sig.extents else None
        return sig.call_alloc(function, inputs, extents, query)


def compile_library(
    c_source: str,
    signatures: Sequence[KernelSignature],
    isa: str = isa_mod.NATIVE,
    extra_cflags: Sequence[str] = (),
) -> Library:
    """Compile `c_source` (kernels following docs/calling_convention.md) for `isa` and load it.

    Raises ValueError for an ISA this CPU cannot run (NEON: see `run_foreign`)
    and `CompileError` when gcc rejects the source or a kernel's definition
    disagrees with its signature.
    """
    isa_mod.check_isa(isa)
    if isa != isa_mod.NATIVE and isa not in isa_mod.host_isas():
        hint = "; run NEON kernels with loopopt.runtime.run_foreign" if isa in isa_mod.FOREIGN_TOOLS else ""
        raise ValueError(f"this CPU cannot run ISA {isa!r} (it runs {', '.join(isa_mod.host_isas())}){hint}")
    missing = isa_mod.missing_cpu_features(c_source)
    if missing:
        raise ValueError(f"this CPU lacks {', '.join(missing)}, which the C uses (lowered for a cpu= that has it); "
                         "lower with cpu=native or cpu=generic")
    signatures = tuple(signatures)
    names = [s.name for s in signatures]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate kernel names in {names}")
    flags = [
        *isa_mod.compile_flags(isa),
        *extra_cflags,
        "-isystem",
        sysconfig.get_paths()["include"],
        "-isystem",
        numpy.get_include(),
    ]
    module_name = "_loopopt_k_" + build.content_hash(c_source, repr(signatures), "\0".join(flags))[:24]
    key_extra = f"{_python_abi_tag()} numpy {numpy.__version__}"
    module, path = _build_and_load_extension(
        module_name, lambda: extension_source(module_name, c_source, signatures), flags, key_extra
    )
    return Library(module, signatures, path, isa)

