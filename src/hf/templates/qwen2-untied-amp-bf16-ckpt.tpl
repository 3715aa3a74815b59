# qwen2-untied-amp-bf16-ckpt: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates-untied/hf-memory (shapes a and c), torch 2.11.0+cu130, transformers 5.17.0
template qwen2-untied amp-bf16 ckpt
phase build
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
f F0 36 - 0
a B*S*d*4
f F0 33 - 0
f F0 38 - 0
a d*2
a d*d*2
a B*S*d*2
a B*S*d*2
a 1048576
loop L-1
  f F0 48 rel-1 53 first F0 45 - 0
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 48 rel0 2
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 48 rel0 6
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f F0 48 rel0 9
  a B*S*d*4
  f F0 48 rel0 10
  a B*S*d*4
  f F0 48 rel0 8
  f F0 48 rel0 11
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f F0 48 rel0 14
  a B*S*kv*4
  f F0 48 rel0 15
  a B*S*kv*4
  f F0 48 rel-1 54 first F0 46 - 0
  f F0 48 rel0 3
  f F0 48 rel0 13
  f F0 48 rel0 16
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 48 rel0 18
  f F0 48 rel0 19
  f F0 48 rel0 20
  f F0 48 rel0 21
  f F0 48 rel0 23
  f F0 48 rel0 24
  a d*d*2
  a B*S*d*2
  f F0 48 rel-1 50 first F0 40 - 0
  f F0 48 rel0 7
  f F0 48 rel0 12
  f F0 48 rel0 17
  f F0 48 rel0 22
  a B*S*d*4
  f F0 48 rel0 26
  a B*S*d*4
  a B*S*4
  f F0 48 rel0 28
  a B*S*4
  a B*S*4
  f F0 48 rel0 30
  a B*S*d*4
  f F0 48 rel0 31
  a B*S*d*4
  f F0 48 rel0 29
  f F0 48 rel0 32
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 48 rel0 35
  a B*S*f*2
  f F0 48 rel0 36
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 48 rel0 39
  a B*S*f*2
  f F0 48 rel0 37
  f F0 48 rel0 40
  a d*f*2
  a B*S*d*2
  f F0 48 rel0 33
  f F0 48 rel0 41
  a B*S*d*4
  f F0 48 rel0 27
  f F0 48 rel0 43
  a B*S*d*4
  a B*S*4
  f F0 48 rel0 45
  a B*S*4
  a B*S*4
  f F0 48 rel0 47
  a B*S*d*4
  f F0 48 rel0 48
  a B*S*d*4
  f F0 48 rel0 46
  f F0 48 rel0 49
  a d*2
  a d*d*2
  a B*S*d*2
  a B*S*d*2
end
f F0 48 end1 53
a kv*2
a d*kv*2
a B*S*d*2
a B*S*kv*2
f F0 52 - 0
a kv*2
a d*kv*2
a B*S*d*2
a B*S*kv*2
f F0 57 - 0
a B*S*d*4
a B*S*d
a B*S*d*2
f F0 61 - 0
a B*S*d*4
f F0 62 - 0
a B*S*d*4
f F0 60 - 0
f F0 64 - 0
a B*S*kv*4
a B*S*kv
a B*S*kv*2
f F0 70 - 0
a B*S*kv*4
f F0 71 - 0
a B*S*kv*4
f F0 48 end1 54
f F0 53 - 0
f F0 69 - 0
f F0 73 - 0
a B*S*kv*2
a B*S*d*2
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f F0 80 - 0
f F0 81 - 0
f F0 82 - 0
f F0 83 - 0
f F0 85 - 0
f F0 86 - 0
a d*d*2
a B*S*d*2
f F0 48 end1 50
f F0 58 - 0
f F0 66 - 0
f F0 75 - 0
f F0 84 - 0
a B*S*d*4
f F0 94 - 0
a B*S*d*4
a B*S*4
f F0 102 - 0
a B*S*4
a B*S*4
f F0 105 - 0
a B*S*d*4
f F0 106 - 0
a B*S*d*4
f F0 103 - 0
f F0 108 - 0
a d*f*2
a B*S*d*2
a B*S*f*2
f F0 114 - 0
a B*S*f*2
f F0 115 - 0
a d*f*2
a B*S*d*2
a B*S*f*2
f F0 120 - 0
a B*S*f*2
f F0 117 - 0
f F0 121 - 0
a d*f*2
a B*S*d*2
f F0 110 - 0
f F0 123 - 0
a B*S*d*4
f F0 100 - 0
f F0 127 - 0
a B*S*d*4
a B*S*4
f F0 133 - 0
a B*S*4
a B*S*4
f F0 136 - 0
a B*S*d*4
a B*S*d*4
f F0 134 - 0
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
  f F0 48 rel-1 51 first F0 43 - 0
  f F0 48 rel-1 52 first F0 44 - 0
  f F0 48 rel0 0 last F0 50 - 0
  f F0 48 rel0 1 last F0 51 - 0
  f F0 48 rel0 4 last F0 55 - 0
  f F0 48 rel0 5 last F0 56 - 0
  f F0 48 rel0 25 last F0 93 - 0
  f F0 48 rel0 34 last F0 113 - 0
  f F0 48 rel0 38 last F0 119 - 0
  f F0 48 rel0 42 last F0 126 - 0
