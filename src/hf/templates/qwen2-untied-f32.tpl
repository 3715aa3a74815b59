# qwen2-untied-f32: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates-untied/hf-memory (shapes a and c), torch 2.11.0+cu130, transformers 5.17.0
template qwen2-untied f32 no-ckpt
phase build
a 4
a d*V*4
loop L
  a d*d*4
  a d*4
  a d*kv*4
  a kv*4
  a d*kv*4
  a kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
a 128
a 128
f build 4 - 0
a 128
a 8
f build 5 - 0
f build 8 - 0
a 128
a 128
f build 7 - 0
f build 11 - 0
a 128
a 128
a 128
f build 16 - 0
a 128
a 8
f build 17 - 0
f build 20 - 0
a 128
a 128
f build 19 - 0
f build 23 - 0
f build 24 - 0
a d*V*4
a B*S*8
phase F0
a B*S*d*4
a S*8
a S*8
f F0 1 - 0
a B*8
a B*8+B*S*8
a B*S*8
f F0 5 - 0
a B*S
a B*S*8
a B*S*8
f F0 8 - 0
f F0 10 - 0
a B
a 1
f F0 4 - 0
f F0 6 - 0
f F0 9 - 0
f F0 13 - 0
f F0 14 - 0
a S*4
a S*hd*2
a S*hd*4
a S*hd*4
a S*hd*4
f F0 23 - 0
a S*hd*4
a S*hd*4
f F0 20 - 0
f F0 21 - 0
f F0 22 - 0
f F0 26 - 0
a B*S*d*4
a B*S*4
f F0 32 - 0
a B*S*4
a B*S*4
f F0 35 - 0
a B*S*d*4
a B*S*d*4
f F0 33 - 0
a B*S*d*4
a 1048576
loop L-1
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f F0 43 rel0 3
  a B*S*d*4
  f F0 43 rel0 4
  a B*S*d*4
  f F0 43 rel0 2
  f F0 43 rel0 5
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f F0 43 rel0 8
  a B*S*kv*4
  f F0 43 rel0 9
  a B*S*kv*4
  f F0 43 rel-1 49 first F0 41 - 0
  f F0 43 rel0 0
  f F0 43 rel0 7
  f F0 43 rel0 10
  a B*S*d*4
  a S*S
  a S*S
  f F0 43 rel0 13
  a 4
  a 4
  a S*S*4
  f F0 43 rel0 14
  f F0 43 rel0 15
  f F0 43 rel0 16
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f F0 43 rel0 22
  f F0 43 rel0 24
  f F0 43 rel0 25
  f F0 43 rel0 26
  a B*S*d*4
  f F0 43 rel0 12
  f F0 43 rel0 17
  f F0 43 rel0 18
  a B*S*d*4
  f F0 43 rel0 27
  a B*S*d*4
  f F0 43 rel0 1
  f F0 43 rel0 6
  f F0 43 rel0 11
  a B*S*d*4
  f F0 43 rel0 29
  a B*S*d*4
  a B*S*4
  f F0 43 rel0 31
  a B*S*4
  a B*S*4
  f F0 43 rel0 33
  a B*S*d*4
  a B*S*d*4
  f F0 43 rel0 32
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*d*4
  a B*S*d*4
  f F0 43 rel0 41
  a B*S*d*4
  a B*S*4
  f F0 43 rel0 43
  a B*S*4
  a B*S*4
  f F0 43 rel0 45
  a B*S*d*4
  a B*S*d*4
  f F0 43 rel0 44
  a B*S*d*4
