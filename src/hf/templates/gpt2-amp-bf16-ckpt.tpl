# gpt2-amp-bf16-ckpt: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates/hf-memory (shapes a and b), torch 2.11.0+cu130, transformers 5.17.0
template gpt2 amp-bf16 ckpt
phase build
a d*V*4
a d*P*4
loop L
  a d*4
  a d*4
  a d*d*12
  a d*12
  a d*d*4
  a d*4
  a d*4
  a d*4
  a d*f*4
  a f*4
  a d*f*4
  a d*4
end
a d*4
a d*4
a d*V*4
f build 5 - 0
a B*S*8
phase F0
a B*S*d*4
a S*8
a S*8
f F0 1 - 0
a S*d*4
a B*S*d*4
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
a B*S*d*4
f F0 5 - 0
a B*S*d*4
a B*S*4
a B*S*4
f F0 26 - 0
f F0 27 - 0
a d*d*6
a B*S*d*2
a d*6
a B*S*d*6
a 1048576
loop L-1
  f F0 35 rel-1 38 first F0 31 - 0
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 35 rel0 0
  f F0 35 rel0 1
  f F0 35 rel0 3
  f F0 35 rel0 4
  a d*d*2
  a d*2
  a B*S*d*2
  f F0 35 rel0 2
  a B*S*d
  a B*S*d*2
  f F0 35 rel-1 40 first F0 33 - 0
  f F0 35 rel0 7
  f F0 35 rel0 8
  a B*S*d*4
  f F0 35 rel-1 34 first F0 25 - 0
  a B*S*d*4
  a B*S*4
  a B*S*4
  f F0 35 rel0 12
  f F0 35 rel0 13
  a d*f*2
  a B*S*d*2
  a f*2
  a B*S*f*2
  f F0 35 rel0 15
  a B*S*f*2
  a B*S*f*4
  a B*S*f*4
  f F0 35 rel0 19
  a B*S*f*4
  f F0 35 rel0 20
  a B*S*f*4
  f F0 35 rel0 21
  a B*S*f*4
  f F0 35 rel0 22
  a B*S*f*4
  f F0 35 rel0 23
  a B*S*f*4
  f F0 35 rel0 24
  a B*S*f*4
  f F0 35 rel0 17
  f F0 35 rel0 18
  f F0 35 rel0 25
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f F0 35 rel0 26
  f F0 35 rel0 28
  a B*S*d
  a B*S*d*2
  f F0 35 rel0 30
  f F0 35 rel0 31
  a B*S*d*4
  f F0 35 rel0 9
  f F0 35 rel0 10
  f F0 35 rel0 11
  f F0 35 rel0 32
  a B*S*d*4
  a B*S*4
  a B*S*4
  f F0 35 rel0 35
  f F0 35 rel0 36
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
end
f F0 35 end1 38
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f F0 37 - 0
f F0 38 - 0
f F0 40 - 0
f F0 41 - 0
a d*d*2
a d*2
a B*S*d*2
f F0 39 - 0
a B*S*d
a B*S*d*2
f F0 35 end1 40
f F0 48 - 0
f F0 50 - 0
a B*S*d*4
f F0 35 end1 34
a B*S*d*4
a B*S*4
a B*S*4
f F0 58 - 0
f F0 59 - 0
a d*f*2
a B*S*d*2
a f*2
a B*S*f*2
f F0 63 - 0
a B*S*f*2
a B*S*f*4
a B*S*f*4
f F0 68 - 0
a B*S*f*4
f F0 69 - 0
a B*S*f*4
f F0 71 - 0
a B*S*f*4
f F0 73 - 0
a B*S*f*4
f F0 75 - 0
a B*S*f*4
f F0 77 - 0
a B*S*f*4
f F0 65 - 0
f F0 67 - 0
f F0 79 - 0
a d*f*2
a B*S*f*2
a d*2
a B*S*d*2
f F0 81 - 0
f F0 86 - 0
a B*S*d
a B*S*d*2
f F0 88 - 0
f F0 91 - 0
a B*S*d*4
f F0 51 - 0
f F0 55 - 0
f F0 57 - 0
f F0 92 - 0
a B*S*d*4
a B*S*4
a B*S*4
f F0 0 - 0
f F0 4 - 0
a d*V*2
a B*S*d*2
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
loop L
  f F0 35 rel-1 37 first F0 30 - 0
  f F0 35 rel-1 39 first F0 32 - 0
  f F0 35 rel0 5 last F0 46 - 0
  f F0 35 rel0 6 last F0 47 - 0
  f F0 35 rel0 14 last F0 62 - 0
  f F0 35 rel0 16 last F0 64 - 0
  f F0 35 rel0 27 last F0 85 - 0
  f F0 35 rel0 29 last F0 87 - 0
