#include "textflag.h"

// The STREAM kernels with AVX2: 16 float64 a loop (four 256-bit registers
// per array), unaligned loads and ordinary stores, as gcc -O3 -march=native
// compiles stream.c. len(dst) is a multiple of 16; the Go side does the
// rest. (AVX-512 versions, 32 a loop in zmm registers as gcc 12 compiles
// stream.c on this project's EPYC VM, measured 10-15 % slower than these
// here, in mem.stream and in BenchmarkStreamKernelSets, so they were not
// kept.) Scale and triad multiply and add separately (no FMA), as Go's
// portable loops do, so the results are bit for bit the same.

// One loop's 16 float64 (128 bytes) in Y0-Y3: LOAD4 loads them from
// R, MUL4 loads them from R times the scalar in Y4, ADD4 adds those at R
// to them, and STORE4 stores them at DI.
#define LOAD4(R) VMOVUPD 0(R), Y0; VMOVUPD 32(R), Y1; VMOVUPD 64(R), Y2; VMOVUPD 96(R), Y3
#define MUL4(R) VMULPD 0(R), Y4, Y0; VMULPD 32(R), Y4, Y1; VMULPD 64(R), Y4, Y2; VMULPD 96(R), Y4, Y3
#define ADD4(R) VADDPD 0(R), Y0, Y0; VADDPD 32(R), Y1, Y1; VADDPD 64(R), Y2, Y2; VADDPD 96(R), Y3, Y3
#define STORE4 VMOVUPD Y0, 0(DI); VMOVUPD Y1, 32(DI); VMOVUPD Y2, 64(DI); VMOVUPD Y3, 96(DI)

// func scaleAVX2(dst, src []float64, s float64)
TEXT ·scaleAVX2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	VBROADCASTSD s+48(FP), Y4
	SHRQ $4, CX
	JZ   scaledone
scaleloop:
	MUL4(SI)
	STORE4
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  scaleloop
scaledone:
	VZEROUPPER
	RET

// func addAVX2(dst, x, y []float64)
TEXT ·addAVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), DX
	SHRQ $4, CX
	JZ   adddone
addloop:
	LOAD4(SI)
	ADD4(DX)
	STORE4
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	DECQ CX
	JNZ  addloop
adddone:
	VZEROUPPER
	RET

// func triadAVX2(dst, x, y []float64, s float64)
TEXT ·triadAVX2(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), DX
	VBROADCASTSD s+72(FP), Y4
	SHRQ $4, CX
	JZ   triaddone
triadloop:
	MUL4(DX)
	ADD4(SI)
	STORE4
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	DECQ CX
	JNZ  triadloop
triaddone:
	VZEROUPPER
	RET

// func copyAVX2(dst, src []float64)
TEXT ·copyAVX2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	SHRQ $4, CX
	JZ   copydone
copyloop:
	LOAD4(SI)
	STORE4
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  copyloop
copydone:
	VZEROUPPER
	RET
