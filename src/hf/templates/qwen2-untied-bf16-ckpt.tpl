# qwen2-untied-bf16-ckpt: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates-untied/hf-memory (shapes a and c), torch 2.11.0+cu130, transformers 5.17.0
template qwen2-untied bf16 ckpt
phase build
a d*V*2
loop L
  a d*d*2
  a d*2
  a d*kv*2
  a kv*2
  a d*kv*2
  a kv*2
  a d*d*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*2
  a d*2
end
a d*2
a 128
a 128
f build 3 - 0
a 128
a 8
f build 4 - 0
f build 7 - 0
a 128
a 128
f build 6 - 0
f build 10 - 0
a 128
a 128
a 128
f build 15 - 0
a 128
a 8
f build 16 - 0
f build 19 - 0
a 128
a 128
f build 18 - 0
f build 22 - 0
f build 23 - 0
a d*V*2
a B*S*8
phase F0
a B*S*d*2
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
f F0 26 - 0
a S*hd*2
a S*hd*2
f F0 20 - 0
f F0 21 - 0
f F0 22 - 0
f F0 24 - 0
f F0 27 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 37 - 0
a B*S*4
a B*S*4
f F0 40 - 0
a B*S*d*4
f F0 36 - 0
f F0 41 - 0
a B*S*d*2
a B*S*d*2
f F0 38 - 0
f F0 43 - 0
f F0 46 - 0
a B*S*d*2
a 1048576
loop L-1
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 53 rel0 3
  a B*S*d*2
  f F0 53 rel0 4
  a B*S*d*2
  f F0 53 rel0 2
  f F0 53 rel0 5
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f F0 53 rel0 8
  a B*S*kv*2
  f F0 53 rel0 9
  a B*S*kv*2
  f F0 53 rel-1 41 first F0 51 - 0
  f F0 53 rel0 0
  f F0 53 rel0 7
  f F0 53 rel0 10
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 53 rel0 12
  f F0 53 rel0 13
  f F0 53 rel0 15
  f F0 53 rel0 16
  a B*S*d*2
  f F0 53 rel-1 40 first F0 47 - 0
  f F0 53 rel0 1
  f F0 53 rel0 6
  f F0 53 rel0 11
  f F0 53 rel0 14
  a B*S*d*2
  f F0 53 rel0 17
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 53 rel0 20
  a B*S*4
  a B*S*4
  f F0 53 rel0 22
  a B*S*d*4
  f F0 53 rel0 19
  f F0 53 rel0 23
  a B*S*d*2
  a B*S*d*2
  f F0 53 rel0 21
  f F0 53 rel0 24
  f F0 53 rel0 25
  a B*S*f*2
  a B*S*f*2
  f F0 53 rel0 27
  a B*S*f*2
  a B*S*f*2
  f F0 53 rel0 28
  f F0 53 rel0 29
  a B*S*d*2
  f F0 53 rel0 26
  f F0 53 rel0 30
  a B*S*d*2
  f F0 53 rel0 18
  f F0 53 rel0 31
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 53 rel0 34
  a B*S*4
  a B*S*4
  f F0 53 rel0 36
  a B*S*d*4
  f F0 53 rel0 33
  f F0 53 rel0 37
  a B*S*d*2
  a B*S*d*2
  f F0 53 rel0 35
  f F0 53 rel0 38
  f F0 53 rel0 39
  a B*S*d*2
