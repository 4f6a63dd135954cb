"""The one place that decides which user-written names and strings may reach generated C.

Everything loopopt prints into C or into the generated Python extension comes from user
text at some point: kernel symbols (`func.func @name`), SSA name hints (`%"x y"`), axis and
field names in ABI attributes (`loop.axes`, `loop.field`), the pipeline recorded in
`loop.pipeline`. Three helpers make that safe:

* `c_name_problem(name)` / `check_c_name(name, what, op)` — a name used as a C identifier
  must be a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`, at most `MAX_NAME_LENGTH`
  characters), not a C11 keyword, not reserved to the implementation (`_x`, `__x`, `_X`),
  not a name the generated file's headers define (libc, libm, `<stdint.h>` types and
  macros, SSE/AVX/NEON intrinsics and vector types, CPython/numpy API) and not one of the
  prefixes loopopt's own generated code uses (`lo_` helpers, `loopopt_` runtime glue).
  `check_c_name` raises a located `LoopoptDiagnostic`.
* `c_string_literal(text)` — a C string literal whose bytes are exactly the UTF-8 of `text`:
  `\\`, `"` and `?` (trigraphs: `??/` would escape the closing quote under `-std=c11`) are
  escaped, every other byte outside printable ASCII is a 3-digit octal escape.
* `c_comment_text(text)` — `text` made safe inside a `/* ... */` comment: it can neither
  close the comment (`*/`), open a nested one (`/*`), splice lines nor form a trigraph.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Operation

MAX_NAME_LENGTH = 63
"""C11 guarantees 63 significant initial characters in an internal identifier."""

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

C_KEYWORDS = frozenset(
    """auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef union
    unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary
    _Noreturn _Static_assert _Thread_local asm typeof bool true false alignas alignof noreturn
    static_assert thread_local complex imaginary""".split()
)
"""C11 keywords, plus the macros of <stdbool.h>/<stdalign.h>/<stdnoreturn.h>/<complex.h> and
the GNU keywords gcc accepts in its C dialects."""

_MATH = """acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 frexp
    ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow sqrt erf erfc
    lgamma tgamma ceil floor nearbyint rint lrint llrint round lround llround trunc fmod remainder
    remquo copysign nan nextafter nexttoward fdim fmax fmin fma""".split()

LIBRARY_NAMES = frozenset(
    [f + s for f in _MATH for s in ("", "f", "l")]
    + """fpclassify isfinite isinf isnan isnormal signbit isgreater isgreaterequal isless
    islessequal islessgreater isunordered math_errhandling
    malloc calloc realloc free aligned_alloc posix_memalign abort exit atexit at_quick_exit
    quick_exit getenv system abs labs llabs div ldiv lldiv atoi atol atoll atof strtol strtoll
    strtoul strtoull strtod strtof strtold rand srand qsort bsearch mblen mbtowc wctomb mbstowcs
    wcstombs alloca
    memcpy memmove memset memcmp memchr strcpy strncpy strcat strncat strcmp strncmp strchr
    strrchr strstr strlen strnlen strerror strtok strspn strcspn strpbrk strcoll strxfrm strdup
    strndup
    printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf scanf fscanf sscanf puts
    fputs putchar fputc putc getchar fgetc getc fgets gets ungetc fopen freopen fclose fread
    fwrite fflush fseek ftell rewind fgetpos fsetpos feof ferror clearerr perror remove rename
    tmpfile tmpnam setbuf setvbuf stdin stdout stderr errno assert offsetof setjmp longjmp
    signal raise va_start va_end va_arg va_copy va_list
    main import_array import_array1 import_umath""".split()
)
"""Functions, objects and lower-case macros of the headers generated code includes
(<stdlib.h> <string.h> <stdio.h> <math.h> <stdint.h> <stddef.h>, Python.h, numpy) or calls."""

RESERVED_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"_"), "names starting with '_' are reserved to the C implementation"),
    (re.compile(r"(?:u?int(?:8|16|32|64|ptr|max|_least\d+|_fast\d+)|s?size|ptrdiff|max_align|wchar|wint|"
                r"char(?:16|32)|float(?:16|32|64)?|double|poly(?:8|16|64|128)|bfloat16|mbstate|fpos|div|ldiv|"
                r"lldiv|clock|time|off|pid|sig_atomic|fenv|fexcept|[a-z]+\d+x\d+(?:x\d+)?)_t\Z"),
     "is a C, POSIX or NEON type name (int64_t, size_t, float32x4_t)"),
    (re.compile(r"(?:FILE|DIR|va_list|jmp_buf|mmask\d*)\Z"), "is a C library type name"),
    (re.compile(r"(?:U?INT|INTPTR|UINTPTR|INTMAX|UINTMAX|SIZE|PTRDIFF|WCHAR|WINT|SIG_ATOMIC)[0-9]*_?"
                r"(?:MIN|MAX|C)\Z"), "is a <stdint.h> macro"),
    (re.compile(r"(?:NAN|INFINITY|HUGE_VALF?L?|NULL|EOF|BUFSIZ|FILENAME_MAX|FOPEN_MAX|RAND_MAX|"
                r"EXIT_SUCCESS|EXIT_FAILURE|MB_CUR_MAX|CHAR_BIT|SEEK_SET|SEEK_CUR|SEEK_END|"
                r"TMP_MAX|L_tmpnam|MATH_ERRNO|MATH_ERREXCEPT|FLT_\w+|DBL_\w+|LDBL_\w+|FP_\w+|M_\w+|"
                r"CHAR_\w+|SCHAR_\w+|UCHAR_\w+|SHRT_\w+|USHRT_\w+|LONG_\w+|ULONG_\w+|LLONG_\w+|ULLONG_\w+|"
                r"UINT_\w+|INT_\w+|PRI\w+|SCN\w+)\Z"), "is a C library macro"),
    (re.compile(r"E[0-9A-Z][0-9A-Z_]*\Z"), "names 'E' + capitals are reserved for <errno.h> macros"),
    (re.compile(r"(?:Py|PY|NPY|npy|PyArray|NUMPY|numpy_)"), "is reserved for the CPython / numpy API"),
    (re.compile(r"lo_"), "the prefix 'lo_' is reserved for loopopt's generated helpers"),
    (re.compile(r"loopopt"), "the prefix 'loopopt' is reserved for loopopt's generated runtime code"),
    (re.compile(r"v[a-z0-9]+_(?:n_|lane_|laneq_|high_|low_)?[supfb](?:8|16|32|64)(?:_[supfb](?:8|16|32|64))?\Z"),
     "is a NEON intrinsic name"),
)
"""(pattern matched at the start of the name, why it is not allowed)."""


def c_name_problem(name: object, *, allow_lo_prefix: bool = False) -> str | None:
    """Why `name` cannot be used as a C identifier in generated code, or None if it can.

    `allow_lo_prefix` admits the `lo_` prefix (hand-written library kernels are named
    `lo_<pattern>_<dtype>`; only the C printer's own helpers must not be shadowed).
    """
    if not isinstance(name, str):
        return f"expected a string, found {type(name).__name__}"
    return _identifier_problem(name, allow_lo_prefix)


@lru_cache(maxsize=8192)
def _identifier_problem(name: str, allow_lo_prefix: bool) -> str | None:
    """c_name_problem for a string, cached: the C printer asks for every local it names
    (these regular expressions were 11 % of printing a 1,000-op module)."""
    if not IDENTIFIER.match(name):
        return "not a valid C identifier (letters, digits and '_', not starting with a digit)"
    if len(name) > MAX_NAME_LENGTH:
        return f"longer than {MAX_NAME_LENGTH} characters"
    if name in C_KEYWORDS:
        return "a C keyword"
    if name in LIBRARY_NAMES:
        return "a name the C library or the generated code's headers define"
    for pattern, why in RESERVED_PATTERNS:
        if allow_lo_prefix and pattern.pattern == "lo_":
            continue
        if pattern.match(name):
            return f"reserved: {why}"
    return None


def check_c_name(name: object, what: str, op: Operation | None = None, *, allow_lo_prefix: bool = False) -> str:
    """`name` if `c_name_problem` accepts it, else a `LoopoptDiagnostic` located at `op`."""
    problem = c_name_problem(name, allow_lo_prefix=allow_lo_prefix)
    if problem is not None:
        from loopopt.diagnostics import LoopoptDiagnostic

        raise LoopoptDiagnostic(f"{what} {python_repr(name)} is not allowed in generated C: {problem}", op)
    assert isinstance(name, str)
    return name


def require_c_name(name: object, what: str, *, allow_lo_prefix: bool = False) -> str:
    """Like `check_c_name` for Python APIs without IR: a `ValueError`."""
    problem = c_name_problem(name, allow_lo_prefix=allow_lo_prefix)
    if problem is not None:
        raise ValueError(f"{what} {python_repr(name)} is not allowed in generated C: {problem}")
    assert isinstance(name, str)
    return name


def python_repr(value: object, limit: int = 80) -> str:
    """`repr(value)` cut to `limit` characters and ASCII-only: safe in a one-line diagnostic."""
    text = ascii(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def c_string_literal(text: str) -> str:
    """`text` as a C string literal holding its UTF-8 bytes exactly, safe under -std=c11.

    Escapes `\\` and `"`, every `?` as `\\?` (no trigraph such as `??/` can form), and every
    byte outside printable ASCII (control characters, DEL, non-ASCII UTF-8 bytes) as a
    3-digit octal escape (so a following digit cannot extend it).
    """
    out = ['"']
    for byte in text.encode("utf-8", "surrogatepass"):
        ch = chr(byte)
        if ch in '\\"?':
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    out.append('"')
    return "".join(out)


def c_comment_text(text: str) -> str:
    """`text` printable inside a `/* ... */` comment: control and non-ASCII characters as
    `\\xNN`/`\\uNNNN` escapes (no newline; no trailing backslash, so no line splice), `*/` and `/*` broken up, `?` runs
    broken up (no trigraph)."""
    safe = "".join(ch if 0x20 <= ord(ch) < 0x7F else ascii(ch)[1:-1] for ch in text)
    while "*/" in safe or "/*" in safe or "??" in safe:
        safe = safe.replace("*/", "* /").replace("/*", "/ *").replace("??", "? ?")
    return safe + " " if safe.endswith("\\") else safe


__all__ = [
    "C_KEYWORDS",
    "LIBRARY_NAMES",
    "MAX_NAME_LENGTH",
    "c_comment_text",
    "c_name_problem",
    "c_string_literal",
    "check_c_name",
    "python_repr",
    "require_c_name",
]