end
a B*S*kv*4
a B*S*kv*4
a B*S*d*4
a B*S*d*2
a B*S*d*4
f F0 47 - 0
a B*S*d*4
f F0 48 - 0
a B*S*d*4
f F0 46 - 0
f F0 50 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f F0 56 - 0
a B*S*kv*4
f F0 57 - 0
a B*S*kv*4
f F0 43 end1 49
f F0 44 - 0
f F0 55 - 0
f F0 59 - 0
a B*S*d*4
a S*S
a S*S
f F0 67 - 0
a 4
a 4
a S*S*4
f F0 68 - 0
f F0 70 - 0
f F0 71 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
a B*S*d*4
a B*S*S*H*4
a B*S*S*H*4
a B*S*S*H
a B*S*H
a 4
f F0 80 - 0
f F0 82 - 0
f F0 83 - 0
f F0 84 - 0
a B*S*d*4
f F0 66 - 0
f F0 72 - 0
f F0 76 - 0
a B*S*d*4
f F0 89 - 0
a B*S*d*4
f F0 45 - 0
f F0 52 - 0
f F0 61 - 0
a B*S*d*4
f F0 95 - 0
a B*S*d*4
a B*S*4
f F0 101 - 0
a B*S*4
a B*S*4
f F0 104 - 0
a B*S*d*4
a B*S*d*4
f F0 102 - 0
a B*S*f*4
a B*S*f*4
a B*S*f*4
a B*S*f*4
a B*S*d*4
a B*S*d*4
f F0 114 - 0
a B*S*d*4
a B*S*4
f F0 117 - 0
a B*S*4
a B*S*4
f F0 120 - 0
a B*S*d*4
a B*S*d*4
f F0 2 - 0
f F0 118 - 0
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 127 - 0
f F0 128 - 0
phase B0
a 4
a B*S*V*4
f F0 129 - 0
f F0 132 - 0
a B*S*V*4
f F0 130 - 0
f B0 1 - 0
a d*V*4
a 33554432
a B*S*d*4
f F0 124 - 0
f B0 4 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 123 - 0
f B0 9 - 0
f B0 13 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
loop L-1
  f B0 21 rel-1 69 first B0 12 - 0
  f B0 21 rel-1 70 first B0 18 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 43 rel1 46 first F0 121 - 0 last F0 43 mir0 46
  f B0 21 rel-1 71 first B0 20 - 0
  f B0 21 rel0 0
  f B0 21 rel0 1
  a B*S*d*4
  f B0 21 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 43 rel1 42 first F0 115 - 0 last F0 43 mir0 42
  f B0 21 rel0 3
  f B0 21 rel0 4
  f B0 21 rel0 5
  f B0 21 rel0 6
  a d*f*4
  a B*S*f*4
  f F0 43 rel1 40 first F0 113 - 0 last F0 43 mir0 40
  a B*S*f*4
  a B*S*f*4
  f F0 43 rel1 38 first F0 111 - 0 last F0 43 mir0 38
  f F0 43 rel1 39 first F0 112 - 0 last F0 43 mir0 39
  f B0 21 rel0 8
  a d*f*4
  a B*S*d*4
  f B0 21 rel0 9
  a B*S*f*4
  f F0 43 rel1 37 first F0 110 - 0 last F0 43 mir0 37
  f B0 21 rel0 10
  a d*f*4
  a B*S*d*4
  f F0 43 rel1 36 first F0 108 - 0 last F0 43 mir0 36
  f B0 21 rel0 13
  a B*S*d*4
  f B0 21 rel0 12
  f B0 21 rel0 15
  a B*S*d*4
  a B*S*d*4
  a d*4
  f F0 43 rel1 35 first F0 107 - 0 last F0 43 mir0 35
  f B0 21 rel0 16
  f B0 21 rel0 18
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 21 rel0 17
  f B0 21 rel0 20
  f B0 21 rel0 21
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 43 rel1 34 first F0 105 - 0 last F0 43 mir0 34
  f B0 21 rel0 22
  f B0 21 rel0 23
  f B0 21 rel0 24
  a B*S*d*4
  f B0 21 rel0 25
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 43 rel1 30 first F0 99 - 0 last F0 43 mir0 30
  f B0 21 rel0 26
  f B0 21 rel0 27
  f B0 21 rel0 28
  f B0 21 rel0 29
  a d*d*4
  a B*S*d*4
  f F0 43 rel1 28 first F0 93 - 0 last F0 43 mir0 28
  a B*S*d*4
  f B0 21 rel0 31
  a B*S*d*4
  a B*S*S*H*4
  f F0 43 rel1 19 first F0 77 - 0 last F0 43 mir0 19
  f B0 21 rel0 32
  a B*S*S*H*4
  a B*S*S*H*4
  f F0 43 rel1 23 first F0 81 - 0 last F0 43 mir0 23
  f B0 21 rel0 34
  f B0 21 rel0 36
  a B*S*d*4
  a B*S*d*4
  f F0 43 rel1 20 first F0 78 - 0 last F0 43 mir0 20
  f F0 43 rel1 21 first F0 79 - 0 last F0 43 mir0 21
  f B0 21 rel0 35
  a B*S*d*4
  f B0 21 rel0 37
  a B*S*kv*4
  f B0 21 rel0 33
  a B*S*kv*4
  f B0 21 rel0 39
  a B*S*d*4
  f B0 21 rel0 38
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 21 rel0 44
  a B*S*kv*4
  f B0 21 rel0 43
  f B0 21 rel0 46
  a B*S*kv*4
  f B0 21 rel0 41
  f B0 21 rel0 47
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 21 rel0 49
  a B*S*d*4
  f B0 21 rel0 48
  f B0 21 rel0 51
  a B*S*d*4
  f B0 21 rel0 42
  f B0 21 rel0 52
  a B*S*kv*4
  f B0 21 rel0 40
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 21 rel0 53
  a B*S*kv*4
  f B0 21 rel0 45
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 21 rel0 57
  a B*S*d*4
  f B0 21 rel0 54
  f B0 21 rel0 58
  a B*S*d*4
  f B0 21 rel0 50
  a B*S*d*4
  a d*d*4
  a d*4
  f F0 43 mir-1 48
  f B0 21 rel0 62
  f B0 21 rel0 63
  a B*S*d*4
  a B*S*d*4
  a d*4
  f F0 43 mir-1 47
  f B0 21 rel0 61
  f B0 21 rel0 67
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 21 rel0 66
end
f B0 21 end1 69
f B0 21 end1 70
a B*S*4
a B*S*4
a B*S*4
f F0 43 abs0 46
f B0 21 end1 71
f B0 24 - 0
f B0 25 - 0
a B*S*d*4
f B0 26 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 43 abs0 42
f B0 31 - 0
f B0 33 - 0
f B0 34 - 0
f B0 35 - 0
a d*f*4
a B*S*f*4
f F0 43 abs0 40
a B*S*f*4
a B*S*f*4
f F0 43 abs0 38
f F0 43 abs0 39
f B0 42 - 0
a d*f*4
a B*S*d*4
f B0 44 - 0
a B*S*f*4
f F0 43 abs0 37
f B0 45 - 0
a d*f*4
a B*S*d*4
f F0 43 abs0 36
f B0 52 - 0
a B*S*d*4
f B0 50 - 0
f B0 56 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 43 abs0 35
f B0 59 - 0
f B0 63 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 62 - 0
f B0 68 - 0
f B0 69 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 43 abs0 34
f B0 70 - 0
f B0 74 - 0
f B0 75 - 0
a B*S*d*4
f B0 76 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 43 abs0 30
f B0 81 - 0
f B0 83 - 0
f B0 84 - 0
f B0 85 - 0
a d*d*4
a B*S*d*4
f F0 43 abs0 28
a B*S*d*4
f B0 92 - 0
a B*S*d*4
a B*S*S*H*4
f F0 43 abs0 19
f B0 94 - 0
a B*S*S*H*4
a B*S*S*H*4
f F0 43 abs0 23
f B0 97 - 0
f B0 101 - 0
a B*S*d*4
a B*S*d*4
f F0 43 abs0 20
f F0 43 abs0 21
f B0 100 - 0
a B*S*d*4
f B0 105 - 0
a B*S*kv*4
f B0 96 - 0
a B*S*kv*4
f B0 110 - 0
a B*S*d*4
f B0 106 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f B0 119 - 0
a B*S*kv*4
f B0 118 - 0
f B0 122 - 0
a B*S*kv*4
f B0 114 - 0
f B0 125 - 0
a B*S*d*4
f F0 27 - 0
a B*S*d*2
a B*S*d*4
f B0 130 - 0
a B*S*d*4
f B0 128 - 0
f B0 133 - 0
a B*S*d*4
f F0 24 - 0
f B0 116 - 0
f B0 136 - 0
a B*S*kv*4
f B0 112 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 140 - 0
a B*S*kv*4
f B0 120 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 146 - 0
a B*S*d*4
f B0 142 - 0
f B0 148 - 0
a B*S*d*4
f B0 131 - 0
a B*S*d*4
a d*d*4
a d*4
f F0 39 - 0
f B0 155 - 0
f B0 157 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 38 - 0
f B0 152 - 0
f B0 164 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 163 - 0
f B0 169 - 0
f B0 170 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 36 - 0
f B0 171 - 0
f B0 175 - 0
f B0 176 - 0
a B*S*d*4
f B0 177 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 0 - 0
f B0 182 - 0
f B0 184 - 0
f B0 185 - 0
f B0 186 - 0
a d*V*4
f B0 0 - 0
f B0 19 - 0
phase O0
a d*V*4
a d*V*4
loop L
  a d*d*4
  a d*d*4
  a d*4
  a d*4
  a d*kv*4
  a d*kv*4
  a kv*4
  a kv*4
  a d*kv*4
  a d*kv*4
  a kv*4
  a kv*4
  a d*d*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
  a d*4
  a d*4