end
a B*S*kv*2
a B*S*kv*2
a B*S*d*2
a B*S*d
a B*S*d*2
f F0 57 - 0
a B*S*d*2
f F0 58 - 0
a B*S*d*2
f F0 56 - 0
f F0 60 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f F0 66 - 0
a B*S*kv*2
f F0 67 - 0
a B*S*kv*2
f F0 53 end1 41
f F0 54 - 0
f F0 65 - 0
f F0 69 - 0
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f F0 76 - 0
f F0 77 - 0
f F0 79 - 0
f F0 80 - 0
a B*S*d*2
f F0 53 end1 40
f F0 55 - 0
f F0 62 - 0
f F0 71 - 0
f F0 78 - 0
a B*S*d*2
f F0 85 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 94 - 0
a B*S*4
a B*S*4
f F0 97 - 0
a B*S*d*4
f F0 93 - 0
f F0 98 - 0
a B*S*d*2
a B*S*d*2
f F0 95 - 0
f F0 100 - 0
f F0 103 - 0
a B*S*f*2
a B*S*f*2
f F0 108 - 0
a B*S*f*2
a B*S*f*2
f F0 109 - 0
f F0 111 - 0
a B*S*d*2
f F0 104 - 0
f F0 112 - 0
a B*S*d*2
f F0 91 - 0
f F0 115 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 122 - 0
a B*S*4
a B*S*4
f F0 125 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 118 - 0
f F0 123 - 0
f F0 128 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 134 - 0
f F0 135 - 0
f F0 136 - 0
phase B0
a 4
a B*S*V*4
f F0 137 - 0
f F0 140 - 0
a B*S*V*4
f F0 138 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 130 - 0
f B0 7 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 129 - 0
f B0 11 - 0
f B0 15 - 0
a B*S*d*4
f B0 14 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 20 - 0
f B0 22 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 126 - 0
f B0 24 - 0
f B0 27 - 0
f B0 28 - 0
a B*S*d*4
f B0 29 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 121 - 0
f B0 34 - 0
f B0 36 - 0
f B0 37 - 0
f B0 38 - 0
a B*S*d*2
f B0 23 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 47 - 0
a B*S*4
a B*S*4
f B0 50 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f B0 48 - 0
f B0 53 - 0
a B*S*d*2
a 1048576
loop L-1
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 60 rel0 3
  a B*S*d*2
  f B0 60 rel0 4
  a B*S*d*2
  f B0 60 rel0 2
  f B0 60 rel0 5
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 60 rel0 8
  a B*S*kv*2
  f B0 60 rel0 9
  a B*S*kv*2
  f B0 60 rel-1 107 first B0 58 - 0
  f B0 60 rel0 0
  f B0 60 rel0 7
  f B0 60 rel0 10
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 60 rel0 16
  a B*S*d*2
  a B*S*d*2
  f B0 60 rel0 17
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 60 rel0 20
  a B*S*4
  a B*S*4
  f B0 60 rel0 22
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f B0 60 rel0 21
  f B0 60 rel0 24
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 60 rel0 18
  a d*f*2
  a B*S*f*2
  f B0 60 rel0 30
  a B*S*f*2
  a B*S*f*2
  f B0 60 rel0 28
  f B0 60 rel0 29
  f B0 60 rel0 32
  a d*f*2
  a B*S*d*2
  f B0 60 rel0 33
  a B*S*f*2
  f B0 60 rel0 27
  f B0 60 rel0 34
  a d*f*2
  a B*S*d*2
  f B0 60 rel0 26
  f B0 60 rel0 37
  a B*S*d*2
  f B0 60 rel0 36
  f B0 60 rel0 39
  a B*S*d*2
  a B*S*d*2
  f B0 60 rel0 25
  a d*2
  f B0 60 rel0 40
  f B0 60 rel0 42
  a B*S*d*4
  f B0 60 rel0 41
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 60 rel0 44
  f B0 60 rel0 45
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 60 rel0 23
  f B0 60 rel0 47
  f B0 60 rel0 48
  f B0 60 rel0 49
  a B*S*d*4
  f B0 60 rel0 50
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 60 rel0 19
  f B0 60 rel0 51
  f B0 60 rel0 52
  f B0 60 rel0 53
  f B0 60 rel0 54
  a B*S*d*2
  f B0 60 rel0 46
  f B0 60 rel0 55
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 60 rel0 1
  f B0 60 rel0 6
  f B0 60 rel0 11
  f B0 60 rel0 12
  f B0 60 rel0 13
  f B0 60 rel0 14
  f B0 60 rel0 15
  f B0 60 rel0 57
  f B0 60 rel0 61
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 60 rel0 63
  a B*S*kv*2
  f B0 60 rel0 62
  f B0 60 rel0 65
  a B*S*kv*2
  f B0 60 rel0 59
  f B0 60 rel0 66
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 60 rel0 68
  a B*S*d*2
  f B0 60 rel0 67
  f B0 60 rel0 70
  a B*S*d*2
  f B0 60 rel0 58
  f B0 60 rel0 71
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 60 rel0 60
  a B*S*kv*2
  f B0 60 rel0 64
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 60 rel0 75
  a B*S*d*2
  f B0 60 rel0 72
  f B0 60 rel0 76
  a B*S*d*2
  f B0 60 rel0 69
  a B*S*d*2
  a d*d*2
  f B0 60 rel-1 106 first B0 55 - 0
  a d*2
  f B0 60 rel0 80
  f B0 60 rel0 81
  a B*S*d*2
  a B*S*d*2
  f B0 60 rel-1 105 first B0 54 - 0
  a d*2
  f B0 60 rel0 79
  f B0 60 rel0 85
  a B*S*d*4
  f B0 60 rel0 84
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 60 rel0 87
  f B0 60 rel0 88
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 60 rel-1 103 first B0 51 - 0
  f B0 60 rel0 90
  f B0 60 rel0 91
  f B0 60 rel0 92
  a B*S*d*4
  f B0 60 rel0 93
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 53 mir-1 32
  f B0 60 rel-1 99 first B0 46 - 0
  f B0 60 rel0 94
  f B0 60 rel0 95
  f B0 60 rel0 96
  f B0 60 rel0 97
  a B*S*d*2
  f B0 60 rel0 89
  f B0 60 rel0 98
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 60 rel0 100
  a B*S*4
  a B*S*4
  f B0 60 rel0 102
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f B0 60 rel0 101
  f B0 60 rel0 104
  a B*S*d*2