end
f F0 140 - 0
f F0 144 - 0
f F0 145 - 0
f F0 146 - 0
phase B0
a 4
a B*S*V*4
f F0 147 - 0
f F0 150 - 0
a B*S*V*4
f F0 148 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 142 - 0
f F0 143 - 0
f B0 7 - 0
a B*S*d*4
f B0 11 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 139 - 0
f B0 15 - 0
f B0 20 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 19 - 0
f B0 25 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 137 - 0
f B0 27 - 0
f B0 30 - 0
f B0 31 - 0
a B*S*d*4
f B0 32 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 130 - 0
f B0 37 - 0
f B0 39 - 0
f B0 40 - 0
f B0 41 - 0
a B*S*d*2
a B*S*d*4
a B*S*4
f B0 48 - 0
a B*S*4
a B*S*4
f B0 51 - 0
a B*S*d*4
a B*S*d*4
f B0 49 - 0
a d*2
a d*d*2
a B*S*d*2
a B*S*d*2
a 1048576
loop L-1
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f B0 62 rel0 9
  a B*S*d*4
  f B0 62 rel0 10
  a B*S*d*4
  f B0 62 rel0 8
  f B0 62 rel0 11
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f B0 62 rel0 14
  a B*S*kv*4
  f B0 62 rel0 15
  a B*S*kv*4
  f B0 62 rel-1 137 first B0 60 - 0
  f B0 62 rel0 3
  f B0 62 rel0 13
  f B0 62 rel0 16
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 62 rel0 24
  a d*d*2
  a B*S*d*2
  f B0 62 rel-1 133 first B0 55 - 0
  f B0 62 rel0 12
  f B0 62 rel0 17
  a B*S*d*4
  f B0 62 rel0 26
  a B*S*d*4
  a B*S*4
  f B0 62 rel0 28
  a B*S*4
  a B*S*4
  f B0 62 rel0 30
  a B*S*d*4
  a B*S*d*4
  f B0 62 rel0 29
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  f B0 62 rel-1 134 first B0 57 - 0
  f B0 62 rel0 0
  f B0 62 rel0 4
  f B0 62 rel0 33
  a d*f*2
  a B*S*f*2
  f B0 62 rel-1 127 first B0 47 - 0
  f B0 62 rel0 41
  f B0 62 rel0 42
  a d*f*4
  f B0 62 rel0 43
  a B*S*f*2
  a B*S*f*2
  f B0 62 rel0 37
  f B0 62 rel0 40
  f B0 62 rel0 44
  a d*f*2
  a B*S*d*2
  f B0 62 rel0 38
  f B0 62 rel0 39
  f B0 62 rel0 46
  a B*S*d*4
  f B0 62 rel0 49
  a d*f*4
  f B0 62 rel0 48
  a B*S*f*2
  f B0 62 rel0 36
  f B0 62 rel0 47
  a d*f*2
  a B*S*d*2
  f B0 62 rel0 34
  f B0 62 rel0 35
  f B0 62 rel0 52
  a B*S*d*4
  f B0 62 rel0 54
  f B0 62 rel0 55
  a d*f*4
  f B0 62 rel0 53
  a B*S*d*4
  a B*S*d*4
  f B0 62 rel0 32
  a d*4
  f B0 62 rel0 50
  f B0 62 rel0 58
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 62 rel0 57
  f B0 62 rel0 60
  f B0 62 rel0 61
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 62 rel0 31
  f B0 62 rel0 62
  f B0 62 rel0 63
  f B0 62 rel0 64
  a B*S*d*4
  f B0 62 rel0 65
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 62 rel0 27
  f B0 62 rel0 66
  f B0 62 rel0 67
  f B0 62 rel0 68
  f B0 62 rel0 69
  a B*S*d*2
  a d*d*2
  a B*S*d*2
  f B0 62 rel0 25
  f B0 62 rel0 70
  a d*d*4
  f B0 62 rel0 71
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 62 rel0 7
  f B0 62 rel0 18
  f B0 62 rel0 19
  f B0 62 rel0 20
  f B0 62 rel0 21
  f B0 62 rel0 22
  f B0 62 rel0 23
  f B0 62 rel0 72
  f B0 62 rel0 77
  a B*S*d*4
  f B0 62 rel0 74
  a B*S*kv*4
  f B0 62 rel0 75
  a B*S*kv*4
  a B*S*kv*2
  f B0 62 rel0 80
  a B*S*kv
  a B*S*kv*2
  f B0 62 rel0 82
  a B*S*kv*2
  f B0 62 rel0 81
  f B0 62 rel0 84
  a B*S*kv*4
  a B*S*kv*2
  f B0 62 rel0 79
  f B0 62 rel0 85
  f B0 62 rel0 86
  a B*S*d*4
  a B*S*d*2
  f B0 62 rel0 87
  a B*S*d
  a B*S*d*2
  f B0 62 rel0 89
  a B*S*d*2
  f B0 62 rel0 88
  f B0 62 rel0 91
  a B*S*d*4
  a B*S*d*2
  f B0 62 rel0 78
  f B0 62 rel0 92
  f B0 62 rel0 93
  a B*S*d*2
  a d*kv*2
  f B0 62 rel0 5
  f B0 62 rel0 6
  a kv*2
  f B0 62 rel0 76
  a B*S*d*4
  f B0 62 rel0 94
  a d*kv*4
  f B0 62 rel0 95
  a kv*4
  f B0 62 rel0 96
  a B*S*kv*2
  f B0 62 rel0 83
  a B*S*d*2
  a d*kv*2
  f B0 62 rel0 1
  f B0 62 rel0 2
  a kv*2
  f B0 62 rel0 100
  a B*S*d*4
  f B0 62 rel0 101
  f B0 62 rel0 104
  a d*kv*4
  f B0 62 rel0 102
  a kv*4
  f B0 62 rel0 103
  a B*S*d*2
  f B0 62 rel0 90
  a B*S*d*2
  a d*d*2
  f B0 62 rel-1 135 first B0 58 - 0
  f B0 62 rel-1 136 first B0 59 - 0
  a d*2
  f B0 62 rel0 107
  a B*S*d*4
  f B0 62 rel0 108
  f B0 62 rel0 111
  a d*d*4
  f B0 62 rel0 109
  a d*4
  f B0 62 rel0 110
  a B*S*d*4
  a B*S*d*4
  f B0 62 rel-1 132 first B0 54 - 0
  a d*4
  f B0 62 rel0 97
  f B0 62 rel0 115
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 62 rel0 114
  f B0 62 rel0 117
  f B0 62 rel0 118
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 62 rel-1 131 first B0 52 - 0
  f B0 62 rel0 119
  f B0 62 rel0 120
  f B0 62 rel0 121
  a B*S*d*4
  f B0 62 rel0 122
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 48 mir-1 44
  f B0 62 rel0 123
  f B0 62 rel0 124
  f B0 62 rel0 125
  f B0 62 rel0 126
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  f B0 62 rel0 128
  a B*S*4
  a B*S*4
  f B0 62 rel0 130
  a B*S*d*4
  a B*S*d*4
  f B0 62 rel0 129
  a d*2
  a d*d*2
  a B*S*d*2
  a B*S*d*2
