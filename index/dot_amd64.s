#include "textflag.h"

// func dotAVX2(a *int16, b *int8, n int) int32
// The sum of a[i]*b[i] for i < n. 16 int8 codes are sign-extended to int16
// (VPMOVSXBW) and multiplied with 16 int16 codes, pairs summed to int32
// (VPMADDWD), in two accumulators; the tail under 16 is scalar.
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop16
	VPMOVSXBW (DI), Y1
	VPMADDWD  (SI), Y1, Y1
	VPADDD    Y1, Y0, Y0
	VPMOVSXBW 16(DI), Y2
	VPMADDWD  32(SI), Y2, Y2
	VPADDD    Y2, Y3, Y3
	ADDQ      $32, DI
	ADDQ      $64, SI
	SUBQ      $32, CX
	JMP       loop32

loop16:
	CMPQ CX, $16
	JL   reduce
	VPMOVSXBW (DI), Y1
	VPMADDWD  (SI), Y1, Y1
	VPADDD    Y1, Y0, Y0
	ADDQ      $16, DI
	ADDQ      $32, SI
	SUBQ      $16, CX

reduce:
	VPADDD       Y3, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4E, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xB1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, AX
	VZEROUPPER

tail:
	TESTQ   CX, CX
	JZ      done
	MOVWQSX (SI), R8
	MOVBQSX (DI), R9
	IMULQ   R9, R8
	ADDL    R8, AX
	ADDQ    $2, SI
	INCQ    DI
	DECQ    CX
	JMP     tail

done:
	MOVL AX, ret+24(FP)
	RET