end
a B*S*kv*2
a B*S*kv*2
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 64 - 0
a B*S*d*2
f B0 65 - 0
a B*S*d*2
f B0 63 - 0
f B0 67 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 73 - 0
a B*S*kv*2
f B0 74 - 0
a B*S*kv*2
f B0 60 end1 107
f B0 61 - 0
f B0 72 - 0
f B0 76 - 0
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f B0 87 - 0
a B*S*d*2
a B*S*d*2
f B0 89 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 93 - 0
a B*S*4
a B*S*4
f B0 96 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f B0 94 - 0
f B0 99 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
f B0 90 - 0
a d*f*2
a B*S*f*2
f B0 107 - 0
a B*S*f*2
a B*S*f*2
f B0 105 - 0
f B0 106 - 0
f B0 110 - 0
a d*f*2
a B*S*d*2
f B0 112 - 0
a B*S*f*2
f B0 104 - 0
f B0 113 - 0
a d*f*2
a B*S*d*2
f B0 101 - 0
f B0 120 - 0
a B*S*d*2
f B0 118 - 0
f B0 124 - 0
a B*S*d*2
a B*S*d*2
f B0 100 - 0
a d*2
f B0 127 - 0
f B0 131 - 0
a B*S*d*4
f B0 130 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 136 - 0
f B0 138 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 97 - 0
f B0 140 - 0
f B0 143 - 0
f B0 144 - 0
a B*S*d*4
f B0 145 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f B0 92 - 0
f B0 150 - 0
f B0 152 - 0
f B0 153 - 0
f B0 154 - 0
a B*S*d*2
f B0 139 - 0
f B0 160 - 0
a d*d*2
a B*S*d*2
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*8~1.00788
f B0 62 - 0
f B0 69 - 0
f B0 78 - 0
f B0 83 - 0
f B0 84 - 0
f B0 85 - 0
f B0 86 - 0
f B0 164 - 0
f B0 168 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 179 - 0
a B*S*kv*2
f B0 178 - 0
f B0 182 - 0
a B*S*kv*2
f B0 166 - 0
f B0 185 - 0
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 189 - 0
a B*S*d*2
f B0 188 - 0
f B0 192 - 0
a B*S*d*2
f B0 165 - 0
f B0 195 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 167 - 0
a B*S*kv*2
f B0 180 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 202 - 0
a B*S*d*2
f B0 198 - 0
f B0 204 - 0
a B*S*d*2
f B0 190 - 0
a B*S*d*2
a d*d*2
f B0 60 end1 106
a d*2
f B0 211 - 0
f B0 213 - 0
a B*S*d*2
a B*S*d*2
f B0 60 end1 105
a d*2
f B0 208 - 0
f B0 220 - 0
a B*S*d*4
f B0 219 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 225 - 0
f B0 227 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 60 end1 103
f B0 229 - 0
f B0 232 - 0
f B0 233 - 0
a B*S*d*4
f B0 234 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 0 - 0
f F0 2 - 0
f F0 29 - 0
f F0 30 - 0
f B0 60 end1 99
f B0 239 - 0
f B0 241 - 0
f B0 242 - 0
f B0 243 - 0
a B*S*d*2
f B0 228 - 0
f B0 253 - 0
a d*V*2
f B0 0 - 0
f B0 44 - 0
phase O0
a d*V*2
a d*V*2
loop L
  a d*d*2
  a d*d*2
  a d*2
  a d*2
  a d*kv*2
  a d*kv*2
  a kv*2
  a kv*2
  a d*kv*2
  a d*kv*2
  a kv*2
  a kv*2
  a d*d*2
  a d*d*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*2
  a d*2
  a d*2
  a d*2
end
a d*2
a d*2
a d*V*2
a d*V*2
a d*V*2
loop L
  a d*d*2
  a d*2
  a d*kv*2
  a kv*2
  a d*kv*2
  a kv*2
  a d*d*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*2
  a d*2