end
a kv*2
a d*kv*2
a B*S*d*2
a B*S*kv*2
a kv*2
a d*kv*2
a B*S*d*2
a B*S*kv*2
a B*S*d*4
a B*S*d
a B*S*d*2
f B0 72 - 0
a B*S*d*4
f B0 73 - 0
a B*S*d*4
f B0 71 - 0
f B0 75 - 0
a B*S*kv*4
a B*S*kv
a B*S*kv*2
f B0 81 - 0
a B*S*kv*4
f B0 82 - 0
a B*S*kv*4
f B0 62 end1 137
f B0 66 - 0
f B0 80 - 0
f B0 84 - 0
a B*S*kv*2
a B*S*d*2
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f B0 97 - 0
a d*d*2
a B*S*d*2
f B0 62 end1 133
f B0 77 - 0
f B0 86 - 0
a B*S*d*4
f B0 100 - 0
a B*S*d*4
a B*S*4
f B0 106 - 0
a B*S*4
a B*S*4
f B0 109 - 0
a B*S*d*4
a B*S*d*4
f B0 107 - 0
a d*f*2
a B*S*d*2
a B*S*f*2
a B*S*f*2
a d*f*2
a B*S*d*2
a B*S*f*2
a B*S*f*2
a d*f*2
f B0 62 end1 134
f B0 63 - 0
f B0 67 - 0
f B0 113 - 0
a d*f*2
a B*S*f*2
f B0 62 end1 127
f B0 122 - 0
f B0 123 - 0
a d*f*4
f B0 128 - 0
a B*S*f*2
a B*S*f*2
f B0 118 - 0
f B0 121 - 0
f B0 129 - 0
a d*f*2
a B*S*d*2
f B0 119 - 0
f B0 120 - 0
f B0 135 - 0
a B*S*d*4
f B0 141 - 0
a d*f*4
f B0 140 - 0
a B*S*f*2
f B0 117 - 0
f B0 136 - 0
a d*f*2
a B*S*d*2
f B0 115 - 0
f B0 116 - 0
f B0 149 - 0
a B*S*d*4
f B0 153 - 0
f B0 157 - 0
a d*f*4
f B0 152 - 0
a B*S*d*4
a B*S*d*4
f B0 112 - 0
a d*4
f B0 145 - 0
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
f B0 110 - 0
f B0 170 - 0
f B0 174 - 0
f B0 175 - 0
a B*S*d*4
f B0 176 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f B0 104 - 0
f B0 181 - 0
f B0 183 - 0
f B0 184 - 0
f B0 185 - 0
a B*S*d*2
a d*d*2
a B*S*d*2
f B0 99 - 0
f B0 191 - 0
a d*d*4
f B0 192 - 0
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*8~1.00788
f B0 70 - 0
f B0 91 - 0
f B0 92 - 0
f B0 93 - 0
f B0 94 - 0
f B0 95 - 0
f B0 96 - 0
f B0 193 - 0
f B0 201 - 0
a B*S*d*4
f B0 198 - 0
a B*S*kv*4
f B0 199 - 0
a B*S*kv*4
a B*S*kv*2
f B0 215 - 0
a B*S*kv
a B*S*kv*2
f B0 218 - 0
a B*S*kv*2
f B0 216 - 0
f B0 221 - 0
a B*S*kv*4
a B*S*kv*2
f B0 213 - 0
f B0 224 - 0
f B0 225 - 0
a B*S*d*4
a B*S*d*2
f B0 229 - 0
a B*S*d
a B*S*d*2
f B0 232 - 0
a B*S*d*2
f B0 230 - 0
f B0 235 - 0
a B*S*d*4
a B*S*d*2
f B0 211 - 0
f B0 238 - 0
f B0 239 - 0
a B*S*d*2
a d*kv*2
f B0 68 - 0
f B0 69 - 0
a kv*2
f B0 200 - 0
a B*S*d*4
f B0 243 - 0
a d*kv*4
f B0 244 - 0
a kv*4
f B0 247 - 0
a B*S*kv*2
f B0 219 - 0
a B*S*d*2
a d*kv*2
f B0 64 - 0
f B0 65 - 0
a kv*2
f B0 255 - 0
a B*S*d*4
f B0 257 - 0
f B0 263 - 0
a d*kv*4
f B0 258 - 0
a kv*4
f B0 261 - 0
a B*S*d*2
f B0 233 - 0
a B*S*d*2
a d*d*2
f B0 62 end1 135
f B0 62 end1 136
a d*2
f B0 270 - 0
a B*S*d*4
f B0 272 - 0
f B0 278 - 0
a d*d*4
f B0 273 - 0
a d*4
f B0 276 - 0
a B*S*d*4
a B*S*d*4
f B0 62 end1 132
a d*4
f B0 249 - 0
f B0 286 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 285 - 0
f B0 291 - 0
f B0 292 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 62 end1 131
f B0 293 - 0
f B0 297 - 0
f B0 298 - 0
a B*S*d*4
f B0 299 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 0 - 0
f F0 2 - 0
f F0 24 - 0
f F0 27 - 0
f B0 304 - 0
f B0 306 - 0
f B0 307 - 0
f B0 308 - 0
a d*V*4
f B0 0 - 0
f B0 26 - 0
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
f B0 17 - 0
loop L
  f B0 62 rel-1 116 first B0 21 - 0
  f B0 62 rel0 45 last B0 133 - 0
  f B0 62 rel0 51 last B0 147 - 0
  f B0 62 rel0 56 last B0 160 - 0
  f B0 62 rel0 59 last B0 165 - 0
  f B0 62 rel0 73 last B0 196 - 0
  f B0 62 rel0 98 last B0 251 - 0
  f B0 62 rel0 99 last B0 253 - 0
  f B0 62 rel0 105 last B0 266 - 0
  f B0 62 rel0 106 last B0 268 - 0
  f B0 62 rel0 112 last B0 281 - 0
  f B0 62 rel0 113 last B0 283 - 0