end
f F0 100 - 0
f F0 107 - 0
f F0 108 - 0
f F0 109 - 0
phase B0
a 4
a B*S*V*4
f F0 110 - 0
f F0 113 - 0
a B*S*V*4
f F0 111 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 105 - 0
f F0 106 - 0
f B0 7 - 0
a B*S*d*4
f B0 11 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a d*4
a d*4
f F0 95 - 0
f F0 101 - 0
f F0 102 - 0
f B0 15 - 0
a B*S*d*2
a B*S*d*4
a B*S*4
a B*S*4
a d*d*6
a B*S*d*2
a d*6
a B*S*d*6
a 1048576
loop L-1
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 35 rel0 4
  a d*d*2
  a d*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 35 rel0 7
  a B*S*d*4
  f B0 35 rel-1 83 first B0 27 - 0
  a B*S*d*4
  a B*S*4
  a B*S*4
  a d*f*2
  a B*S*d*2
  a f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f B0 35 rel0 20
  a B*S*f*4
  f B0 35 rel0 21
  a B*S*f*4
  f B0 35 rel0 22
  a B*S*f*4
  f B0 35 rel0 23
  a B*S*f*4
  a B*S*f*4
  f B0 35 rel0 17
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f B0 35 rel0 26
  a B*S*d
  a B*S*d*2
  f B0 35 rel-1 88 first B0 32 - 0
  f B0 35 rel0 6
  f B0 35 rel0 9
  f B0 35 rel0 11
  f B0 35 rel0 16
  f B0 35 rel0 29
  f B0 35 rel0 30
  f B0 35 rel0 32
  a B*S*d*2
  f B0 35 rel-1 82 first B0 26 - 0
  f B0 35 rel0 31
  a B*S*f*2
  a d*f*2
  f B0 35 rel0 27
  f B0 35 rel0 28
  a d*2
  f B0 35 rel0 33
  a d*4
  f B0 35 rel0 36
  a B*S*f*4
  f B0 35 rel0 34
  a d*f*4
  f B0 35 rel0 35
  a B*S*f*4
  a B*S*f*4
  f B0 35 rel0 18
  f B0 35 rel0 25
  a B*S*f*2
  f B0 35 rel0 38
  f B0 35 rel0 41
  a B*S*f*4
  f B0 35 rel0 24
  f B0 35 rel0 40
  a B*S*f*4
  f B0 35 rel0 43
  a B*S*f*2
  a B*S*f*4
  f B0 35 rel0 44
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f B0 35 rel0 19
  f B0 35 rel0 46
  f B0 35 rel0 47
  f B0 35 rel0 48
  a B*S*f*2
  f B0 35 rel0 49
  f B0 35 rel0 50
  a B*S*f*2
  f B0 35 rel0 42
  f B0 35 rel0 51
  a B*S*d*2
  a d*f*2
  f B0 35 rel0 14
  f B0 35 rel0 15
  a f*2
  f B0 35 rel0 45
  a f*4
  f B0 35 rel0 54
  a B*S*d*4
  f B0 35 rel0 52
  a d*f*4
  f B0 35 rel0 53
  a B*S*d*4
  a d*4
  a d*4
  f B0 35 rel0 10
  f B0 35 rel0 12
  f B0 35 rel0 13
  f B0 35 rel0 56
  f B0 35 rel0 58
  a B*S*d*2
  a B*S*d*2
  f B0 35 rel0 8
  f B0 35 rel0 61
  a B*S*d*2
  a d*d*2
  f B0 35 rel0 5
  a d*2
  f B0 35 rel0 62
  a d*4
  f B0 35 rel0 65
  a d*d*4
  f B0 35 rel0 64
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f B0 35 rel-1 89 first B0 33 - 0
  f B0 35 rel0 0
  f B0 35 rel0 1
  f B0 35 rel0 2
  f B0 35 rel0 3
  f B0 35 rel0 63
  f B0 35 rel0 71
  a B*S*d*6
  f B0 35 rel0 68
  f B0 35 rel0 69
  f B0 35 rel0 70
  a B*S*d*2
  a d*d*6
  f B0 35 rel-1 86 first B0 30 - 0
  f B0 35 rel-1 87 first B0 31 - 0
  a d*6
  f B0 35 rel0 72
  a d*12
  f B0 35 rel0 75
  a B*S*d*4
  f B0 35 rel0 73
  a d*d*12
  f B0 35 rel0 74
  a B*S*d*4
  a d*4
  a d*4
  f F0 35 mir-1 33
  f B0 35 rel-1 84 first B0 28 - 0
  f B0 35 rel-1 85 first B0 29 - 0
  f B0 35 rel0 77
  f B0 35 rel0 79
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  a B*S*4
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
end
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f B0 40 - 0
a d*d*2
a d*2
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 44 - 0
a B*S*d*4
f B0 35 end1 83
a B*S*d*4
a B*S*4
a B*S*4
a d*f*2
a B*S*d*2
a f*2
a B*S*f*2
a B*S*f*2
a B*S*f*4
a B*S*f*4
a B*S*f*4
f B0 59 - 0
a B*S*f*4
f B0 60 - 0
a B*S*f*4
f B0 62 - 0
a B*S*f*4
f B0 64 - 0
a B*S*f*4
a B*S*f*4
f B0 56 - 0
a d*f*2
a B*S*f*2
a d*2
a B*S*d*2
f B0 69 - 0
a B*S*d
a B*S*d*2
f B0 35 end1 88
f B0 43 - 0
f B0 46 - 0
f B0 50 - 0
f B0 55 - 0
f B0 73 - 0
f B0 74 - 0
f B0 77 - 0
a B*S*d*2
f B0 35 end1 82
f B0 76 - 0
a B*S*f*2
a d*f*2
f B0 71 - 0
f B0 72 - 0
a d*2
f B0 86 - 0
a d*4
f B0 93 - 0
a B*S*f*4
f B0 89 - 0
a d*f*4
f B0 90 - 0
a B*S*f*4
a B*S*f*4
f B0 57 - 0
f B0 68 - 0
a B*S*f*2
f B0 97 - 0
f B0 102 - 0
a B*S*f*4
f B0 66 - 0
f B0 101 - 0
a B*S*f*4
f B0 108 - 0
a B*S*f*2
a B*S*f*4
f B0 111 - 0
a B*S*f*4
a B*S*f*4
a B*S*f*4
f B0 58 - 0
f B0 114 - 0
f B0 116 - 0
f B0 117 - 0
a B*S*f*2
f B0 118 - 0
f B0 123 - 0
a B*S*f*2
f B0 105 - 0
f B0 126 - 0
a B*S*d*2
a d*f*2
f B0 53 - 0
f B0 54 - 0
a f*2
f B0 113 - 0
a f*4
f B0 133 - 0
a B*S*d*4
f B0 129 - 0
a d*f*4
f B0 130 - 0
a B*S*d*4
a d*4
a d*4
f B0 48 - 0
f B0 51 - 0
f B0 52 - 0
f B0 137 - 0
f B0 141 - 0
a B*S*d*2
a B*S*d*2
f B0 45 - 0
f B0 149 - 0
a B*S*d*2
a d*d*2
f B0 42 - 0
a d*2
f B0 150 - 0
a d*4
f B0 156 - 0
a d*d*4
f B0 154 - 0
a B*S*d*2
a B*S*d*2
a B*S*d*2
a B*S*d*4~1.01577
f B0 35 end1 89
f B0 36 - 0
f B0 37 - 0
f B0 38 - 0
f B0 39 - 0
f B0 153 - 0
f B0 165 - 0
a B*S*d*6
f B0 162 - 0
f B0 163 - 0
f B0 164 - 0
a B*S*d*2
a d*d*6
f B0 35 end1 86
f B0 35 end1 87
a d*6
f B0 173 - 0
a d*12
f B0 181 - 0
a B*S*d*4
f B0 177 - 0
a d*d*12
f B0 178 - 0
a B*S*d*4
a d*4
a d*4
f F0 23 - 0
f B0 35 end1 84
f B0 35 end1 85
f B0 185 - 0
f B0 189 - 0
a B*S*d*4
f F0 22 - 0
f B0 19 - 0
a S*d*4
a d*P*4
f F0 2 - 0
f B0 200 - 0
a d*V*4
f B0 0 - 0
f B0 197 - 0
f B0 204 - 0
phase O0
a d*V*4
a d*V*4
a d*P*4
a d*P*4
loop L
  a d*4
  a d*4
  a d*4
  a d*4
  a d*d*12
  a d*d*12
  a d*12
  a d*12
  a d*d*4
  a d*d*4
  a d*4
  a d*4
  a d*4
  a d*4
  a d*4
  a d*4
  a d*f*4
  a d*f*4
  a f*4
  a f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