end
a d*4
a d*4
a d*V*4
a d*V*4
a d*V*4
loop L
  a d*d*4
  a d*4
  a d*kv*4
  a kv*4
  a d*kv*4
  a kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
a d*V*4
f B0 7 - 0
loop L
  f B0 21 rel-1 68 first B0 14 - 0
  f B0 21 rel0 7 last B0 41 - 0
  f B0 21 rel0 11 last B0 49 - 0
  f B0 21 rel0 14 last B0 55 - 0
  f B0 21 rel0 19 last B0 64 - 0
  f B0 21 rel0 30 last B0 91 - 0
  f B0 21 rel0 55 last B0 143 - 0
  f B0 21 rel0 56 last B0 144 - 0
  f B0 21 rel0 59 last B0 149 - 0
  f B0 21 rel0 60 last B0 150 - 0
  f B0 21 rel0 64 last B0 158 - 0
  f B0 21 rel0 65 last B0 159 - 0
end
f B0 165 - 0
f B0 192 - 0
f O0 7 - 0
loop L
  f O0 8 rel0 0
  f O0 8 rel0 1
  f O0 8 rel0 2
  f O0 8 rel0 3
  f O0 8 rel0 4
  f O0 8 rel0 5
  f O0 8 rel0 6
  f O0 8 rel0 7
  f O0 8 rel0 8
  f O0 8 rel0 9
  f O0 8 rel0 10
  f O0 8 rel0 11