end
f B0 288 - 0
f B0 317 - 0
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
f F-1 149 - 0
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
  f F0 33 rel0 3
  a B*S*d*4
  f F0 33 rel0 1
  f F0 33 rel0 4
  a d*2
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  f F0 33 rel0 8
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 12
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 16
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f F0 33 rel0 19
  a B*S*d*4
  f F0 33 rel0 20
  a B*S*d*4
  f F0 33 rel0 18
  f F0 33 rel0 21
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f F0 33 rel0 24
  a B*S*kv*4
  f F0 33 rel0 25
  a B*S*kv*4
  f F0 33 rel0 9
  f F0 33 rel0 13
  f F0 33 rel0 23
  f F0 33 rel0 26
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 33 rel0 28
  f F0 33 rel0 29
  f F0 33 rel0 30
  f F0 33 rel0 31
  f F0 33 rel0 33
  f F0 33 rel0 34
  a d*d*2
  a B*S*d*2
  f F0 33 rel0 5
  f F0 33 rel0 17
  f F0 33 rel0 22
  f F0 33 rel0 27
  f F0 33 rel0 32
  a B*S*d*4
  f F0 33 rel0 36
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 38
  a B*S*4
  a B*S*4
  f F0 33 rel0 40
  a B*S*d*4
  f F0 33 rel0 41
  a B*S*d*4
  f F0 33 rel0 39
  f F0 33 rel0 42
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 45
  a B*S*f*2
  f F0 33 rel0 46
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 49
  a B*S*f*2
  f F0 33 rel0 47
  f F0 33 rel0 50
  a d*f*2
  a B*S*d*2
  f F0 33 rel0 43
  f F0 33 rel0 51
  a B*S*d*4
  f F0 33 rel0 37
  f F0 33 rel0 53
