// RUN: %python -m loopopt.lowering.target --cpuinfo %S/Inputs/zen4_genoa_kvm/cpuinfo --caches %S/Inputs/zen4_genoa_kvm/cache | filecheck %s
// RUN: %python -m loopopt.lowering.target --cpuinfo %S/Inputs/zen4_genoa_kvm/cpuinfo --caches %S/Inputs/none | filecheck %s --check-prefix=TABLED

// `cpu=native` (and target=native) on the issue-11 machine: the first processor of its
// /proc/cpuinfo (AMD family 25 model 17 = 0x11, Genoa) and its sysfs caches, copied into
// Inputs/. Family 25 models 0x10-0x1f, 0x60-0x7f and 0xa0-0xaf are Zen 4
// (test/python/cpu/test_detect.py covers each range's ends). The LLC is the L3 sysfs
// reports (32 MiB; the KVM guest sees it shared by its 2 vCPUs), so maps stream from
// 16 MiB; AVX-512 filters compress in a register (vcompressps to memory is ~80 cycles
// here); a float sum's tail is one masked block on AVX-512 and AVX2. Its cpuinfo does not
// list avx512_bf16 (this KVM guest's), so the Zen 4 entry's one feature is dropped
// (`CpuModel.features`: test/python/cpu/test_detect.py prints it where cpuinfo lists it).

// CHECK:      cpu: zen4 (AMD Zen 4 (EPYC 9004, Ryzen 7000))
// CHECK-NEXT: caches: L1d 32 KiB, L2 1024 KiB, LLC 32 MiB shared by 2 cores
// CHECK-NEXT: runs: sse2, avx2, avx512, scalar
// CHECK-NEXT: features: none
// CHECK-NEXT: stream threshold: 16 MiB
// CHECK-NEXT: avx512 compaction: register
// CHECK-NEXT: avx512 f32 sum tail: masked
// CHECK-NEXT: avx2 f32 sum tail: masked

// Without sysfs caches the table's Zen 4 entry stands (a 32 MiB L3 per 8-core CCD).
// TABLED:      cpu: zen4
// TABLED-NEXT: caches: L1d 32 KiB, L2 1024 KiB, LLC 32 MiB shared by 8 cores