end
a d*2
a d*V*2
f B0 9 - 0
loop L
  f B0 60 rel-1 86 first B0 16 - 0
  f B0 60 rel0 31 last B0 109 - 0
  f B0 60 rel0 35 last B0 117 - 0
  f B0 60 rel0 38 last B0 123 - 0
  f B0 60 rel0 43 last B0 133 - 0
  f B0 60 rel0 56 last B0 163 - 0
  f B0 60 rel0 73 last B0 199 - 0
  f B0 60 rel0 74 last B0 200 - 0
  f B0 60 rel0 77 last B0 205 - 0
  f B0 60 rel0 78 last B0 206 - 0
  f B0 60 rel0 82 last B0 214 - 0
  f B0 60 rel0 83 last B0 216 - 0
end
f B0 222 - 0
f B0 256 - 0
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
f F-1 139 - 0
a B*S*d*2
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
f F0 27 - 0
a S*hd*2
a S*hd*2
f F0 21 - 0
f F0 22 - 0
f F0 23 - 0
f F0 25 - 0
f F0 28 - 0
loop L
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 37 rel0 1
  a B*S*4
  a B*S*4
  f F0 37 rel0 3
  a B*S*d*4
  f F0 37 rel0 0
  f F0 37 rel0 4
  a B*S*d*2
  a B*S*d*2
  f F0 37 rel0 2
  f F0 37 rel0 5
  f F0 37 rel0 6
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 37 rel0 12
  a B*S*d*2
  f F0 37 rel0 13
  a B*S*d*2
  f F0 37 rel0 11
  f F0 37 rel0 14
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f F0 37 rel0 17
  a B*S*kv*2
  f F0 37 rel0 18
  a B*S*kv*2
  f F0 37 rel0 8
  f F0 37 rel0 9
  f F0 37 rel0 16
  f F0 37 rel0 19
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 37 rel0 21
  f F0 37 rel0 22
  f F0 37 rel0 24
  f F0 37 rel0 25
  a B*S*d*2
  f F0 37 rel0 7
  f F0 37 rel0 10
  f F0 37 rel0 15
  f F0 37 rel0 20
  f F0 37 rel0 23
  a B*S*d*2
  f F0 37 rel0 26
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 37 rel0 29
  a B*S*4
  a B*S*4
  f F0 37 rel0 31
  a B*S*d*4
  f F0 37 rel0 28
  f F0 37 rel0 32
  a B*S*d*2
  a B*S*d*2
  f F0 37 rel0 30
  f F0 37 rel0 33
  f F0 37 rel0 34
  a B*S*f*2
  a B*S*f*2
  f F0 37 rel0 36
  a B*S*f*2
  a B*S*f*2
  f F0 37 rel0 37
  f F0 37 rel0 38
  a B*S*d*2
  f F0 37 rel0 35
  f F0 37 rel0 39
  a B*S*d*2
  f F0 37 rel0 27
  f F0 37 rel0 40