end
a B*S*d*4
a B*S*4
f F0 34 - 0
a B*S*4
a B*S*4
f F0 37 - 0
a B*S*d*4
a B*S*d*4
f F0 35 - 0
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
  f F0 33 rel0 6
  f F0 33 rel0 7
  f F0 33 rel0 10
  f F0 33 rel0 11
  f F0 33 rel0 14
  f F0 33 rel0 15
  f F0 33 rel0 35
  f F0 33 rel0 44
  f F0 33 rel0 48
  f F0 33 rel0 52
end
f F0 41 - 0
f F0 45 - 0
f F0 46 - 0
f F0 47 - 0
phase B1
a 4
a B*S*V*4
f F0 48 - 0
f F0 51 - 0
a B*S*V*4
f F0 49 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 43 - 0
f F0 44 - 0
f B0 7 - 0
a B*S*d*4
f B0 10 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 40 - 0
f B0 14 - 0
f B0 19 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
loop L
  f B0 27 rel-1 135 first B0 18 - 0
  f B0 27 rel-1 136 first B0 24 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel-1 11 first F0 38 - 0
  f B0 27 rel-1 137 first B0 26 - 0
  f B0 27 rel0 0
  f B0 27 rel0 1
  a B*S*d*4
  f B0 27 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 54
  f B0 27 rel0 3
  f B0 27 rel0 4
  f B0 27 rel0 5
  f B0 27 rel0 6
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 8
  a B*S*4
  a B*S*4
  f B0 27 rel0 10
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 9
  a d*2
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 27
  a B*S*d*4
  f B0 27 rel0 28
  a B*S*d*4
  f B0 27 rel0 26
  f B0 27 rel0 29
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 32
  a B*S*kv*4
  f B0 27 rel0 33
  a B*S*kv*4
  f B0 27 rel0 17
  f B0 27 rel0 21
  f B0 27 rel0 31
  f B0 27 rel0 34
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 27 rel0 42
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 13
  f B0 27 rel0 30
  f B0 27 rel0 35
  a B*S*d*4
  f B0 27 rel0 44
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 46
  a B*S*4
  a B*S*4
  f B0 27 rel0 48
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 47
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  f B0 27 rel0 14
  f B0 27 rel0 18
  f B0 27 rel0 22
  f B0 27 rel0 51
  a d*f*2
  a B*S*f*2
  f B0 27 rel0 7
  f B0 27 rel0 59
  f B0 27 rel0 60
  a d*f*4
  f B0 27 rel0 61
  a B*S*f*2
  a B*S*f*2
  f B0 27 rel0 55
  f B0 27 rel0 58
  f B0 27 rel0 62
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 56
  f B0 27 rel0 57
  f B0 27 rel0 64
  a B*S*d*4
  f B0 27 rel0 67
  a d*f*4
  f B0 27 rel0 66
  a B*S*f*2
  f B0 27 rel0 54
  f B0 27 rel0 65
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 52
  f B0 27 rel0 53
  f B0 27 rel0 70
  a B*S*d*4
  f B0 27 rel0 72
  f B0 27 rel0 73
  a d*f*4
  f B0 27 rel0 71
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 50
  a d*4
  f B0 27 rel0 68
  f B0 27 rel0 76
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 75
  f B0 27 rel0 78
  f B0 27 rel0 79
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel0 49
  f B0 27 rel0 80
  f B0 27 rel0 81
  f B0 27 rel0 82
  a B*S*d*4
  f B0 27 rel0 83
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 45
  f B0 27 rel0 84
  f B0 27 rel0 85
  f B0 27 rel0 86
  f B0 27 rel0 87
  a B*S*d*2
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 43
  f B0 27 rel0 88
  a d*d*4
  f B0 27 rel0 89
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 27 rel0 25
  f B0 27 rel0 36
  f B0 27 rel0 37
  f B0 27 rel0 38
  f B0 27 rel0 39
  f B0 27 rel0 40
  f B0 27 rel0 41
  f B0 27 rel0 90
  f B0 27 rel0 95
  a B*S*d*4
  f B0 27 rel0 92
  a B*S*kv*4
  f B0 27 rel0 93
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 98
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 100
  a B*S*kv*2
  f B0 27 rel0 99
  f B0 27 rel0 102
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 97
  f B0 27 rel0 103
  f B0 27 rel0 104
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 105
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 107
  a B*S*d*2
  f B0 27 rel0 106
  f B0 27 rel0 109
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 96
  f B0 27 rel0 110
  f B0 27 rel0 111
  a B*S*d*2
  a d*kv*2
  f B0 27 rel0 23
  f B0 27 rel0 24
  a kv*2
  f B0 27 rel0 94
  a B*S*d*4
  f B0 27 rel0 112
  a d*kv*4
  f B0 27 rel0 113
  a kv*4
  f B0 27 rel0 114
  a B*S*kv*2
  f B0 27 rel0 101
  a B*S*d*2
  a d*kv*2
  f B0 27 rel0 19
  f B0 27 rel0 20
  a kv*2
  f B0 27 rel0 118
  a B*S*d*4
  f B0 27 rel0 119
  f B0 27 rel0 122
  a d*kv*4
  f B0 27 rel0 120
  a kv*4
  f B0 27 rel0 121
  a B*S*d*2
  f B0 27 rel0 108
  a B*S*d*2
  a d*d*2
  f B0 27 rel0 15
  f B0 27 rel0 16
  a d*2
  f B0 27 rel0 125
  a B*S*d*4
  f B0 27 rel0 126
  f B0 27 rel0 129
  a d*d*4
  f B0 27 rel0 127
  a d*4
  f B0 27 rel0 128
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 12
  a d*4
  f B0 27 rel0 115
  f B0 27 rel0 133
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 132
end
f B0 27 end0 135
f B0 27 end0 136
a B*S*4
a B*S*4
a B*S*4
f B0 27 end0 11
f B0 27 end0 137
f B0 30 - 0
f B0 31 - 0
a B*S*d*4
f B0 32 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f F0 3 - 0
f F0 25 - 0
f F0 28 - 0
f B0 37 - 0
f B0 39 - 0
f B0 40 - 0
f B0 41 - 0
a d*V*4
f B0 0 - 0
f B0 25 - 0
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
f B0 16 - 0
loop L
  f B0 27 rel-1 134 first B0 20 - 0
  f B0 27 rel0 63
  f B0 27 rel0 69
  f B0 27 rel0 74
  f B0 27 rel0 77
  f B0 27 rel0 91
  f B0 27 rel0 116
  f B0 27 rel0 117
  f B0 27 rel0 123
  f B0 27 rel0 124
  f B0 27 rel0 130
  f B0 27 rel0 131