end
f O0 9 - 0
f O0 10 - 0
phase F1
f F-1 131 - 0
a B*S*d*4
a S*8
a S*8
f F0 2 - 0
a B*8
a B*8+B*S*8
a B*S*8
f F0 6 - 0
a B*S
a B*S*8
a B*S*8
f F0 9 - 0
f F0 11 - 0
a B
a 1
f F0 5 - 0
f F0 7 - 0
f F0 10 - 0
f F0 14 - 0
f F0 15 - 0
a S*4
a S*hd*2
a S*hd*4
a S*hd*4
a S*hd*4
f F0 24 - 0
a S*hd*4
a S*hd*4
f F0 21 - 0
f F0 22 - 0
f F0 23 - 0
f F0 27 - 0
loop L
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 0
  a B*S*4
  a B*S*4
  f F0 33 rel0 2
  a B*S*d*4
  a B*S*d*4
  f F0 33 rel0 1
  a B*S*d*4
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f F0 33 rel0 10
  a B*S*d*4
  f F0 33 rel0 11
  a B*S*d*4
  f F0 33 rel0 9
  f F0 33 rel0 12
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f F0 33 rel0 15
  a B*S*kv*4
  f F0 33 rel0 16
  a B*S*kv*4
  f F0 33 rel0 6
  f F0 33 rel0 7
  f F0 33 rel0 14
  f F0 33 rel0 17
  a B*S*d*4
  a S*S
  a S*S
  f F0 33 rel0 20
  a 4
  a 4
  a S*S*4
  f F0 33 rel0 21
  f F0 33 rel0 22
  f F0 33 rel0 23
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f F0 33 rel0 29
  f F0 33 rel0 31
  f F0 33 rel0 32
  f F0 33 rel0 33
  a B*S*d*4
  f F0 33 rel0 19
  f F0 33 rel0 24
  f F0 33 rel0 25
  a B*S*d*4
  f F0 33 rel0 34
  a B*S*d*4
  f F0 33 rel0 8
  f F0 33 rel0 13
  f F0 33 rel0 18
  a B*S*d*4
  f F0 33 rel0 36
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 38
  a B*S*4
  a B*S*4
  f F0 33 rel0 40
  a B*S*d*4
  a B*S*d*4
  f F0 33 rel0 39
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 rel0 48
end
a B*S*d*4
a B*S*4
f F0 34 - 0
a B*S*4
a B*S*4
f F0 37 - 0
a B*S*d*4
a B*S*d*4
f F0 3 - 0
f F0 35 - 0
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 44 - 0
f F0 45 - 0
phase B1
a 4
a B*S*V*4
f F0 46 - 0
f F0 49 - 0
a B*S*V*4
f F0 47 - 0
f B0 1 - 0
a d*V*4
a B*S*d*4
f F0 41 - 0
f B0 4 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 40 - 0
f B0 8 - 0
f B0 12 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
loop L-1
  f B0 20 rel-1 69 first B0 11 - 0
  f B0 20 rel-1 70 first B0 17 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 33 rel2 3 first F0 38 - 0 last F0 33 mir1 3
  f B0 20 rel-1 71 first B0 19 - 0
  f B0 20 rel0 0
  f B0 20 rel0 1
  a B*S*d*4
  f B0 20 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 49
  f B0 20 rel0 3
  f B0 20 rel0 4
  f B0 20 rel0 5
  f B0 20 rel0 6
  a d*f*4
  a B*S*f*4
  f F0 33 mir0 47
  a B*S*f*4
  a B*S*f*4
  f F0 33 mir0 45
  f F0 33 mir0 46
  f B0 20 rel0 8
  a d*f*4
  a B*S*d*4
  f B0 20 rel0 9
  a B*S*f*4
  f F0 33 mir0 44
  f B0 20 rel0 10
  a d*f*4
  a B*S*d*4
  f F0 33 mir0 43
  f B0 20 rel0 13
  a B*S*d*4
  f B0 20 rel0 12
  f B0 20 rel0 15
  a B*S*d*4
  a B*S*d*4
  a d*4
  f F0 33 mir0 42
  f B0 20 rel0 16
  f B0 20 rel0 18
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 17
  f B0 20 rel0 20
  f B0 20 rel0 21
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 33 mir0 41
  f B0 20 rel0 22
  f B0 20 rel0 23
  f B0 20 rel0 24
  a B*S*d*4
  f B0 20 rel0 25
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 37
  f B0 20 rel0 26
  f B0 20 rel0 27
  f B0 20 rel0 28
  f B0 20 rel0 29
  a d*d*4
  a B*S*d*4
  f F0 33 mir0 35
  a B*S*d*4
  f B0 20 rel0 31
  a B*S*d*4
  a B*S*S*H*4
  f F0 33 mir0 26
  f B0 20 rel0 32
  a B*S*S*H*4
  a B*S*S*H*4
  f F0 33 mir0 30
  f B0 20 rel0 34
  f B0 20 rel0 36
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 27
  f F0 33 mir0 28
  f B0 20 rel0 35
  a B*S*d*4
  f B0 20 rel0 37
  a B*S*kv*4
  f B0 20 rel0 33
  a B*S*kv*4
  f B0 20 rel0 39
  a B*S*d*4
  f B0 20 rel0 38
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 20 rel0 44
  a B*S*kv*4
  f B0 20 rel0 43
  f B0 20 rel0 46
  a B*S*kv*4
  f B0 20 rel0 41
  f B0 20 rel0 47
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 20 rel0 49
  a B*S*d*4
  f B0 20 rel0 48
  f B0 20 rel0 51
  a B*S*d*4
  f B0 20 rel0 42
  f B0 20 rel0 52
  a B*S*kv*4
  f B0 20 rel0 40
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 53
  a B*S*kv*4
  f B0 20 rel0 45
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 57
  a B*S*d*4
  f B0 20 rel0 54
  f B0 20 rel0 58
  a B*S*d*4
  f B0 20 rel0 50
  a B*S*d*4
  a d*d*4
  a d*4
  f F0 33 mir0 5
  f B0 20 rel0 62
  f B0 20 rel0 63
  a B*S*d*4
  a B*S*d*4
  a d*4
  f F0 33 mir0 4
  f B0 20 rel0 61
  f B0 20 rel0 67
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 66
end
f B0 20 end1 69
f B0 20 end1 70
a B*S*4
a B*S*4
a B*S*4
f F0 33 abs1 3
f B0 20 end1 71
f B0 23 - 0
f B0 24 - 0
a B*S*d*4
f B0 25 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 33 abs0 49
f B0 30 - 0
f B0 32 - 0
f B0 33 - 0
f B0 34 - 0
a d*f*4
a B*S*f*4
f F0 33 abs0 47
a B*S*f*4
a B*S*f*4
f F0 33 abs0 45
f F0 33 abs0 46
f B0 41 - 0
a d*f*4
a B*S*d*4
f B0 43 - 0
a B*S*f*4
f F0 33 abs0 44
f B0 44 - 0
a d*f*4
a B*S*d*4
f F0 33 abs0 43
f B0 51 - 0
a B*S*d*4
f B0 49 - 0
f B0 55 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 33 abs0 42
f B0 58 - 0
f B0 62 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 61 - 0
f B0 67 - 0
f B0 68 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 33 abs0 41
f B0 69 - 0
f B0 73 - 0
f B0 74 - 0
a B*S*d*4
f B0 75 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 33 abs0 37
f B0 80 - 0
f B0 82 - 0
f B0 83 - 0
f B0 84 - 0
a d*d*4
a B*S*d*4
f F0 33 abs0 35
a B*S*d*4
f B0 91 - 0
a B*S*d*4
a B*S*S*H*4
f F0 33 abs0 26
f B0 93 - 0
a B*S*S*H*4
a B*S*S*H*4
f F0 33 abs0 30
f B0 96 - 0
f B0 100 - 0
a B*S*d*4
a B*S*d*4
f F0 33 abs0 27
f F0 33 abs0 28
f B0 99 - 0
a B*S*d*4
f B0 104 - 0
a B*S*kv*4
f B0 95 - 0
a B*S*kv*4
f B0 109 - 0
a B*S*d*4
f B0 105 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f B0 118 - 0
a B*S*kv*4
f B0 117 - 0
f B0 121 - 0
a B*S*kv*4
f B0 113 - 0
f B0 124 - 0
a B*S*d*4
f F0 28 - 0
a B*S*d*2
a B*S*d*4
f B0 129 - 0
a B*S*d*4
f B0 127 - 0
f B0 132 - 0
a B*S*d*4
f F0 25 - 0
f B0 115 - 0
f B0 135 - 0
a B*S*kv*4
f B0 111 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 139 - 0
a B*S*kv*4
f B0 119 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 145 - 0
a B*S*d*4
f B0 141 - 0
f B0 147 - 0
a B*S*d*4
f B0 130 - 0
a B*S*d*4
a d*d*4
a d*4
f F0 33 abs0 5
f B0 154 - 0
f B0 156 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 33 abs0 4
f B0 151 - 0
f B0 163 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 162 - 0
f B0 168 - 0
f B0 169 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 33 abs0 3
f B0 170 - 0
f B0 174 - 0
f B0 175 - 0
a B*S*d*4
f B0 176 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f B0 181 - 0
f B0 183 - 0
f B0 184 - 0
f B0 185 - 0
a d*V*4
f B0 0 - 0
f B0 18 - 0
phase O1
a d*V*4
loop L
  a d*d*4
  a d*4
  a d*kv*4
  a kv*4
  a d*kv*4
  a kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
