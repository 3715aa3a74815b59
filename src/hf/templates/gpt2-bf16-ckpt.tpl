# gpt2-bf16-ckpt: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates/hf-memory (shapes a and b), torch 2.11.0+cu130, transformers 5.17.0
template gpt2 bf16 ckpt
phase build
a d*V*2
a d*P*2
loop L
  a d*2
  a d*2
  a d*d*6
  a d*6
  a d*d*2
  a d*2
  a d*2
  a d*2
  a d*f*2
  a f*2
  a d*f*2
  a d*2
end
a d*2
a d*2
a d*V*2
f build 5 - 0
a B*S*8
phase F0
a B*S*d*2
a S*8
a S*8
f F0 1 - 0
a S*d*2
a B*S*d*2
a B*8
a B*8+B*S*8
a B*S*8
f F0 7 - 0
a B*S
a B*S*8
a B*S*8
f F0 10 - 0
f F0 12 - 0
a B
a 1
f F0 6 - 0
f F0 8 - 0
f F0 11 - 0
f F0 15 - 0
f F0 16 - 0
a B*S*d
a B*S*d*2
f F0 5 - 0
a B*S*d*2
a B*S*4
a B*S*4
f F0 26 - 0
f F0 27 - 0
a B*S*d*6
a 1048576
loop L-1
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 32 rel0 0
  f F0 32 rel0 1
  f F0 32 rel0 3
  f F0 32 rel0 4
  a B*S*d*2
  f F0 32 rel0 2
  a B*S*d
  a B*S*d*2
  f F0 32 rel-1 28 first F0 30 - 0
  f F0 32 rel0 5
  f F0 32 rel0 6
  a B*S*d*2
  f F0 32 rel-1 25 first F0 25 - 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  f F0 32 rel0 10
  f F0 32 rel0 11
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f F0 32 rel0 14
  a B*S*f*2
  f F0 32 rel0 15
  a B*S*f*2
  f F0 32 rel0 16
  a B*S*f*2
  f F0 32 rel0 17
  a B*S*f*2
  f F0 32 rel0 18
  a B*S*f*2
  f F0 32 rel0 12
  f F0 32 rel0 13
  f F0 32 rel0 19
  a B*S*d*2
  f F0 32 rel0 20
  a B*S*d
  a B*S*d*2
  f F0 32 rel0 21
  f F0 32 rel0 22
  a B*S*d*2
  f F0 32 rel0 7
  f F0 32 rel0 8
  f F0 32 rel0 9
  f F0 32 rel0 23
  a B*S*d*2
  a B*S*4
  a B*S*4
  f F0 32 rel0 26
  f F0 32 rel0 27
  a B*S*d*6