a d*4
a d*4
a d*4
a d*V*4
a d*P*4
loop L
  a d*4
  a d*4
  a d*d*12
  a d*12
  a d*d*4
  a d*4
  a d*4
  a d*4
  a d*f*4
  a f*4
  a d*f*4
  a d*4
end
a d*4
a d*4
f B0 17 - 0
loop L
  f B0 35 rel-1 80 first B0 20 - 0
  f B0 35 rel-1 81 first B0 21 - 0
  f B0 35 rel0 37 last B0 95 - 0
  f B0 35 rel0 39 last B0 99 - 0
  f B0 35 rel0 55 last B0 135 - 0
  f B0 35 rel0 57 last B0 139 - 0
  f B0 35 rel0 59 last B0 142 - 0
  f B0 35 rel0 60 last B0 143 - 0
  f B0 35 rel0 66 last B0 158 - 0
  f B0 35 rel0 67 last B0 160 - 0
  f B0 35 rel0 76 last B0 183 - 0
  f B0 35 rel0 78 last B0 187 - 0
end
f B0 190 - 0
f B0 191 - 0
f B0 201 - 0
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
f F-1 112 - 0
a B*S*d*4
a S*8
a S*8
f F0 2 - 0
a S*d*4
a B*S*d*4
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
a B*S*d*4
f F0 6 - 0
loop L
  a B*S*d*4
  a B*S*4
  a B*S*4
  f F0 26 rel0 1
  f F0 26 rel0 2
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
  f F0 26 rel0 4
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 26 rel0 7
  f F0 26 rel0 8
  f F0 26 rel0 10
  f F0 26 rel0 11
  a d*d*2
  a d*2
  a B*S*d*2
  f F0 26 rel0 9
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 6
  f F0 26 rel0 14
  f F0 26 rel0 15
  a B*S*d*4
  f F0 26 rel0 0
  a B*S*d*4
  a B*S*4
  a B*S*4
  f F0 26 rel0 19
  f F0 26 rel0 20
  a d*f*2
  a B*S*d*2
  a f*2
  a B*S*f*2
  f F0 26 rel0 22
  a B*S*f*2
  a B*S*f*4
  a B*S*f*4
  f F0 26 rel0 26
  a B*S*f*4
  f F0 26 rel0 27
  a B*S*f*4
  f F0 26 rel0 28
  a B*S*f*4
  f F0 26 rel0 29
  a B*S*f*4
  f F0 26 rel0 30
  a B*S*f*4
  f F0 26 rel0 31
  a B*S*f*4
  f F0 26 rel0 24
  f F0 26 rel0 25
  f F0 26 rel0 32
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f F0 26 rel0 33
  f F0 26 rel0 35
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 37
  f F0 26 rel0 38
  a B*S*d*4
  f F0 26 rel0 16
  f F0 26 rel0 17
  f F0 26 rel0 18
  f F0 26 rel0 39