end
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 39 - 0
a B*S*4
a B*S*4
f F0 42 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 37 end0 41
f F0 40 - 0
f F0 45 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 51 - 0
f F0 52 - 0
f F0 53 - 0
phase B1
a 4
a B*S*V*4
f F0 54 - 0
f F0 57 - 0
a B*S*V*4
f F0 55 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 47 - 0
f B0 7 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 46 - 0
f B0 10 - 0
f B0 14 - 0
a B*S*d*4
f B0 13 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 19 - 0
f B0 21 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 43 - 0
f B0 23 - 0
f B0 26 - 0
f B0 27 - 0
a B*S*d*4
f B0 28 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 38 - 0
f B0 33 - 0
f B0 35 - 0
f B0 36 - 0
f B0 37 - 0
a B*S*d*2
f B0 22 - 0
loop L-1
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 1
  a B*S*4
  a B*S*4
  f B0 45 rel0 3
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 2
  f B0 45 rel0 5
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 45 rel0 12
  a B*S*d*2
  f B0 45 rel0 13
  a B*S*d*2
  f B0 45 rel0 11
  f B0 45 rel0 14
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 45 rel0 17
  a B*S*kv*2
  f B0 45 rel0 18
  a B*S*kv*2
  f B0 45 rel0 8
  f B0 45 rel0 9
  f B0 45 rel0 16
  f B0 45 rel0 19
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 45 rel0 25
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 26
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 29
  a B*S*4
  a B*S*4
  f B0 45 rel0 31
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 30
  f B0 45 rel0 33
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 45 rel0 27
  a d*f*2
  a B*S*f*2
  f B0 45 rel0 39
  a B*S*f*2
  a B*S*f*2
  f B0 45 rel0 37
  f B0 45 rel0 38
  f B0 45 rel0 41
  a d*f*2
  a B*S*d*2
  f B0 45 rel0 42
  a B*S*f*2
  f B0 45 rel0 36
  f B0 45 rel0 43
  a d*f*2
  a B*S*d*2
  f B0 45 rel0 35
  f B0 45 rel0 46
  a B*S*d*2
  f B0 45 rel0 45
  f B0 45 rel0 48
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 34
  a d*2
  f B0 45 rel0 49
  f B0 45 rel0 51
  a B*S*d*4
  f B0 45 rel0 50
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 53
  f B0 45 rel0 54
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 45 rel0 32
  f B0 45 rel0 56
  f B0 45 rel0 57
  f B0 45 rel0 58
  a B*S*d*4
  f B0 45 rel0 59
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 45 rel0 28
  f B0 45 rel0 60
  f B0 45 rel0 61
  f B0 45 rel0 62
  f B0 45 rel0 63
  a B*S*d*2
  f B0 45 rel0 55
  f B0 45 rel0 64
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 45 rel0 10
  f B0 45 rel0 15
  f B0 45 rel0 20
  f B0 45 rel0 21
  f B0 45 rel0 22
  f B0 45 rel0 23
  f B0 45 rel0 24
  f B0 45 rel0 66
  f B0 45 rel0 70
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 45 rel0 72
  a B*S*kv*2
  f B0 45 rel0 71
  f B0 45 rel0 74
  a B*S*kv*2
  f B0 45 rel0 68
  f B0 45 rel0 75
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 45 rel0 77
  a B*S*d*2
  f B0 45 rel0 76
  f B0 45 rel0 79
  a B*S*d*2
  f B0 45 rel0 67
  f B0 45 rel0 80
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 45 rel0 69
  a B*S*kv*2
  f B0 45 rel0 73
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 45 rel0 84
  a B*S*d*2
  f B0 45 rel0 81
  f B0 45 rel0 85
  a B*S*d*2
  f B0 45 rel0 78
  a B*S*d*2
  a d*d*2
  f B0 45 rel0 7
  a d*2
  f B0 45 rel0 89
  f B0 45 rel0 90
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 6
  a d*2
  f B0 45 rel0 88
  f B0 45 rel0 94
  a B*S*d*4
  f B0 45 rel0 93
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 96
  f B0 45 rel0 97
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 45 rel0 4
  f B0 45 rel0 99
  f B0 45 rel0 100
  f B0 45 rel0 101
  a B*S*d*4
  f B0 45 rel0 102
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 37 mir-1 41
  f B0 45 rel0 0
  f B0 45 rel0 103
  f B0 45 rel0 104
  f B0 45 rel0 105
  f B0 45 rel0 106
  a B*S*d*2
  f B0 45 rel0 98
  f B0 45 rel0 107