end
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f F0 33 - 0
f F0 34 - 0
f F0 36 - 0
f F0 37 - 0
a B*S*d*2
f F0 35 - 0
a B*S*d
a B*S*d*2
f F0 32 end1 28
f F0 42 - 0
f F0 44 - 0
a B*S*d*2
f F0 32 end1 25
a B*S*d*2
a B*S*4
a B*S*4
f F0 52 - 0
f F0 53 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
f F0 58 - 0
a B*S*f*2
f F0 59 - 0
a B*S*f*2
f F0 61 - 0
a B*S*f*2
f F0 63 - 0
a B*S*f*2
f F0 65 - 0
a B*S*f*2
f F0 56 - 0
f F0 57 - 0
f F0 67 - 0
a B*S*d*2
f F0 69 - 0
a B*S*d
a B*S*d*2
f F0 73 - 0
f F0 75 - 0
a B*S*d*2
f F0 45 - 0
f F0 49 - 0
f F0 51 - 0
f F0 76 - 0
a B*S*d*2
a B*S*4
a B*S*4
f F0 0 - 0
f F0 4 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 89 - 0
f F0 90 - 0
f F0 91 - 0
phase B0
a 4
a B*S*V*4
f F0 92 - 0
f F0 95 - 0
a B*S*V*4
f F0 93 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 84 - 0
f B0 7 - 0
a B*S*d*2
a d*2
a d*2
f F0 79 - 0
f F0 85 - 0
f F0 86 - 0
f B0 11 - 0
a B*S*d*2
a B*S*4
a B*S*4
a B*S*d*6
a 1048576
loop L-1
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 26 rel0 4
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 26 rel0 5
  a B*S*d*2
  a B*S*d*2
  a B*S*4
  a B*S*4
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 26 rel0 14
  a B*S*f*2
  f B0 26 rel0 15
  a B*S*f*2
  f B0 26 rel0 16
  a B*S*f*2
  f B0 26 rel0 17
  a B*S*f*2
  a B*S*f*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 26 rel0 7
  f B0 26 rel0 21
  f B0 26 rel0 23
  a B*S*d*2
  f B0 26 rel0 22
  a B*S*f*2
  a d*f*2
  f B0 26 rel0 20
  a d*2
  f B0 26 rel0 24
  a B*S*f*2
  a B*S*f*2
  f B0 26 rel0 13
  f B0 26 rel0 19
  f B0 26 rel0 25
  a B*S*f*2
  f B0 26 rel0 18
  f B0 26 rel0 28
  a B*S*f*2
  f B0 26 rel0 30
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 26 rel0 12
  f B0 26 rel0 32
  f B0 26 rel0 33
  f B0 26 rel0 34
  f B0 26 rel0 35
  a B*S*f*2
  f B0 26 rel0 29
  f B0 26 rel0 36
  a B*S*d*2
  a d*f*2
  f B0 26 rel0 9
  a f*2
  f B0 26 rel0 31
  a B*S*d*2
  a d*2
  a d*2
  f B0 26 rel0 8
  f B0 26 rel0 10
  f B0 26 rel0 11
  f B0 26 rel0 37
  f B0 26 rel0 40
  a B*S*d*2
  f B0 26 rel0 6
  a B*S*d*2
  a d*d*2
  a d*2
  f B0 26 rel0 43
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f B0 26 rel-1 61 first B0 24 - 0
  f B0 26 rel0 0
  f B0 26 rel0 1
  f B0 26 rel0 2
  f B0 26 rel0 3
  f B0 26 rel0 44
  f B0 26 rel0 50
  a B*S*d*6
  f B0 26 rel0 47
  f B0 26 rel0 48
  f B0 26 rel0 49
  a B*S*d*2
  a d*d*6
  f B0 26 rel-1 58 first B0 21 - 0
  a d*6
  f B0 26 rel0 51
  a B*S*d*2
  a d*2
  a d*2
  f F0 32 mir-1 24
  f B0 26 rel-1 59 first B0 22 - 0
  f B0 26 rel-1 60 first B0 23 - 0
  f B0 26 rel0 52
  f B0 26 rel0 55
  a B*S*d*2
  a B*S*4
  a B*S*4
  a B*S*d*6
