"""loop-fuse's parts (the pass is passes/loop_fuse.py; the legality rules are seed 001's).

    two adjacent loops
      │ elem0       normalize each loop to j ∈ [0, n), unit step
      │ legality    named predicates, one per rule; a refusal is a stable code (codes)
      │ noalias     which buffers cannot alias (the calling convention's `restrict`)
      │ rewrite     one fused loop; forwarded stores; dead intermediates erased
      ▼
    one loop
"""