end
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 47 - 0
a B*S*4
a B*S*4
f B0 50 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f B0 48 - 0
f B0 53 - 0
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 62 - 0
a B*S*d*2
f B0 63 - 0
a B*S*d*2
f B0 61 - 0
f B0 65 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 71 - 0
a B*S*kv*2
f B0 72 - 0
a B*S*kv*2
f B0 58 - 0
f B0 59 - 0
f B0 70 - 0
f B0 74 - 0
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f B0 85 - 0
a B*S*d*2
a B*S*d*2
f B0 87 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 91 - 0
a B*S*4
a B*S*4
f B0 94 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f B0 92 - 0
f B0 97 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
f B0 88 - 0
a d*f*2
a B*S*f*2
f B0 105 - 0
a B*S*f*2
a B*S*f*2
f B0 103 - 0
f B0 104 - 0
f B0 108 - 0
a d*f*2
a B*S*d*2
f B0 110 - 0
a B*S*f*2
f B0 102 - 0
f B0 111 - 0
a d*f*2
a B*S*d*2
f B0 99 - 0
f B0 118 - 0
a B*S*d*2
f B0 116 - 0
f B0 122 - 0
a B*S*d*2
a B*S*d*2
f B0 98 - 0
a d*2
f B0 125 - 0
f B0 129 - 0
a B*S*d*4
f B0 128 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 134 - 0
f B0 136 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 95 - 0
f B0 138 - 0
f B0 141 - 0
f B0 142 - 0
a B*S*d*4
f B0 143 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f B0 90 - 0
f B0 148 - 0
f B0 150 - 0
f B0 151 - 0
f B0 152 - 0
a B*S*d*2
f B0 137 - 0
f B0 158 - 0
a d*d*2
a B*S*d*2
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*8~1.00788
f B0 60 - 0
f B0 67 - 0
f B0 76 - 0
f B0 81 - 0
f B0 82 - 0
f B0 83 - 0
f B0 84 - 0
f B0 162 - 0
f B0 166 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 177 - 0
a B*S*kv*2
f B0 176 - 0
f B0 180 - 0
a B*S*kv*2
f B0 164 - 0
f B0 183 - 0
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 187 - 0
a B*S*d*2
f B0 186 - 0
f B0 190 - 0
a B*S*d*2
f B0 163 - 0
f B0 193 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 165 - 0
a B*S*kv*2
f B0 178 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 200 - 0
a B*S*d*2
f B0 196 - 0
f B0 202 - 0
a B*S*d*2
f B0 188 - 0
a B*S*d*2
a d*d*2
f B0 55 - 0
a d*2
f B0 209 - 0
f B0 211 - 0
a B*S*d*2
a B*S*d*2
f B0 54 - 0
a d*2
f B0 206 - 0
f B0 218 - 0
a B*S*d*4
f B0 217 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 223 - 0
f B0 225 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 51 - 0
f B0 227 - 0
f B0 230 - 0
f B0 231 - 0
a B*S*d*4
f B0 232 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f F0 3 - 0
f F0 30 - 0
f F0 31 - 0
f B0 46 - 0
f B0 237 - 0
f B0 239 - 0
f B0 240 - 0
f B0 241 - 0
a B*S*d*2
f B0 226 - 0
f B0 251 - 0
a d*V*2
f B0 0 - 0
f B0 43 - 0
phase O1
a d*V*2
loop L
  a d*d*2
  a d*2
  a d*kv*2
  a kv*2
  a d*kv*2
  a kv*2
  a d*d*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*2
  a d*2
end
a d*2
a d*V*2
f B0 9 - 0
loop L
  f B0 45 rel-1 95 first B0 15 - 0
  f B0 45 rel0 40 last B0 107 - 0
  f B0 45 rel0 44 last B0 115 - 0
  f B0 45 rel0 47 last B0 121 - 0
  f B0 45 rel0 52 last B0 131 - 0
  f B0 45 rel0 65 last B0 161 - 0
  f B0 45 rel0 82 last B0 197 - 0
  f B0 45 rel0 83 last B0 198 - 0
  f B0 45 rel0 86 last B0 203 - 0
  f B0 45 rel0 87 last B0 204 - 0
  f B0 45 rel0 91 last B0 212 - 0
  f B0 45 rel0 92 last B0 214 - 0
end
f B0 220 - 0
f B0 254 - 0
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
f F-1 56 - 0
a B*S*d*2
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
f F0 27 - 0
a S*hd*2
a S*hd*2
f F0 21 - 0
f F0 22 - 0
f F0 23 - 0
f F0 25 - 0
f F0 28 - 0
loop L
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 37 rel0 1
  a B*S*4
  a B*S*4
  f F0 37 rel0 3
  a B*S*d*4
  f F0 37 rel0 0
  f F0 37 rel0 4
  a B*S*d*2
  a B*S*d*2
  f F0 37 rel0 2
  f F0 37 rel0 5
  f F0 37 rel0 6
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 37 rel0 12
  a B*S*d*2
  f F0 37 rel0 13
  a B*S*d*2
  f F0 37 rel0 11
  f F0 37 rel0 14
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f F0 37 rel0 17
  a B*S*kv*2
  f F0 37 rel0 18
  a B*S*kv*2
  f F0 37 rel0 8
  f F0 37 rel0 9
  f F0 37 rel0 16
  f F0 37 rel0 19
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 37 rel0 21
  f F0 37 rel0 22
  f F0 37 rel0 24
  f F0 37 rel0 25
  a B*S*d*2
  f F0 37 rel0 7
  f F0 37 rel0 10
  f F0 37 rel0 15
  f F0 37 rel0 20
  f F0 37 rel0 23
  a B*S*d*2
  f F0 37 rel0 26
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 37 rel0 29
  a B*S*4
  a B*S*4
  f F0 37 rel0 31
  a B*S*d*4
  f F0 37 rel0 28
  f F0 37 rel0 32
  a B*S*d*2
  a B*S*d*2
  f F0 37 rel0 30
  f F0 37 rel0 33
  f F0 37 rel0 34
  a B*S*f*2
  a B*S*f*2
  f F0 37 rel0 36
  a B*S*f*2
  a B*S*f*2
  f F0 37 rel0 37
  f F0 37 rel0 38
  a B*S*d*2
  f F0 37 rel0 35
  f F0 37 rel0 39
  a B*S*d*2
  f F0 37 rel0 27
  f F0 37 rel0 40