end
a B*S*d*4
a B*S*4
a B*S*4
f F0 1 - 0
f F0 5 - 0
a d*V*2
a B*S*d*2
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
loop L
  f F0 26 rel0 3
  f F0 26 rel0 5
  f F0 26 rel0 12
  f F0 26 rel0 13
  f F0 26 rel0 21
  f F0 26 rel0 23
  f F0 26 rel0 34
  f F0 26 rel0 36
end
f F0 27 - 0
f F0 34 - 0
f F0 35 - 0
f F0 36 - 0
phase B1
a 4
a B*S*V*4
f F0 37 - 0
f F0 40 - 0
a B*S*V*4
f F0 38 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 32 - 0
f F0 33 - 0
f B0 7 - 0
a B*S*d*4
f B0 10 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a d*4
a d*4
f F0 26 end0 40
f F0 28 - 0
f F0 29 - 0
loop L
  f B0 24 rel-1 87 first B0 14 - 0
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  a B*S*4
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 24 rel0 12
  a d*d*2
  a d*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 24 rel0 15
  a B*S*d*4
  f B0 24 rel0 1
  a B*S*d*4
  a B*S*4
  a B*S*4
  a d*f*2
  a B*S*d*2
  a f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 28
  a B*S*f*4
  f B0 24 rel0 29
  a B*S*f*4
  f B0 24 rel0 30
  a B*S*f*4
  f B0 24 rel0 31
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 25
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f B0 24 rel0 34
  a B*S*d
  a B*S*d*2
  f B0 24 rel0 6
  f B0 24 rel0 14
  f B0 24 rel0 17
  f B0 24 rel0 19
  f B0 24 rel0 24
  f B0 24 rel0 37
  f B0 24 rel0 38
  f B0 24 rel0 40
  a B*S*d*2
  f B0 24 rel0 0
  f B0 24 rel0 39
  a B*S*f*2
  a d*f*2
  f B0 24 rel0 35
  f B0 24 rel0 36
  a d*2
  f B0 24 rel0 41
  a d*4
  f B0 24 rel0 44
  a B*S*f*4
  f B0 24 rel0 42
  a d*f*4
  f B0 24 rel0 43
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 26
  f B0 24 rel0 33
  a B*S*f*2
  f B0 24 rel0 46
  f B0 24 rel0 49
  a B*S*f*4
  f B0 24 rel0 32
  f B0 24 rel0 48
  a B*S*f*4
  f B0 24 rel0 51
  a B*S*f*2
  a B*S*f*4
  f B0 24 rel0 52
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 27
  f B0 24 rel0 54
  f B0 24 rel0 55
  f B0 24 rel0 56
  a B*S*f*2
  f B0 24 rel0 57
  f B0 24 rel0 58
  a B*S*f*2
  f B0 24 rel0 50
  f B0 24 rel0 59
  a B*S*d*2
  a d*f*2
  f B0 24 rel0 22
  f B0 24 rel0 23
  a f*2
  f B0 24 rel0 53
  a f*4
  f B0 24 rel0 62
  a B*S*d*4
  f B0 24 rel0 60
  a d*f*4
  f B0 24 rel0 61
  a B*S*d*4
  a d*4
  a d*4
  f B0 24 rel0 18
  f B0 24 rel0 20
  f B0 24 rel0 21
  f B0 24 rel0 64
  f B0 24 rel0 66
  a B*S*d*2
  a B*S*d*2
  f B0 24 rel0 16
  f B0 24 rel0 69
  a B*S*d*2
  a d*d*2
  f B0 24 rel0 13
  a d*2
  f B0 24 rel0 70
  a d*4
  f B0 24 rel0 73
  a d*d*4
  f B0 24 rel0 72
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f B0 24 rel0 7
  f B0 24 rel0 8
  f B0 24 rel0 9
  f B0 24 rel0 10
  f B0 24 rel0 11
  f B0 24 rel0 71
  f B0 24 rel0 79
  a B*S*d*6
  f B0 24 rel0 76
  f B0 24 rel0 77
  f B0 24 rel0 78
  a B*S*d*2
  a d*d*6
  f B0 24 rel0 4
  f B0 24 rel0 5
  a d*6
  f B0 24 rel0 80
  a d*12
  f B0 24 rel0 83
  a B*S*d*4
  f B0 24 rel0 81
  a d*d*12
  f B0 24 rel0 82
  a B*S*d*4
  a d*4
  a d*4
  f F0 26 mir-1 40 last F0 24 - 0
  f B0 24 rel0 2
  f B0 24 rel0 3
  f B0 24 rel0 85