a d*V*4
f B0 7 - 0
loop L
  f B0 20 rel-1 68 first B0 13 - 0
  f B0 20 rel0 7 last B0 40 - 0
  f B0 20 rel0 11 last B0 48 - 0
  f B0 20 rel0 14 last B0 54 - 0
  f B0 20 rel0 19 last B0 63 - 0
  f B0 20 rel0 30 last B0 90 - 0
  f B0 20 rel0 55 last B0 142 - 0
  f B0 20 rel0 56 last B0 143 - 0
  f B0 20 rel0 59 last B0 148 - 0
  f B0 20 rel0 60 last B0 149 - 0
  f B0 20 rel0 64 last B0 157 - 0
  f B0 20 rel0 65 last B0 158 - 0
end
f B0 164 - 0
f B0 191 - 0
f O0 0 - 0
loop L
  f O0 1 rel0 0
  f O0 1 rel0 1
  f O0 1 rel0 2
  f O0 1 rel0 3
  f O0 1 rel0 4
  f O0 1 rel0 5
  f O0 1 rel0 6
  f O0 1 rel0 7
  f O0 1 rel0 8
  f O0 1 rel0 9
  f O0 1 rel0 10
  f O0 1 rel0 11
end
f O0 2 - 0
f O0 3 - 0
phase F2
f F-1 48 - 0
a B*S*d*4
a S*8
a S*8
f F0 2 - 0
a B*8
a B*8+B*S*8
a B*S*8
f F0 6 - 0
a B*S
a B*S*8
a B*S*8
f F0 9 - 0
f F0 11 - 0
a B
a 1
f F0 5 - 0
f F0 7 - 0
f F0 10 - 0
f F0 14 - 0
f F0 15 - 0
a S*4
a S*hd*2
a S*hd*4
a S*hd*4
a S*hd*4
f F0 24 - 0
a S*hd*4
a S*hd*4
f F0 21 - 0
f F0 22 - 0
f F0 23 - 0
f F0 27 - 0
loop L
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 0
  a B*S*4
  a B*S*4
  f F0 33 rel0 2
  a B*S*d*4
  a B*S*d*4
  f F0 33 rel0 1
  a B*S*d*4
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f F0 33 rel0 10
  a B*S*d*4
  f F0 33 rel0 11
  a B*S*d*4
  f F0 33 rel0 9
  f F0 33 rel0 12
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f F0 33 rel0 15
  a B*S*kv*4
  f F0 33 rel0 16
  a B*S*kv*4
  f F0 33 rel0 6
  f F0 33 rel0 7
  f F0 33 rel0 14
  f F0 33 rel0 17
  a B*S*d*4
  a S*S
  a S*S
  f F0 33 rel0 20
  a 4
  a 4
  a S*S*4
  f F0 33 rel0 21
  f F0 33 rel0 22
  f F0 33 rel0 23
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f F0 33 rel0 29
  f F0 33 rel0 31
  f F0 33 rel0 32
  f F0 33 rel0 33
  a B*S*d*4
  f F0 33 rel0 19
  f F0 33 rel0 24
  f F0 33 rel0 25
  a B*S*d*4
  f F0 33 rel0 34
  a B*S*d*4
  f F0 33 rel0 8
  f F0 33 rel0 13
  f F0 33 rel0 18
  a B*S*d*4
  f F0 33 rel0 36
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 38
  a B*S*4
  a B*S*4
  f F0 33 rel0 40
  a B*S*d*4
  a B*S*d*4
  f F0 33 rel0 39
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 rel0 48
end
a B*S*d*4
a B*S*4
f F0 34 - 0
a B*S*4
a B*S*4
f F0 37 - 0
a B*S*d*4
a B*S*d*4
f F0 3 - 0
f F0 35 - 0
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 44 - 0
f F0 45 - 0
phase B2
a 4
a B*S*V*4
f F0 46 - 0
f F0 49 - 0
a B*S*V*4
f F0 47 - 0
f B0 1 - 0
a d*V*4
a B*S*d*4
f F0 41 - 0
f B0 4 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 40 - 0
f B0 8 - 0
f B0 12 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
loop L-1
  f B0 20 rel-1 69 first B0 11 - 0
  f B0 20 rel-1 70 first B0 17 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 33 rel2 3 first F0 38 - 0 last F0 33 mir1 3
  f B0 20 rel-1 71 first B0 19 - 0
  f B0 20 rel0 0
  f B0 20 rel0 1
  a B*S*d*4
  f B0 20 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 49
  f B0 20 rel0 3
  f B0 20 rel0 4
  f B0 20 rel0 5
  f B0 20 rel0 6
  a d*f*4
  a B*S*f*4
  f F0 33 mir0 47
  a B*S*f*4
  a B*S*f*4
  f F0 33 mir0 45
  f F0 33 mir0 46
  f B0 20 rel0 8
  a d*f*4
  a B*S*d*4
  f B0 20 rel0 9
  a B*S*f*4
  f F0 33 mir0 44
  f B0 20 rel0 10
  a d*f*4
  a B*S*d*4
  f F0 33 mir0 43
  f B0 20 rel0 13
  a B*S*d*4
  f B0 20 rel0 12
  f B0 20 rel0 15
  a B*S*d*4
  a B*S*d*4
  a d*4
  f F0 33 mir0 42
  f B0 20 rel0 16
  f B0 20 rel0 18
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 17
  f B0 20 rel0 20
  f B0 20 rel0 21
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 33 mir0 41
  f B0 20 rel0 22
  f B0 20 rel0 23
  f B0 20 rel0 24
  a B*S*d*4
  f B0 20 rel0 25
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 37
  f B0 20 rel0 26
  f B0 20 rel0 27
  f B0 20 rel0 28
  f B0 20 rel0 29
  a d*d*4
  a B*S*d*4
  f F0 33 mir0 35
  a B*S*d*4
  f B0 20 rel0 31
  a B*S*d*4
  a B*S*S*H*4
  f F0 33 mir0 26
  f B0 20 rel0 32
  a B*S*S*H*4
  a B*S*S*H*4
  f F0 33 mir0 30
  f B0 20 rel0 34
  f B0 20 rel0 36
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 27
  f F0 33 mir0 28
  f B0 20 rel0 35
  a B*S*d*4
  f B0 20 rel0 37
  a B*S*kv*4
  f B0 20 rel0 33
  a B*S*kv*4
  f B0 20 rel0 39
  a B*S*d*4
  f B0 20 rel0 38
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 20 rel0 44
  a B*S*kv*4
  f B0 20 rel0 43
  f B0 20 rel0 46
  a B*S*kv*4
  f B0 20 rel0 41
  f B0 20 rel0 47
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 20 rel0 49
  a B*S*d*4
  f B0 20 rel0 48
  f B0 20 rel0 51
  a B*S*d*4
  f B0 20 rel0 42
  f B0 20 rel0 52
  a B*S*kv*4
  f B0 20 rel0 40
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 53
  a B*S*kv*4
  f B0 20 rel0 45
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 57
  a B*S*d*4
  f B0 20 rel0 54
  f B0 20 rel0 58
  a B*S*d*4
  f B0 20 rel0 50
  a B*S*d*4
  a d*d*4
  a d*4
  f F0 33 mir0 5
  f B0 20 rel0 62
  f B0 20 rel0 63
  a B*S*d*4
  a B*S*d*4
  a d*4
  f F0 33 mir0 4
  f B0 20 rel0 61
  f B0 20 rel0 67
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 66
end
f B0 20 end1 69
f B0 20 end1 70
a B*S*4
a B*S*4
a B*S*4
f F0 33 abs1 3
f B0 20 end1 71
f B0 23 - 0
f B0 24 - 0
a B*S*d*4
f B0 25 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 33 abs0 49
f B0 30 - 0
f B0 32 - 0
f B0 33 - 0
f B0 34 - 0
a d*f*4
a B*S*f*4
f F0 33 abs0 47
a B*S*f*4
a B*S*f*4
f F0 33 abs0 45
f F0 33 abs0 46
f B0 41 - 0
a d*f*4
a B*S*d*4
f B0 43 - 0
a B*S*f*4
f F0 33 abs0 44
f B0 44 - 0
a d*f*4
a B*S*d*4
f F0 33 abs0 43
f B0 51 - 0
a B*S*d*4
f B0 49 - 0
f B0 55 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 33 abs0 42
f B0 58 - 0
f B0 62 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 61 - 0
f B0 67 - 0
f B0 68 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 33 abs0 41
f B0 69 - 0
f B0 73 - 0
f B0 74 - 0
a B*S*d*4
f B0 75 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 33 abs0 37
f B0 80 - 0
f B0 82 - 0
f B0 83 - 0
f B0 84 - 0
a d*d*4
a B*S*d*4
f F0 33 abs0 35
a B*S*d*4
f B0 91 - 0
a B*S*d*4
a B*S*S*H*4
f F0 33 abs0 26
f B0 93 - 0
a B*S*S*H*4
a B*S*S*H*4
f F0 33 abs0 30
f B0 96 - 0
f B0 100 - 0
a B*S*d*4
a B*S*d*4
f F0 33 abs0 27
f F0 33 abs0 28
f B0 99 - 0
a B*S*d*4
f B0 104 - 0
a B*S*kv*4
f B0 95 - 0
a B*S*kv*4
f B0 109 - 0
a B*S*d*4
f B0 105 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f B0 118 - 0
a B*S*kv*4
f B0 117 - 0
f B0 121 - 0
a B*S*kv*4
f B0 113 - 0
f B0 124 - 0
a B*S*d*4
f F0 28 - 0
a B*S*d*2
a B*S*d*4
f B0 129 - 0
a B*S*d*4
f B0 127 - 0
f B0 132 - 0
a B*S*d*4
f F0 25 - 0
f B0 115 - 0
f B0 135 - 0
a B*S*kv*4
f B0 111 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 139 - 0
a B*S*kv*4
f B0 119 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 145 - 0
a B*S*d*4
f B0 141 - 0
f B0 147 - 0
a B*S*d*4
f B0 130 - 0
a B*S*d*4
a d*d*4
a d*4
f F0 33 abs0 5
f B0 154 - 0
f B0 156 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 33 abs0 4
f B0 151 - 0
f B0 163 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 162 - 0
f B0 168 - 0
f B0 169 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 33 abs0 3
f B0 170 - 0
f B0 174 - 0
f B0 175 - 0
a B*S*d*4
f B0 176 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f B0 181 - 0
f B0 183 - 0
f B0 184 - 0
f B0 185 - 0
a d*V*4
f B0 0 - 0
f B0 18 - 0
phase O2
a d*V*4
loop L
  a d*d*4
  a d*4
  a d*kv*4
  a kv*4
  a d*kv*4
  a kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