end
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f B0 31 - 0
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 33 - 0
a B*S*d*2
a B*S*d*2
a B*S*4
a B*S*4
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
f B0 43 - 0
a B*S*f*2
f B0 44 - 0
a B*S*f*2
f B0 46 - 0
a B*S*f*2
f B0 48 - 0
a B*S*f*2
a B*S*f*2
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 35 - 0
f B0 54 - 0
f B0 56 - 0
a B*S*d*2
f B0 55 - 0
a B*S*f*2
a d*f*2
f B0 53 - 0
a d*2
f B0 60 - 0
a B*S*f*2
a B*S*f*2
f B0 42 - 0
f B0 52 - 0
f B0 62 - 0
a B*S*f*2
f B0 50 - 0
f B0 67 - 0
a B*S*f*2
f B0 72 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
f B0 41 - 0
f B0 77 - 0
f B0 78 - 0
f B0 79 - 0
f B0 80 - 0
a B*S*f*2
f B0 68 - 0
f B0 86 - 0
a B*S*d*2
a d*f*2
f B0 38 - 0
a f*2
f B0 75 - 0
a B*S*d*2
a d*2
a d*2
f B0 37 - 0
f B0 39 - 0
f B0 40 - 0
f B0 89 - 0
f B0 94 - 0
a B*S*d*2
f B0 34 - 0
a B*S*d*2
a d*d*2
a d*2
f B0 102 - 0
a B*S*d*2
a B*S*d*2
a B*S*d*2
a B*S*d*4~1.01577
f B0 26 end1 61
f B0 27 - 0
f B0 28 - 0
f B0 29 - 0
f B0 30 - 0
f B0 104 - 0
f B0 111 - 0
a B*S*d*6
f B0 108 - 0
f B0 109 - 0
f B0 110 - 0
a B*S*d*2
a d*d*6
f B0 26 end1 58
a d*6
f B0 119 - 0
a B*S*d*2
a d*2
a d*2
f F0 23 - 0
f B0 26 end1 59
f B0 26 end1 60
f B0 123 - 0
f B0 128 - 0
a B*S*d*2
f F0 22 - 0
f B0 14 - 0
a S*d*2
a d*P*2
f F0 2 - 0
f B0 139 - 0
a d*V*2
f B0 136 - 0
a d*V*2
f B0 0 - 0
f B0 9 - 0
f B0 143 - 0
phase O0
a d*V*2
a d*V*2
a d*P*2
a d*P*2
loop L
  a d*2
  a d*2
  a d*2
  a d*2
  a d*d*6
  a d*d*6
  a d*6
  a d*6
  a d*d*2
  a d*d*2
  a d*2
  a d*2
  a d*2
  a d*2
  a d*2
  a d*2
  a d*f*2
  a d*f*2
  a f*2
  a f*2
  a d*f*2
  a d*f*2
  a d*2
  a d*2
end
a d*2
a d*2
a d*2
a d*2
a d*V*2
a d*P*2
loop L
  a d*2
  a d*2
  a d*d*6
  a d*6
  a d*d*2
  a d*2
  a d*2
  a d*2
  a d*f*2
  a f*2
  a d*f*2
  a d*2
end
a d*2
a d*2
loop L
  f B0 26 rel-1 56 first B0 15 - 0
  f B0 26 rel-1 57 first B0 16 - 0
  f B0 26 rel0 26 last B0 63 - 0
  f B0 26 rel0 27 last B0 65 - 0
  f B0 26 rel0 38 last B0 90 - 0
  f B0 26 rel0 39 last B0 92 - 0
  f B0 26 rel0 41 last B0 95 - 0
  f B0 26 rel0 42 last B0 96 - 0
  f B0 26 rel0 45 last B0 105 - 0
  f B0 26 rel0 46 last B0 106 - 0
  f B0 26 rel0 53 last B0 124 - 0
  f B0 26 rel0 54 last B0 126 - 0
end
f B0 129 - 0
f B0 130 - 0
f B0 140 - 0
f B0 145 - 0
f O0 9 - 0
f O0 10 - 0
loop L
  f O0 11 rel0 0
  f O0 11 rel0 1
  f O0 11 rel0 2
  f O0 11 rel0 3
  f O0 11 rel0 4
  f O0 11 rel0 5
  f O0 11 rel0 6
  f O0 11 rel0 7
  f O0 11 rel0 8
  f O0 11 rel0 9
  f O0 11 rel0 10
  f O0 11 rel0 11