end
f B0 24 end0 87
a B*S*d*4
f F0 23 - 0
f B0 18 - 0
a S*d*4
a d*P*4
f F0 3 - 0
f B0 29 - 0
a d*V*4
f B0 0 - 0
f B0 26 - 0
f B0 33 - 0
phase O1
a d*V*4
a d*P*4
loop L
  a d*4
  a d*4
  a d*d*12
  a d*12
  a d*d*4
  a d*4
  a d*4
  a d*4
  a d*f*4
  a f*4
  a d*f*4
  a d*4
end
a d*4
a d*4
f B0 16 - 0
loop L
  f B0 24 rel-1 88 first B0 19 - 0
  f B0 24 rel-1 89 first B0 20 - 0
  f B0 24 rel0 45
  f B0 24 rel0 47
  f B0 24 rel0 63
  f B0 24 rel0 65
  f B0 24 rel0 67
  f B0 24 rel0 68
  f B0 24 rel0 74
  f B0 24 rel0 75
  f B0 24 rel0 84
  f B0 24 rel0 86
end
f B0 24 end0 88
f B0 24 end0 89
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
f F-1 39 - 0
a B*S*d*4
a S*8
a S*8
f F0 2 - 0
a S*d*4
a B*S*d*4
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
a B*S*d*4
f F0 6 - 0
loop L
  a B*S*d*4
  a B*S*4
  a B*S*4
  f F0 26 rel0 1
  f F0 26 rel0 2
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
  f F0 26 rel0 4
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 26 rel0 7
  f F0 26 rel0 8
  f F0 26 rel0 10
  f F0 26 rel0 11
  a d*d*2
  a d*2
  a B*S*d*2
  f F0 26 rel0 9
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 6
  f F0 26 rel0 14
  f F0 26 rel0 15
  a B*S*d*4
  f F0 26 rel0 0
  a B*S*d*4
  a B*S*4
  a B*S*4
  f F0 26 rel0 19
  f F0 26 rel0 20
  a d*f*2
  a B*S*d*2
  a f*2
  a B*S*f*2
  f F0 26 rel0 22
  a B*S*f*2
  a B*S*f*4
  a B*S*f*4
  f F0 26 rel0 26
  a B*S*f*4
  f F0 26 rel0 27
  a B*S*f*4
  f F0 26 rel0 28
  a B*S*f*4
  f F0 26 rel0 29
  a B*S*f*4
  f F0 26 rel0 30
  a B*S*f*4
  f F0 26 rel0 31
  a B*S*f*4
  f F0 26 rel0 24
  f F0 26 rel0 25
  f F0 26 rel0 32
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f F0 26 rel0 33
  f F0 26 rel0 35
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 37
  f F0 26 rel0 38
  a B*S*d*4
  f F0 26 rel0 16
  f F0 26 rel0 17
  f F0 26 rel0 18
  f F0 26 rel0 39