end
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 39 - 0
a B*S*4
a B*S*4
f F0 42 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 37 end0 41
f F0 40 - 0
f F0 45 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 51 - 0
f F0 52 - 0
f F0 53 - 0
phase B2
a 4
a B*S*V*4
f F0 54 - 0
f F0 57 - 0
a B*S*V*4
f F0 55 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 47 - 0
f B0 7 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 46 - 0
f B0 10 - 0
f B0 14 - 0
a B*S*d*4
f B0 13 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 19 - 0
f B0 21 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 43 - 0
f B0 23 - 0
f B0 26 - 0
f B0 27 - 0
a B*S*d*4
f B0 28 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 38 - 0
f B0 33 - 0
f B0 35 - 0
f B0 36 - 0
f B0 37 - 0
a B*S*d*2
f B0 22 - 0
loop L-1
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 1
  a B*S*4
  a B*S*4
  f B0 45 rel0 3
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 2
  f B0 45 rel0 5
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 45 rel0 12
  a B*S*d*2
  f B0 45 rel0 13
  a B*S*d*2
  f B0 45 rel0 11
  f B0 45 rel0 14
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 45 rel0 17
  a B*S*kv*2
  f B0 45 rel0 18
  a B*S*kv*2
  f B0 45 rel0 8
  f B0 45 rel0 9
  f B0 45 rel0 16
  f B0 45 rel0 19
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 45 rel0 25
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 26
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 29
  a B*S*4
  a B*S*4
  f B0 45 rel0 31
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 30
  f B0 45 rel0 33
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  f B0 45 rel0 27
  a d*f*2
  a B*S*f*2
  f B0 45 rel0 39
  a B*S*f*2
  a B*S*f*2
  f B0 45 rel0 37
  f B0 45 rel0 38
  f B0 45 rel0 41
  a d*f*2
  a B*S*d*2
  f B0 45 rel0 42
  a B*S*f*2
  f B0 45 rel0 36
  f B0 45 rel0 43
  a d*f*2
  a B*S*d*2
  f B0 45 rel0 35
  f B0 45 rel0 46
  a B*S*d*2
  f B0 45 rel0 45
  f B0 45 rel0 48
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 34
  a d*2
  f B0 45 rel0 49
  f B0 45 rel0 51
  a B*S*d*4
  f B0 45 rel0 50
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 53
  f B0 45 rel0 54
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 45 rel0 32
  f B0 45 rel0 56
  f B0 45 rel0 57
  f B0 45 rel0 58
  a B*S*d*4
  f B0 45 rel0 59
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 45 rel0 28
  f B0 45 rel0 60
  f B0 45 rel0 61
  f B0 45 rel0 62
  f B0 45 rel0 63
  a B*S*d*2
  f B0 45 rel0 55
  f B0 45 rel0 64
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 45 rel0 10
  f B0 45 rel0 15
  f B0 45 rel0 20
  f B0 45 rel0 21
  f B0 45 rel0 22
  f B0 45 rel0 23
  f B0 45 rel0 24
  f B0 45 rel0 66
  f B0 45 rel0 70
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 45 rel0 72
  a B*S*kv*2
  f B0 45 rel0 71
  f B0 45 rel0 74
  a B*S*kv*2
  f B0 45 rel0 68
  f B0 45 rel0 75
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 45 rel0 77
  a B*S*d*2
  f B0 45 rel0 76
  f B0 45 rel0 79
  a B*S*d*2
  f B0 45 rel0 67
  f B0 45 rel0 80
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 45 rel0 69
  a B*S*kv*2
  f B0 45 rel0 73
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 45 rel0 84
  a B*S*d*2
  f B0 45 rel0 81
  f B0 45 rel0 85
  a B*S*d*2
  f B0 45 rel0 78
  a B*S*d*2
  a d*d*2
  f B0 45 rel0 7
  a d*2
  f B0 45 rel0 89
  f B0 45 rel0 90
  a B*S*d*2
  a B*S*d*2
  f B0 45 rel0 6
  a d*2
  f B0 45 rel0 88
  f B0 45 rel0 94
  a B*S*d*4
  f B0 45 rel0 93
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 96
  f B0 45 rel0 97
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 45 rel0 4
  f B0 45 rel0 99
  f B0 45 rel0 100
  f B0 45 rel0 101
  a B*S*d*4
  f B0 45 rel0 102
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 37 mir-1 41
  f B0 45 rel0 0
  f B0 45 rel0 103
  f B0 45 rel0 104
  f B0 45 rel0 105
  f B0 45 rel0 106
  a B*S*d*2
  f B0 45 rel0 98
  f B0 45 rel0 107