end
f B0 27 end0 134
f B0 50 - 0
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
f F-1 50 - 0
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
  f F0 33 rel0 3
  a B*S*d*4
  f F0 33 rel0 1
  f F0 33 rel0 4
  a d*2
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  f F0 33 rel0 8
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 12
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 16
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f F0 33 rel0 19
  a B*S*d*4
  f F0 33 rel0 20
  a B*S*d*4
  f F0 33 rel0 18
  f F0 33 rel0 21
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f F0 33 rel0 24
  a B*S*kv*4
  f F0 33 rel0 25
  a B*S*kv*4
  f F0 33 rel0 9
  f F0 33 rel0 13
  f F0 33 rel0 23
  f F0 33 rel0 26
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 33 rel0 28
  f F0 33 rel0 29
  f F0 33 rel0 30
  f F0 33 rel0 31
  f F0 33 rel0 33
  f F0 33 rel0 34
  a d*d*2
  a B*S*d*2
  f F0 33 rel0 5
  f F0 33 rel0 17
  f F0 33 rel0 22
  f F0 33 rel0 27
  f F0 33 rel0 32
  a B*S*d*4
  f F0 33 rel0 36
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 38
  a B*S*4
  a B*S*4
  f F0 33 rel0 40
  a B*S*d*4
  f F0 33 rel0 41
  a B*S*d*4
  f F0 33 rel0 39
  f F0 33 rel0 42
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 45
  a B*S*f*2
  f F0 33 rel0 46
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 49
  a B*S*f*2
  f F0 33 rel0 47
  f F0 33 rel0 50
  a d*f*2
  a B*S*d*2
  f F0 33 rel0 43
  f F0 33 rel0 51
  a B*S*d*4
  f F0 33 rel0 37
  f F0 33 rel0 53