end
a B*S*d*4
a B*S*4
a B*S*4
f F0 1 - 0
f F0 5 - 0
a d*V*2
a B*S*d*2
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
loop L
  f F0 26 rel0 3
  f F0 26 rel0 5
  f F0 26 rel0 12
  f F0 26 rel0 13
  f F0 26 rel0 21
  f F0 26 rel0 23
  f F0 26 rel0 34
  f F0 26 rel0 36
end
f F0 27 - 0
f F0 34 - 0
f F0 35 - 0
f F0 36 - 0
phase B2
a 4
a B*S*V*4
f F0 37 - 0
f F0 40 - 0
a B*S*V*4
f F0 38 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 32 - 0
f F0 33 - 0
f B0 7 - 0
a B*S*d*4
f B0 10 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a d*4
a d*4
f F0 26 end0 40
f F0 28 - 0
f F0 29 - 0
loop L
  f B0 24 rel-1 87 first B0 14 - 0
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  a B*S*4
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 24 rel0 12
  a d*d*2
  a d*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 24 rel0 15
  a B*S*d*4
  f B0 24 rel0 1
  a B*S*d*4
  a B*S*4
  a B*S*4
  a d*f*2
  a B*S*d*2
  a f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 28
  a B*S*f*4
  f B0 24 rel0 29
  a B*S*f*4
  f B0 24 rel0 30
  a B*S*f*4
  f B0 24 rel0 31
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 25
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f B0 24 rel0 34
  a B*S*d
  a B*S*d*2
  f B0 24 rel0 6
  f B0 24 rel0 14
  f B0 24 rel0 17
  f B0 24 rel0 19
  f B0 24 rel0 24
  f B0 24 rel0 37
  f B0 24 rel0 38
  f B0 24 rel0 40
  a B*S*d*2
  f B0 24 rel0 0
  f B0 24 rel0 39
  a B*S*f*2
  a d*f*2
  f B0 24 rel0 35
  f B0 24 rel0 36
  a d*2
  f B0 24 rel0 41
  a d*4
  f B0 24 rel0 44
  a B*S*f*4
  f B0 24 rel0 42
  a d*f*4
  f B0 24 rel0 43
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 26
  f B0 24 rel0 33
  a B*S*f*2
  f B0 24 rel0 46
  f B0 24 rel0 49
  a B*S*f*4
  f B0 24 rel0 32
  f B0 24 rel0 48
  a B*S*f*4
  f B0 24 rel0 51
  a B*S*f*2
  a B*S*f*4
  f B0 24 rel0 52
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f B0 24 rel0 27
  f B0 24 rel0 54
  f B0 24 rel0 55
  f B0 24 rel0 56
  a B*S*f*2
  f B0 24 rel0 57
  f B0 24 rel0 58
  a B*S*f*2
  f B0 24 rel0 50
  f B0 24 rel0 59
  a B*S*d*2
  a d*f*2
  f B0 24 rel0 22
  f B0 24 rel0 23
  a f*2
  f B0 24 rel0 53
  a f*4
  f B0 24 rel0 62
  a B*S*d*4
  f B0 24 rel0 60
  a d*f*4
  f B0 24 rel0 61
  a B*S*d*4
  a d*4
  a d*4
  f B0 24 rel0 18
  f B0 24 rel0 20
  f B0 24 rel0 21
  f B0 24 rel0 64
  f B0 24 rel0 66
  a B*S*d*2
  a B*S*d*2
  f B0 24 rel0 16
  f B0 24 rel0 69
  a B*S*d*2
  a d*d*2
  f B0 24 rel0 13
  a d*2
  f B0 24 rel0 70
  a d*4
  f B0 24 rel0 73
  a d*d*4
  f B0 24 rel0 72
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f B0 24 rel0 7
  f B0 24 rel0 8
  f B0 24 rel0 9
  f B0 24 rel0 10
  f B0 24 rel0 11
  f B0 24 rel0 71
  f B0 24 rel0 79
  a B*S*d*6
  f B0 24 rel0 76
  f B0 24 rel0 77
  f B0 24 rel0 78
  a B*S*d*2
  a d*d*6
  f B0 24 rel0 4
  f B0 24 rel0 5
  a d*6
  f B0 24 rel0 80
  a d*12
  f B0 24 rel0 83
  a B*S*d*4
  f B0 24 rel0 81
  a d*d*12
  f B0 24 rel0 82
  a B*S*d*4
  a d*4
  a d*4
  f F0 26 mir-1 40 last F0 24 - 0
  f B0 24 rel0 2
  f B0 24 rel0 3
  f B0 24 rel0 85
end
f B0 24 end0 87
a B*S*d*4
f F0 23 - 0
f B0 18 - 0
a S*d*4
a d*P*4
f F0 3 - 0
f B0 29 - 0
a d*V*4
f B0 0 - 0
f B0 26 - 0
f B0 33 - 0
phase O2
a d*V*4
a d*P*4
loop L
  a d*4
  a d*4
  a d*d*12
  a d*12
  a d*d*4
  a d*4
  a d*4
  a d*4
  a d*f*4
  a f*4
  a d*f*4
  a d*4
end
a d*4
a d*4
f B0 16 - 0
loop L
  f B0 24 rel-1 88 first B0 19 - 0
  f B0 24 rel-1 89 first B0 20 - 0
  f B0 24 rel0 45
  f B0 24 rel0 47
  f B0 24 rel0 63
  f B0 24 rel0 65
  f B0 24 rel0 67
  f B0 24 rel0 68
  f B0 24 rel0 74
  f B0 24 rel0 75
  f B0 24 rel0 84
  f B0 24 rel0 86
end
f B0 24 end0 88
f B0 24 end0 89
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
