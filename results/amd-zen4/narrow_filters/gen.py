"""Emit loopopt's C for `x > 3` filters of i8/u8/i16/u16, one file per variant `isa:tag:cpu`, into the
directory given (default /tmp/lo_narrow_filters). Session 25, issue 11: `avx512:avx512:generic` is
the 8-byte pshufb groups (no VBMI2 on `generic`), `avx512:vbmi2:zen4` the vpcompressb/w form."""
import sys

from loopopt.compile import emit

SRC = """
func.func @keep_{name}(%x: !df.array<{t}, [i]>) -> !df.array<{t}, [j]> {{
  %r = df.filter %x : !df.array<{t}, [i]> -> !df.array<{t}, [j]> {{
  ^bb0(%e: {t}):
    %c3 = arith.constant 3 : {t}
    %c = arith.cmpi {cmp}, %e, %c3 : {t}
    df.yield %c : i1
  }}
  func.return %r : !df.array<{t}, [j]>
}}
"""
TYPES = {"i8": ("i8", "sgt"), "u8": ("i8", "ugt"), "i16": ("i16", "sgt"), "u16": ("i16", "ugt")}
out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/lo_narrow_filters"
variants = sys.argv[2].split(",") if len(sys.argv) > 2 else ["avx2:avx2:zen4", "avx512:avx512:generic", "avx512:vbmi2:zen4"]
src = "\n".join(SRC.format(name=n, t=t, cmp=c) for n, (t, c) in TYPES.items())
for v in variants:
    isa, tag, cpu = (v.split(":") + [v, "zen4"])[:3]
    code = emit(src, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}").c_source
    # every variant's functions get a prefix so one binary links them all
    for n in TYPES:
        code = code.replace(f"keep_{n}(", f"{tag}_keep_{n}(")
    open(f"{out}/{tag}.c", "w").write(code)