end
f O0 12 - 0
f O0 13 - 0
phase F1
f F-1 94 - 0
a B*S*d*2
a S*8
a S*8
f F0 2 - 0
a S*d*2
a B*S*d*2
a B*8
a B*8+B*S*8
a B*S*8
f F0 8 - 0
a B*S
a B*S*8
a B*S*8
f F0 11 - 0
f F0 13 - 0
a B
a 1
f F0 7 - 0
f F0 9 - 0
f F0 12 - 0
f F0 16 - 0
f F0 17 - 0
a B*S*d
a B*S*d*2
loop L
  f F0 25 rel-1 27 first F0 6 - 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  f F0 25 rel0 1
  f F0 25 rel0 2
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 25 rel0 4
  f F0 25 rel0 5
  f F0 25 rel0 7
  f F0 25 rel0 8
  a B*S*d*2
  f F0 25 rel0 6
  a B*S*d
  a B*S*d*2
  f F0 25 rel0 3
  f F0 25 rel0 9
  f F0 25 rel0 10
  a B*S*d*2
  f F0 25 rel0 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  f F0 25 rel0 14
  f F0 25 rel0 15
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f F0 25 rel0 18
  a B*S*f*2
  f F0 25 rel0 19
  a B*S*f*2
  f F0 25 rel0 20
  a B*S*f*2
  f F0 25 rel0 21
  a B*S*f*2
  f F0 25 rel0 22
  a B*S*f*2
  f F0 25 rel0 16
  f F0 25 rel0 17
  f F0 25 rel0 23
  a B*S*d*2
  f F0 25 rel0 24
  a B*S*d
  a B*S*d*2
  f F0 25 rel0 25
  f F0 25 rel0 26
  a B*S*d*2
  f F0 25 rel0 11
  f F0 25 rel0 12
  f F0 25 rel0 13
end
f F0 25 end0 27
a B*S*d*2
a B*S*4
a B*S*4
f F0 1 - 0
f F0 5 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 32 - 0
f F0 33 - 0
f F0 34 - 0
phase B1
a 4
a B*S*V*4
f F0 35 - 0
f F0 38 - 0
a B*S*V*4
f F0 36 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 27 - 0
f B0 7 - 0
a B*S*d*2
a d*2
a d*2
f F0 25 end0 28
f F0 28 - 0
f F0 29 - 0
loop L
  f B0 19 rel-1 59 first B0 10 - 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 19 rel0 8
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 19 rel0 9
  a B*S*d*2
  a B*S*d*2
  a B*S*4
  a B*S*4
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 19 rel0 18
  a B*S*f*2
  f B0 19 rel0 19
  a B*S*f*2
  f B0 19 rel0 20
  a B*S*f*2
  f B0 19 rel0 21
  a B*S*f*2
  a B*S*f*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 19 rel0 11
  f B0 19 rel0 25
  f B0 19 rel0 27
  a B*S*d*2
  f B0 19 rel0 26
  a B*S*f*2
  a d*f*2
  f B0 19 rel0 24
  a d*2
  f B0 19 rel0 28
  a B*S*f*2
  a B*S*f*2
  f B0 19 rel0 17
  f B0 19 rel0 23
  f B0 19 rel0 29
  a B*S*f*2
  f B0 19 rel0 22
  f B0 19 rel0 32
  a B*S*f*2
  f B0 19 rel0 34
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 19 rel0 16
  f B0 19 rel0 36
  f B0 19 rel0 37
  f B0 19 rel0 38
  f B0 19 rel0 39
  a B*S*f*2
  f B0 19 rel0 33
  f B0 19 rel0 40
  a B*S*d*2
  a d*f*2
  f B0 19 rel0 13
  a f*2
  f B0 19 rel0 35
  a B*S*d*2
  a d*2
  a d*2
  f B0 19 rel0 12
  f B0 19 rel0 14
  f B0 19 rel0 15
  f B0 19 rel0 41
  f B0 19 rel0 44
  a B*S*d*2
  f B0 19 rel0 10
  a B*S*d*2
  a d*d*2
  a d*2
  f B0 19 rel0 47
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f B0 19 rel0 3
  f B0 19 rel0 4
  f B0 19 rel0 5
  f B0 19 rel0 6
  f B0 19 rel0 7
  f B0 19 rel0 48
  f B0 19 rel0 54
  a B*S*d*6
  f B0 19 rel0 51
  f B0 19 rel0 52
  f B0 19 rel0 53
  a B*S*d*2
  a d*d*6
  f B0 19 rel0 0
  a d*6
  f B0 19 rel0 55
  a B*S*d*2
  a d*2
  a d*2
  f F0 25 mir-1 28 last F0 24 - 0
  f B0 19 rel0 1
  f B0 19 rel0 2
  f B0 19 rel0 56