end
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 47 - 0
a B*S*4
a B*S*4
f B0 50 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f B0 48 - 0
f B0 53 - 0
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 62 - 0
a B*S*d*2
f B0 63 - 0
a B*S*d*2
f B0 61 - 0
f B0 65 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 71 - 0
a B*S*kv*2
f B0 72 - 0
a B*S*kv*2
f B0 58 - 0
f B0 59 - 0
f B0 70 - 0
f B0 74 - 0
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f B0 85 - 0
a B*S*d*2
a B*S*d*2
f B0 87 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 91 - 0
a B*S*4
a B*S*4
f B0 94 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f B0 92 - 0
f B0 97 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
f B0 88 - 0
a d*f*2
a B*S*f*2
f B0 105 - 0
a B*S*f*2
a B*S*f*2
f B0 103 - 0
f B0 104 - 0
f B0 108 - 0
a d*f*2
a B*S*d*2
f B0 110 - 0
a B*S*f*2
f B0 102 - 0
f B0 111 - 0
a d*f*2
a B*S*d*2
f B0 99 - 0
f B0 118 - 0
a B*S*d*2
f B0 116 - 0
f B0 122 - 0
a B*S*d*2
a B*S*d*2
f B0 98 - 0
a d*2
f B0 125 - 0
f B0 129 - 0
a B*S*d*4
f B0 128 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 134 - 0
f B0 136 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 95 - 0
f B0 138 - 0
f B0 141 - 0
f B0 142 - 0
a B*S*d*4
f B0 143 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f B0 90 - 0
f B0 148 - 0
f B0 150 - 0
f B0 151 - 0
f B0 152 - 0
a B*S*d*2
f B0 137 - 0
f B0 158 - 0
a d*d*2
a B*S*d*2
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*8~1.00788
f B0 60 - 0
f B0 67 - 0
f B0 76 - 0
f B0 81 - 0
f B0 82 - 0
f B0 83 - 0
f B0 84 - 0
f B0 162 - 0
f B0 166 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 177 - 0
a B*S*kv*2
f B0 176 - 0
f B0 180 - 0
a B*S*kv*2
f B0 164 - 0
f B0 183 - 0
a B*S*d*2
a B*S*d
a B*S*d*2
f B0 187 - 0
a B*S*d*2
f B0 186 - 0
f B0 190 - 0
a B*S*d*2
f B0 163 - 0
f B0 193 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 165 - 0
a B*S*kv*2
f B0 178 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 200 - 0
a B*S*d*2
f B0 196 - 0
f B0 202 - 0
a B*S*d*2
f B0 188 - 0
a B*S*d*2
a d*d*2
f B0 55 - 0
a d*2
f B0 209 - 0
f B0 211 - 0
a B*S*d*2
a B*S*d*2
f B0 54 - 0
a d*2
f B0 206 - 0
f B0 218 - 0
a B*S*d*4
f B0 217 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 223 - 0
f B0 225 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 51 - 0
f B0 227 - 0
f B0 230 - 0
f B0 231 - 0
a B*S*d*4
f B0 232 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f F0 3 - 0
f F0 30 - 0
f F0 31 - 0
f B0 46 - 0
f B0 237 - 0
f B0 239 - 0
f B0 240 - 0
f B0 241 - 0
a B*S*d*2
f B0 226 - 0
f B0 251 - 0
a d*V*2
f B0 0 - 0
f B0 43 - 0
phase O2
a d*V*2
loop L
  a d*d*2
  a d*2
  a d*kv*2
  a kv*2
  a d*kv*2
  a kv*2
  a d*d*2
  a d*f*2
  a d*f*2
  a d*f*2
  a d*2
  a d*2
end
a d*2
a d*V*2
f B0 9 - 0
loop L
  f B0 45 rel-1 95 first B0 15 - 0
  f B0 45 rel0 40 last B0 107 - 0
  f B0 45 rel0 44 last B0 115 - 0
  f B0 45 rel0 47 last B0 121 - 0
  f B0 45 rel0 52 last B0 131 - 0
  f B0 45 rel0 65 last B0 161 - 0
  f B0 45 rel0 82 last B0 197 - 0
  f B0 45 rel0 83 last B0 198 - 0
  f B0 45 rel0 86 last B0 203 - 0
  f B0 45 rel0 87 last B0 204 - 0
  f B0 45 rel0 91 last B0 212 - 0
  f B0 45 rel0 92 last B0 214 - 0
end
f B0 220 - 0
f B0 254 - 0
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
