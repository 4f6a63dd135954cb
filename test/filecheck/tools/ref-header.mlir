// loop-run never evaluates a REF expression outside the REF grammar (docs/ref_header.md):
// the header is refused, with its line and column, before anything is compiled or run.
// RUN: not loop-run %S/Inputs/hostile-ref.mlir -t scalar --n 16 2>&1 | filecheck %s --check-prefix=HOSTILE
// RUN: sed -e 's/__import__.*or x + x/np.sum(nope)/' %S/Inputs/hostile-ref.mlir > %t.mlir
// RUN: not loop-run %t.mlir -t scalar --n 16 2>&1 | filecheck %s --check-prefix=FAILS

// HOSTILE:     hostile-ref.mlir:1:43: error: bad REF header: ref=: name '__import__' is not allowed (names starting with _ are not)
// HOSTILE-NOT: PWNED
// HOSTILE-NOT: Traceback

// A name that is not an input: the kernel checks, then the numpy timing names the REF line.
// FAILS:      twice: matches the interpreter (n=16)
// FAILS:      .mlir:1: error: REF ref= failed: NameError: name 'nope' is not defined
// FAILS-NOT:  Traceback