end
f B0 19 end0 59
a B*S*d*2
f F0 23 - 0
f B0 13 - 0
a S*d*2
a d*P*2
f F0 3 - 0
f B0 24 - 0
a d*V*2
f B0 21 - 0
a d*V*2
f B0 0 - 0
f B0 9 - 0
f B0 28 - 0
phase O1
a d*V*2
a d*P*2
loop L
  a d*2
  a d*2
  a d*d*6
  a d*6
  a d*d*2
  a d*2
  a d*2
  a d*2
  a d*f*2
  a f*2
  a d*f*2
  a d*2
end
a d*2
a d*2
loop L
  f B0 19 rel-1 60 first B0 14 - 0
  f B0 19 rel-1 61 first B0 15 - 0
  f B0 19 rel0 30
  f B0 19 rel0 31
  f B0 19 rel0 42
  f B0 19 rel0 43
  f B0 19 rel0 45
  f B0 19 rel0 46
  f B0 19 rel0 49
  f B0 19 rel0 50
  f B0 19 rel0 57
  f B0 19 rel0 58
end
f B0 19 end0 60
f B0 19 end0 61
f B0 25 - 0
f B0 30 - 0
f O0 0 - 0
f O0 1 - 0
loop L
  f O0 2 rel0 0
  f O0 2 rel0 1
  f O0 2 rel0 2
  f O0 2 rel0 3
  f O0 2 rel0 4
  f O0 2 rel0 5
  f O0 2 rel0 6
  f O0 2 rel0 7
  f O0 2 rel0 8
  f O0 2 rel0 9
  f O0 2 rel0 10
  f O0 2 rel0 11
end
f O0 3 - 0
f O0 4 - 0
phase F2
f F-1 37 - 0
a B*S*d*2
a S*8
a S*8
f F0 2 - 0
a S*d*2
a B*S*d*2
a B*8
a B*8+B*S*8
a B*S*8
f F0 8 - 0
a B*S
a B*S*8
a B*S*8
f F0 11 - 0
f F0 13 - 0
a B
a 1
f F0 7 - 0
f F0 9 - 0
f F0 12 - 0
f F0 16 - 0
f F0 17 - 0
a B*S*d
a B*S*d*2
loop L
  f F0 25 rel-1 27 first F0 6 - 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  f F0 25 rel0 1
  f F0 25 rel0 2
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 25 rel0 4
  f F0 25 rel0 5
  f F0 25 rel0 7
  f F0 25 rel0 8
  a B*S*d*2
  f F0 25 rel0 6
  a B*S*d
  a B*S*d*2
  f F0 25 rel0 3
  f F0 25 rel0 9
  f F0 25 rel0 10
  a B*S*d*2
  f F0 25 rel0 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  f F0 25 rel0 14
  f F0 25 rel0 15
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f F0 25 rel0 18
  a B*S*f*2
  f F0 25 rel0 19
  a B*S*f*2
  f F0 25 rel0 20
  a B*S*f*2
  f F0 25 rel0 21
  a B*S*f*2
  f F0 25 rel0 22
  a B*S*f*2
  f F0 25 rel0 16
  f F0 25 rel0 17
  f F0 25 rel0 23
  a B*S*d*2
  f F0 25 rel0 24
  a B*S*d
  a B*S*d*2
  f F0 25 rel0 25
  f F0 25 rel0 26
  a B*S*d*2
  f F0 25 rel0 11
  f F0 25 rel0 12
  f F0 25 rel0 13