a d*V*4
f B0 7 - 0
loop L
  f B0 20 rel-1 68 first B0 13 - 0
  f B0 20 rel0 7 last B0 40 - 0
  f B0 20 rel0 11 last B0 48 - 0
  f B0 20 rel0 14 last B0 54 - 0
  f B0 20 rel0 19 last B0 63 - 0
  f B0 20 rel0 30 last B0 90 - 0
  f B0 20 rel0 55 last B0 142 - 0
  f B0 20 rel0 56 last B0 143 - 0
  f B0 20 rel0 59 last B0 148 - 0
  f B0 20 rel0 60 last B0 149 - 0
  f B0 20 rel0 64 last B0 157 - 0
  f B0 20 rel0 65 last B0 158 - 0
end
f B0 164 - 0
f B0 191 - 0
f O0 0 - 0
loop L
  f O0 1 rel0 0
  f O0 1 rel0 1
  f O0 1 rel0 2
  f O0 1 rel0 3
  f O0 1 rel0 4
  f O0 1 rel0 5
  f O0 1 rel0 6
  f O0 1 rel0 7
  f O0 1 rel0 8
  f O0 1 rel0 9
  f O0 1 rel0 10
  f O0 1 rel0 11
end
f O0 2 - 0
f O0 3 - 0