end
a B*S*d*4
a B*S*4
f F0 34 - 0
a B*S*4
a B*S*4
f F0 37 - 0
a B*S*d*4
a B*S*d*4
f F0 35 - 0
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
  f F0 33 rel0 6
  f F0 33 rel0 7
  f F0 33 rel0 10
  f F0 33 rel0 11
  f F0 33 rel0 14
  f F0 33 rel0 15
  f F0 33 rel0 35
  f F0 33 rel0 44
  f F0 33 rel0 48
  f F0 33 rel0 52
end
f F0 41 - 0
f F0 45 - 0
f F0 46 - 0
f F0 47 - 0
phase B2
a 4
a B*S*V*4
f F0 48 - 0
f F0 51 - 0
a B*S*V*4
f F0 49 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 43 - 0
f F0 44 - 0
f B0 7 - 0
a B*S*d*4
f B0 10 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 40 - 0
f B0 14 - 0
f B0 19 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
loop L
  f B0 27 rel-1 135 first B0 18 - 0
  f B0 27 rel-1 136 first B0 24 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel-1 11 first F0 38 - 0
  f B0 27 rel-1 137 first B0 26 - 0
  f B0 27 rel0 0
  f B0 27 rel0 1
  a B*S*d*4
  f B0 27 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 54
  f B0 27 rel0 3
  f B0 27 rel0 4
  f B0 27 rel0 5
  f B0 27 rel0 6
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 8
  a B*S*4
  a B*S*4
  f B0 27 rel0 10
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 9
  a d*2
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 27
  a B*S*d*4
  f B0 27 rel0 28
  a B*S*d*4
  f B0 27 rel0 26
  f B0 27 rel0 29
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 32
  a B*S*kv*4
  f B0 27 rel0 33
  a B*S*kv*4
  f B0 27 rel0 17
  f B0 27 rel0 21
  f B0 27 rel0 31
  f B0 27 rel0 34
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 27 rel0 42
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 13
  f B0 27 rel0 30
  f B0 27 rel0 35
  a B*S*d*4
  f B0 27 rel0 44
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 46
  a B*S*4
  a B*S*4
  f B0 27 rel0 48
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 47
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  f B0 27 rel0 14
  f B0 27 rel0 18
  f B0 27 rel0 22
  f B0 27 rel0 51
  a d*f*2
  a B*S*f*2
  f B0 27 rel0 7
  f B0 27 rel0 59
  f B0 27 rel0 60
  a d*f*4
  f B0 27 rel0 61
  a B*S*f*2
  a B*S*f*2
  f B0 27 rel0 55
  f B0 27 rel0 58
  f B0 27 rel0 62
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 56
  f B0 27 rel0 57
  f B0 27 rel0 64
  a B*S*d*4
  f B0 27 rel0 67
  a d*f*4
  f B0 27 rel0 66
  a B*S*f*2
  f B0 27 rel0 54
  f B0 27 rel0 65
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 52
  f B0 27 rel0 53
  f B0 27 rel0 70
  a B*S*d*4
  f B0 27 rel0 72
  f B0 27 rel0 73
  a d*f*4
  f B0 27 rel0 71
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 50
  a d*4
  f B0 27 rel0 68
  f B0 27 rel0 76
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 75
  f B0 27 rel0 78
  f B0 27 rel0 79
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel0 49
  f B0 27 rel0 80
  f B0 27 rel0 81
  f B0 27 rel0 82
  a B*S*d*4
  f B0 27 rel0 83
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 45
  f B0 27 rel0 84
  f B0 27 rel0 85
  f B0 27 rel0 86
  f B0 27 rel0 87
  a B*S*d*2
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 43
  f B0 27 rel0 88
  a d*d*4
  f B0 27 rel0 89
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 27 rel0 25
  f B0 27 rel0 36
  f B0 27 rel0 37
  f B0 27 rel0 38
  f B0 27 rel0 39
  f B0 27 rel0 40
  f B0 27 rel0 41
  f B0 27 rel0 90
  f B0 27 rel0 95
  a B*S*d*4
  f B0 27 rel0 92
  a B*S*kv*4
  f B0 27 rel0 93
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 98
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 100
  a B*S*kv*2
  f B0 27 rel0 99
  f B0 27 rel0 102
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 97
  f B0 27 rel0 103
  f B0 27 rel0 104
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 105
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 107
  a B*S*d*2
  f B0 27 rel0 106
  f B0 27 rel0 109
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 96
  f B0 27 rel0 110
  f B0 27 rel0 111
  a B*S*d*2
  a d*kv*2
  f B0 27 rel0 23
  f B0 27 rel0 24
  a kv*2
  f B0 27 rel0 94
  a B*S*d*4
  f B0 27 rel0 112
  a d*kv*4
  f B0 27 rel0 113
  a kv*4
  f B0 27 rel0 114
  a B*S*kv*2
  f B0 27 rel0 101
  a B*S*d*2
  a d*kv*2
  f B0 27 rel0 19
  f B0 27 rel0 20
  a kv*2
  f B0 27 rel0 118
  a B*S*d*4
  f B0 27 rel0 119
  f B0 27 rel0 122
  a d*kv*4
  f B0 27 rel0 120
  a kv*4
  f B0 27 rel0 121
  a B*S*d*2
  f B0 27 rel0 108
  a B*S*d*2
  a d*d*2
  f B0 27 rel0 15
  f B0 27 rel0 16
  a d*2
  f B0 27 rel0 125
  a B*S*d*4
  f B0 27 rel0 126
  f B0 27 rel0 129
  a d*d*4
  f B0 27 rel0 127
  a d*4
  f B0 27 rel0 128
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 12
  a d*4
  f B0 27 rel0 115
  f B0 27 rel0 133
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 132
end
f B0 27 end0 135
f B0 27 end0 136
a B*S*4
a B*S*4
a B*S*4
f B0 27 end0 11
f B0 27 end0 137
f B0 30 - 0
f B0 31 - 0
a B*S*d*4
f B0 32 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f F0 3 - 0
f F0 25 - 0
f F0 28 - 0
f B0 37 - 0
f B0 39 - 0
f B0 40 - 0
f B0 41 - 0
a d*V*4
f B0 0 - 0
f B0 25 - 0
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
f B0 16 - 0
loop L
  f B0 27 rel-1 134 first B0 20 - 0
  f B0 27 rel0 63
  f B0 27 rel0 69
  f B0 27 rel0 74
  f B0 27 rel0 77
  f B0 27 rel0 91
  f B0 27 rel0 116
  f B0 27 rel0 117
  f B0 27 rel0 123
  f B0 27 rel0 124
  f B0 27 rel0 130
  f B0 27 rel0 131
end
f B0 27 end0 134
f B0 50 - 0
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