end
f F0 25 end0 27
a B*S*d*2
a B*S*4
a B*S*4
f F0 1 - 0
f F0 5 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 32 - 0
f F0 33 - 0
f F0 34 - 0
phase B2
a 4
a B*S*V*4
f F0 35 - 0
f F0 38 - 0
a B*S*V*4
f F0 36 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 27 - 0
f B0 7 - 0
a B*S*d*2
a d*2
a d*2
f F0 25 end0 28
f F0 28 - 0
f F0 29 - 0
loop L
  f B0 19 rel-1 59 first B0 10 - 0
  a B*S*d*2
  a B*S*4
  a B*S*4
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 19 rel0 8
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 19 rel0 9
  a B*S*d*2
  a B*S*d*2
  a B*S*4
  a B*S*4
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 19 rel0 18
  a B*S*f*2
  f B0 19 rel0 19
  a B*S*f*2
  f B0 19 rel0 20
  a B*S*f*2
  f B0 19 rel0 21
  a B*S*f*2
  a B*S*f*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 19 rel0 11
  f B0 19 rel0 25
  f B0 19 rel0 27
  a B*S*d*2
  f B0 19 rel0 26
  a B*S*f*2
  a d*f*2
  f B0 19 rel0 24
  a d*2
  f B0 19 rel0 28
  a B*S*f*2
  a B*S*f*2
  f B0 19 rel0 17
  f B0 19 rel0 23
  f B0 19 rel0 29
  a B*S*f*2
  f B0 19 rel0 22
  f B0 19 rel0 32
  a B*S*f*2
  f B0 19 rel0 34
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 19 rel0 16
  f B0 19 rel0 36
  f B0 19 rel0 37
  f B0 19 rel0 38
  f B0 19 rel0 39
  a B*S*f*2
  f B0 19 rel0 33
  f B0 19 rel0 40
  a B*S*d*2
  a d*f*2
  f B0 19 rel0 13
  a f*2
  f B0 19 rel0 35
  a B*S*d*2
  a d*2
  a d*2
  f B0 19 rel0 12
  f B0 19 rel0 14
  f B0 19 rel0 15
  f B0 19 rel0 41
  f B0 19 rel0 44
  a B*S*d*2
  f B0 19 rel0 10
  a B*S*d*2
  a d*d*2
  a d*2
  f B0 19 rel0 47
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f B0 19 rel0 3
  f B0 19 rel0 4
  f B0 19 rel0 5
  f B0 19 rel0 6
  f B0 19 rel0 7
  f B0 19 rel0 48
  f B0 19 rel0 54
  a B*S*d*6
  f B0 19 rel0 51
  f B0 19 rel0 52
  f B0 19 rel0 53
  a B*S*d*2
  a d*d*6
  f B0 19 rel0 0
  a d*6
  f B0 19 rel0 55
  a B*S*d*2
  a d*2
  a d*2
  f F0 25 mir-1 28 last F0 24 - 0
  f B0 19 rel0 1
  f B0 19 rel0 2
  f B0 19 rel0 56
end
f B0 19 end0 59
a B*S*d*2
f F0 23 - 0
f B0 13 - 0
a S*d*2
a d*P*2
f F0 3 - 0
f B0 24 - 0
a d*V*2
f B0 21 - 0
a d*V*2
f B0 0 - 0
f B0 9 - 0
f B0 28 - 0
phase O2
a d*V*2
a d*P*2
loop L
  a d*2
  a d*2
  a d*d*6
  a d*6
  a d*d*2
  a d*2
  a d*2
  a d*2
  a d*f*2
  a f*2
  a d*f*2
  a d*2
end
a d*2
a d*2
loop L
  f B0 19 rel-1 60 first B0 14 - 0
  f B0 19 rel-1 61 first B0 15 - 0
  f B0 19 rel0 30
  f B0 19 rel0 31
  f B0 19 rel0 42
  f B0 19 rel0 43
  f B0 19 rel0 45
  f B0 19 rel0 46
  f B0 19 rel0 49
  f B0 19 rel0 50
  f B0 19 rel0 57
  f B0 19 rel0 58
end
f B0 19 end0 60
f B0 19 end0 61
f B0 25 - 0
f B0 30 - 0
f O0 0 - 0
f O0 1 - 0
loop L
  f O0 2 rel0 0
  f O0 2 rel0 1
  f O0 2 rel0 2
  f O0 2 rel0 3
  f O0 2 rel0 4
  f O0 2 rel0 5
  f O0 2 rel0 6
  f O0 2 rel0 7
  f O0 2 rel0 8
  f O0 2 rel0 9
  f O0 2 rel0 10
  f O0 2 rel0 11
end
f O0 3 - 0
f O0 4 - 0
