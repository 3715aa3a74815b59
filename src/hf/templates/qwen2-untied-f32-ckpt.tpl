# qwen2-untied-f32-ckpt: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates-untied/hf-memory (shapes a and c), torch 2.11.0+cu130, transformers 5.17.0
template qwen2-untied f32 ckpt
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
a B*S*d*4
a 1048576
loop L-1
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f F0 45 rel0 3
  a B*S*d*4
  f F0 45 rel0 4
  a B*S*d*4
  f F0 45 rel0 2
  f F0 45 rel0 5
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f F0 45 rel0 8
  a B*S*kv*4
  f F0 45 rel0 9
  a B*S*kv*4
  f F0 45 rel-1 49 first F0 43 - 0
  f F0 45 rel0 0
  f F0 45 rel0 7
  f F0 45 rel0 10
  a B*S*d*4
  a S*S
  a S*S
  f F0 45 rel0 13
  a 4
  a 4
  a S*S*4
  f F0 45 rel0 14
  f F0 45 rel0 15
  f F0 45 rel0 16
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  f F0 45 rel0 20
  f F0 45 rel0 21
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f F0 45 rel0 22
  f F0 45 rel0 24
  f F0 45 rel0 25
  f F0 45 rel0 26
  a B*S*d*4
  f F0 45 rel0 12
  f F0 45 rel0 17
  f F0 45 rel0 18
  f F0 45 rel0 19
  f F0 45 rel0 23
  a B*S*d*4
  f F0 45 rel0 27
  a B*S*d*4
  f F0 45 rel-1 48 first F0 40 - 0
  f F0 45 rel0 1
  f F0 45 rel0 6
  f F0 45 rel0 11
  f F0 45 rel0 28
  a B*S*d*4
  f F0 45 rel0 29
  a B*S*d*4
  a B*S*4
  f F0 45 rel0 31
  a B*S*4
  a B*S*4
  f F0 45 rel0 33
  a B*S*d*4
  f F0 45 rel0 34
  a B*S*d*4
  f F0 45 rel0 32
  f F0 45 rel0 35
  a B*S*f*4
  a B*S*f*4
  f F0 45 rel0 37
  a B*S*f*4
  a B*S*f*4
  f F0 45 rel0 38
  f F0 45 rel0 39
  a B*S*d*4
  f F0 45 rel0 36
  f F0 45 rel0 40
  a B*S*d*4
  f F0 45 rel0 30
  f F0 45 rel0 41
  a B*S*d*4
  a B*S*4
  f F0 45 rel0 43
  a B*S*4
  a B*S*4
  f F0 45 rel0 45
  a B*S*d*4
  f F0 45 rel0 46
  a B*S*d*4
  f F0 45 rel0 44
  f F0 45 rel0 47
  a B*S*d*4
end
a B*S*kv*4
a B*S*kv*4
a B*S*d*4
a B*S*d*2
a B*S*d*4
f F0 49 - 0
a B*S*d*4
f F0 50 - 0
a B*S*d*4
f F0 48 - 0
f F0 52 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f F0 58 - 0
a B*S*kv*4
f F0 59 - 0
a B*S*kv*4
f F0 45 end1 49
f F0 46 - 0
f F0 57 - 0
f F0 61 - 0
a B*S*d*4
a S*S
a S*S
f F0 69 - 0
a 4
a 4
a S*S*4
f F0 70 - 0
f F0 72 - 0
f F0 73 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
a B*S*d*4
a B*S*S*H*4
f F0 80 - 0
f F0 81 - 0
a B*S*S*H*4
a B*S*S*H
a B*S*H
a 4
f F0 82 - 0
f F0 86 - 0
f F0 87 - 0
f F0 88 - 0
a B*S*d*4
f F0 68 - 0
f F0 74 - 0
f F0 78 - 0
f F0 79 - 0
f F0 85 - 0
a B*S*d*4
f F0 93 - 0
a B*S*d*4
f F0 45 end1 48
f F0 47 - 0
f F0 54 - 0
f F0 63 - 0
f F0 99 - 0
a B*S*d*4
f F0 101 - 0
a B*S*d*4
a B*S*4
f F0 109 - 0
a B*S*4
a B*S*4
f F0 112 - 0
a B*S*d*4
f F0 113 - 0
a B*S*d*4
f F0 110 - 0
f F0 115 - 0
a B*S*f*4
a B*S*f*4
f F0 120 - 0
a B*S*f*4
a B*S*f*4
f F0 121 - 0
f F0 123 - 0
a B*S*d*4
f F0 117 - 0
f F0 124 - 0
a B*S*d*4
f F0 107 - 0
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
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 142 - 0
f F0 143 - 0
phase B0
a 4
a B*S*V*4
f F0 144 - 0
f F0 147 - 0
a B*S*V*4
f F0 145 - 0
f B0 1 - 0
a d*V*4
a 33554432
a B*S*d*4
f F0 140 - 0
f B0 4 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 139 - 0
f B0 9 - 0
f B0 13 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 12 - 0
f B0 18 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 137 - 0
f B0 20 - 0
f B0 23 - 0
f B0 24 - 0
a B*S*d*4
f B0 25 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 130 - 0
f B0 30 - 0
f B0 32 - 0
f B0 33 - 0
f B0 34 - 0
a B*S*d*4
a B*S*4
f B0 40 - 0
a B*S*4
a B*S*4
f B0 43 - 0
a B*S*d*4
a B*S*d*4
f B0 41 - 0
a B*S*d*4
a 1048576
loop L-1
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 51 rel0 3
  a B*S*d*4
  f B0 51 rel0 4
  a B*S*d*4
  f B0 51 rel0 2
  f B0 51 rel0 5
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 51 rel0 8
  a B*S*kv*4
  f B0 51 rel0 9
  a B*S*kv*4
  f B0 51 rel-1 119 first B0 49 - 0
  f B0 51 rel0 0
  f B0 51 rel0 7
  f B0 51 rel0 10
  a B*S*d*4
  a S*S
  a S*S
  f B0 51 rel0 13
  a 4
  a 4
  a S*S*4
  f B0 51 rel0 14
  f B0 51 rel0 15
  f B0 51 rel0 16
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f B0 51 rel0 22
  f B0 51 rel0 24
  f B0 51 rel0 25
  f B0 51 rel0 26
  a B*S*d*4
  f B0 51 rel0 12
  f B0 51 rel0 17
  f B0 51 rel0 18
  a B*S*d*4
  f B0 51 rel0 27
  a B*S*d*4
  f B0 51 rel0 1
  f B0 51 rel0 6
  f B0 51 rel0 11
  a B*S*d*4
  f B0 51 rel0 29
  a B*S*d*4
  a B*S*4
  f B0 51 rel0 31
  a B*S*4
  a B*S*4
  f B0 51 rel0 33
  a B*S*d*4
  a B*S*d*4
  f B0 51 rel0 32
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a d*f*4
  a B*S*f*4
  f B0 51 rel0 40
  a B*S*f*4
  a B*S*f*4
  f B0 51 rel0 38
  f B0 51 rel0 39
  f B0 51 rel0 42
  a d*f*4
  a B*S*d*4
  f B0 51 rel0 43
  a B*S*f*4
  f B0 51 rel0 37
  f B0 51 rel0 44
  a d*f*4
  a B*S*d*4
  f B0 51 rel0 36
  f B0 51 rel0 47
  a B*S*d*4
  f B0 51 rel0 46
  f B0 51 rel0 49
  a B*S*d*4
  a B*S*d*4
  f B0 51 rel0 35
  a d*4
  f B0 51 rel0 50
  f B0 51 rel0 52
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 51 rel0 51
  f B0 51 rel0 54
  f B0 51 rel0 55
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 51 rel0 34
  f B0 51 rel0 56
  f B0 51 rel0 57
  f B0 51 rel0 58
  a B*S*d*4
  f B0 51 rel0 59
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 51 rel0 30
  f B0 51 rel0 60
  f B0 51 rel0 61
  f B0 51 rel0 62
  f B0 51 rel0 63
  a d*d*4
  a B*S*d*4
  f B0 51 rel0 28
  a B*S*d*4
  f B0 51 rel0 65
  a B*S*d*4
  a B*S*S*H*4
  f B0 51 rel0 19
  f B0 51 rel0 66
  a B*S*S*H*4
  a B*S*S*H*4
  f B0 51 rel0 23
  f B0 51 rel0 68
  f B0 51 rel0 70
  a B*S*d*4
  a B*S*d*4
  f B0 51 rel0 20
  f B0 51 rel0 21
  f B0 51 rel0 69
  a B*S*d*4
  f B0 51 rel0 71
  a B*S*kv*4
  f B0 51 rel0 67
  a B*S*kv*4
  f B0 51 rel0 73
  a B*S*d*4
  f B0 51 rel0 72
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 51 rel0 78
  a B*S*kv*4
  f B0 51 rel0 77
  f B0 51 rel0 80
  a B*S*kv*4
  f B0 51 rel0 75
  f B0 51 rel0 81
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 51 rel0 83
  a B*S*d*4
  f B0 51 rel0 82
  f B0 51 rel0 85
  a B*S*d*4
  f B0 51 rel0 76
  f B0 51 rel0 86
  a B*S*kv*4
  f B0 51 rel0 74
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 51 rel0 87
  a B*S*kv*4
  f B0 51 rel0 79
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 51 rel0 91
  a B*S*d*4
  f B0 51 rel0 88
  f B0 51 rel0 92
  a B*S*d*4
  f B0 51 rel0 84
  a B*S*d*4
  a d*d*4
  f B0 51 rel-1 118 first B0 47 - 0
  a d*4
  f B0 51 rel0 96
  f B0 51 rel0 97
  a B*S*d*4
  a B*S*d*4
  f B0 51 rel-1 117 first B0 46 - 0
  a d*4
  f B0 51 rel0 95
  f B0 51 rel0 101
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 51 rel0 100
  f B0 51 rel0 103
  f B0 51 rel0 104
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 51 rel-1 116 first B0 44 - 0
  f B0 51 rel0 105
  f B0 51 rel0 106
  f B0 51 rel0 107
  a B*S*d*4
  f B0 51 rel0 108
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 45 mir-1 42
  f B0 51 rel0 109
  f B0 51 rel0 110
  f B0 51 rel0 111
  f B0 51 rel0 112
  a B*S*d*4
  a B*S*4
  f B0 51 rel0 113
  a B*S*4
  a B*S*4
  f B0 51 rel0 115
  a B*S*d*4
  a B*S*d*4
  f B0 51 rel0 114
  a B*S*d*4
end
a B*S*kv*4
a B*S*kv*4
a B*S*d*4
a B*S*d*2
a B*S*d*4
f B0 55 - 0
a B*S*d*4
f B0 56 - 0
a B*S*d*4
f B0 54 - 0
f B0 58 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f B0 64 - 0
a B*S*kv*4
f B0 65 - 0
a B*S*kv*4
f B0 51 end1 119
f B0 52 - 0
f B0 63 - 0
f B0 67 - 0
a B*S*d*4
a S*S
a S*S
f B0 75 - 0
a 4
a 4
a S*S*4
f B0 76 - 0
f B0 78 - 0
f B0 79 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
a B*S*d*4
a B*S*S*H*4
a B*S*S*H*4
a B*S*S*H
a B*S*H
a 4
f B0 88 - 0
f B0 90 - 0
f B0 91 - 0
f B0 92 - 0
a B*S*d*4
f B0 74 - 0
f B0 80 - 0
f B0 84 - 0
a B*S*d*4
f B0 97 - 0
a B*S*d*4
f B0 53 - 0
f B0 60 - 0
f B0 69 - 0
a B*S*d*4
f B0 103 - 0
a B*S*d*4
a B*S*4
f B0 109 - 0
a B*S*4
a B*S*4
f B0 112 - 0
a B*S*d*4
a B*S*d*4
f B0 110 - 0
a B*S*f*4
a B*S*f*4
a B*S*f*4
a B*S*f*4
a d*f*4
a B*S*f*4
f B0 121 - 0
a B*S*f*4
a B*S*f*4
f B0 119 - 0
f B0 120 - 0
f B0 123 - 0
a d*f*4
a B*S*d*4
f B0 125 - 0
a B*S*f*4
f B0 118 - 0
f B0 126 - 0
a d*f*4
a B*S*d*4
f B0 116 - 0
f B0 133 - 0
a B*S*d*4
f B0 131 - 0
f B0 137 - 0
a B*S*d*4
a B*S*d*4
f B0 115 - 0
a d*4
f B0 140 - 0
f B0 144 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 143 - 0
f B0 149 - 0
f B0 150 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 113 - 0
f B0 151 - 0
f B0 155 - 0
f B0 156 - 0
a B*S*d*4
f B0 157 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f B0 107 - 0
f B0 162 - 0
f B0 164 - 0
f B0 165 - 0
f B0 166 - 0
a d*d*4
a B*S*d*4
f B0 101 - 0
a B*S*d*4
f B0 173 - 0
a B*S*d*4
a B*S*S*H*4
f B0 85 - 0
f B0 175 - 0
a B*S*S*H*4
a B*S*S*H*4
f B0 89 - 0
f B0 178 - 0
f B0 182 - 0
a B*S*d*4
a B*S*d*4
f B0 86 - 0
f B0 87 - 0
f B0 181 - 0
a B*S*d*4
f B0 186 - 0
a B*S*kv*4
f B0 177 - 0
a B*S*kv*4
f B0 191 - 0
a B*S*d*4
f B0 187 - 0
a B*S*kv*4
a B*S*kv*2
a B*S*kv*4
f B0 200 - 0
a B*S*kv*4
f B0 199 - 0
f B0 203 - 0
a B*S*kv*4
f B0 195 - 0
f B0 206 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*4
f B0 210 - 0
a B*S*d*4
f B0 209 - 0
f B0 213 - 0
a B*S*d*4
f B0 197 - 0
f B0 216 - 0
a B*S*kv*4
f B0 193 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 219 - 0
a B*S*kv*4
f B0 201 - 0
a B*S*d*4
a d*kv*4
a kv*4
f B0 225 - 0
a B*S*d*4
f B0 221 - 0
f B0 227 - 0
a B*S*d*4
f B0 211 - 0
a B*S*d*4
a d*d*4
f B0 51 end1 118
a d*4
f B0 234 - 0
f B0 236 - 0
a B*S*d*4
a B*S*d*4
f B0 51 end1 117
a d*4
f B0 231 - 0
f B0 243 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 242 - 0
f B0 248 - 0
f B0 249 - 0
a B*S*4
a B*S*4
a B*S*4
f B0 51 end1 116
f B0 250 - 0
f B0 254 - 0
f B0 255 - 0
a B*S*d*4
f B0 256 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 0 - 0
f F0 2 - 0
f F0 24 - 0
f F0 27 - 0
f B0 261 - 0
f B0 263 - 0
f B0 264 - 0
f B0 265 - 0
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
  f B0 51 rel-1 102 first B0 14 - 0
  f B0 51 rel0 41 last B0 122 - 0
  f B0 51 rel0 45 last B0 130 - 0
  f B0 51 rel0 48 last B0 136 - 0
  f B0 51 rel0 53 last B0 146 - 0
  f B0 51 rel0 64 last B0 172 - 0
  f B0 51 rel0 89 last B0 222 - 0
  f B0 51 rel0 90 last B0 223 - 0
  f B0 51 rel0 93 last B0 228 - 0
  f B0 51 rel0 94 last B0 229 - 0
  f B0 51 rel0 98 last B0 237 - 0
  f B0 51 rel0 99 last B0 239 - 0
end
f B0 245 - 0
f B0 274 - 0
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
f F-1 146 - 0
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
  f F0 33 rel0 27
  f F0 33 rel0 28
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
  f F0 33 rel0 26
  f F0 33 rel0 30
  a B*S*d*4
  f F0 33 rel0 34
  a B*S*d*4
  f F0 33 rel0 5
  f F0 33 rel0 8
  f F0 33 rel0 13
  f F0 33 rel0 18
  f F0 33 rel0 35
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
  a B*S*f*4
  a B*S*f*4
  f F0 33 rel0 44
  a B*S*f*4
  a B*S*f*4
  f F0 33 rel0 45
  f F0 33 rel0 46
  a B*S*d*4
  f F0 33 rel0 43
  f F0 33 rel0 47
  a B*S*d*4
  f F0 33 rel0 37
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
f F0 35 - 0
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 43 - 0
f F0 44 - 0
phase B1
a 4
a B*S*V*4
f F0 45 - 0
f F0 48 - 0
a B*S*V*4
f F0 46 - 0
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
loop L
  f B0 20 rel-1 117 first B0 11 - 0
  f B0 20 rel-1 118 first B0 17 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 20 rel-1 10 first F0 38 - 0
  f B0 20 rel-1 119 first B0 19 - 0
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
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 7
  a B*S*4
  a B*S*4
  f B0 20 rel0 9
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 8
  a B*S*d*4
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 20 rel0 17
  a B*S*d*4
  f B0 20 rel0 18
  a B*S*d*4
  f B0 20 rel0 16
  f B0 20 rel0 19
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 20 rel0 22
  a B*S*kv*4
  f B0 20 rel0 23
  a B*S*kv*4
  f B0 20 rel0 13
  f B0 20 rel0 14
  f B0 20 rel0 21
  f B0 20 rel0 24
  a B*S*d*4
  a S*S
  a S*S
  f B0 20 rel0 27
  a 4
  a 4
  a S*S*4
  f B0 20 rel0 28
  f B0 20 rel0 29
  f B0 20 rel0 30
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f B0 20 rel0 36
  f B0 20 rel0 38
  f B0 20 rel0 39
  f B0 20 rel0 40
  a B*S*d*4
  f B0 20 rel0 26
  f B0 20 rel0 31
  f B0 20 rel0 32
  a B*S*d*4
  f B0 20 rel0 41
  a B*S*d*4
  f B0 20 rel0 15
  f B0 20 rel0 20
  f B0 20 rel0 25
  a B*S*d*4
  f B0 20 rel0 43
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 45
  a B*S*4
  a B*S*4
  f B0 20 rel0 47
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 46
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a d*f*4
  a B*S*f*4
  f B0 20 rel0 54
  a B*S*f*4
  a B*S*f*4
  f B0 20 rel0 52
  f B0 20 rel0 53
  f B0 20 rel0 56
  a d*f*4
  a B*S*d*4
  f B0 20 rel0 57
  a B*S*f*4
  f B0 20 rel0 51
  f B0 20 rel0 58
  a d*f*4
  a B*S*d*4
  f B0 20 rel0 50
  f B0 20 rel0 61
  a B*S*d*4
  f B0 20 rel0 60
  f B0 20 rel0 63
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 49
  a d*4
  f B0 20 rel0 64
  f B0 20 rel0 66
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 65
  f B0 20 rel0 68
  f B0 20 rel0 69
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 20 rel0 48
  f B0 20 rel0 70
  f B0 20 rel0 71
  f B0 20 rel0 72
  a B*S*d*4
  f B0 20 rel0 73
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 44
  f B0 20 rel0 74
  f B0 20 rel0 75
  f B0 20 rel0 76
  f B0 20 rel0 77
  a d*d*4
  a B*S*d*4
  f B0 20 rel0 42
  a B*S*d*4
  f B0 20 rel0 79
  a B*S*d*4
  a B*S*S*H*4
  f B0 20 rel0 33
  f B0 20 rel0 80
  a B*S*S*H*4
  a B*S*S*H*4
  f B0 20 rel0 37
  f B0 20 rel0 82
  f B0 20 rel0 84
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 34
  f B0 20 rel0 35
  f B0 20 rel0 83
  a B*S*d*4
  f B0 20 rel0 85
  a B*S*kv*4
  f B0 20 rel0 81
  a B*S*kv*4
  f B0 20 rel0 87
  a B*S*d*4
  f B0 20 rel0 86
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 20 rel0 92
  a B*S*kv*4
  f B0 20 rel0 91
  f B0 20 rel0 94
  a B*S*kv*4
  f B0 20 rel0 89
  f B0 20 rel0 95
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 20 rel0 97
  a B*S*d*4
  f B0 20 rel0 96
  f B0 20 rel0 99
  a B*S*d*4
  f B0 20 rel0 90
  f B0 20 rel0 100
  a B*S*kv*4
  f B0 20 rel0 88
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 101
  a B*S*kv*4
  f B0 20 rel0 93
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 105
  a B*S*d*4
  f B0 20 rel0 102
  f B0 20 rel0 106
  a B*S*d*4
  f B0 20 rel0 98
  a B*S*d*4
  a d*d*4
  f B0 20 rel0 12
  a d*4
  f B0 20 rel0 110
  f B0 20 rel0 111
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 11
  a d*4
  f B0 20 rel0 109
  f B0 20 rel0 115
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 114
end
f B0 20 end0 117
f B0 20 end0 118
a B*S*4
a B*S*4
a B*S*4
f B0 20 end0 10
f B0 20 end0 119
f B0 23 - 0
f B0 24 - 0
a B*S*d*4
f B0 25 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f F0 3 - 0
f F0 25 - 0
f F0 28 - 0
f B0 30 - 0
f B0 32 - 0
f B0 33 - 0
f B0 34 - 0
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
  f B0 20 rel-1 116 first B0 13 - 0
  f B0 20 rel0 55
  f B0 20 rel0 59
  f B0 20 rel0 62
  f B0 20 rel0 67
  f B0 20 rel0 78
  f B0 20 rel0 103
  f B0 20 rel0 104
  f B0 20 rel0 107
  f B0 20 rel0 108
  f B0 20 rel0 112
  f B0 20 rel0 113
end
f B0 20 end0 116
f B0 43 - 0
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
f F-1 47 - 0
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
  f F0 33 rel0 27
  f F0 33 rel0 28
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
  f F0 33 rel0 26
  f F0 33 rel0 30
  a B*S*d*4
  f F0 33 rel0 34
  a B*S*d*4
  f F0 33 rel0 5
  f F0 33 rel0 8
  f F0 33 rel0 13
  f F0 33 rel0 18
  f F0 33 rel0 35
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
  a B*S*f*4
  a B*S*f*4
  f F0 33 rel0 44
  a B*S*f*4
  a B*S*f*4
  f F0 33 rel0 45
  f F0 33 rel0 46
  a B*S*d*4
  f F0 33 rel0 43
  f F0 33 rel0 47
  a B*S*d*4
  f F0 33 rel0 37
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
f F0 35 - 0
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 43 - 0
f F0 44 - 0
phase B2
a 4
a B*S*V*4
f F0 45 - 0
f F0 48 - 0
a B*S*V*4
f F0 46 - 0
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
loop L
  f B0 20 rel-1 117 first B0 11 - 0
  f B0 20 rel-1 118 first B0 17 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 20 rel-1 10 first F0 38 - 0
  f B0 20 rel-1 119 first B0 19 - 0
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
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 7
  a B*S*4
  a B*S*4
  f B0 20 rel0 9
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 8
  a B*S*d*4
  a B*S*kv*4
  a B*S*kv*4
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 20 rel0 17
  a B*S*d*4
  f B0 20 rel0 18
  a B*S*d*4
  f B0 20 rel0 16
  f B0 20 rel0 19
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 20 rel0 22
  a B*S*kv*4
  f B0 20 rel0 23
  a B*S*kv*4
  f B0 20 rel0 13
  f B0 20 rel0 14
  f B0 20 rel0 21
  f B0 20 rel0 24
  a B*S*d*4
  a S*S
  a S*S
  f B0 20 rel0 27
  a 4
  a 4
  a S*S*4
  f B0 20 rel0 28
  f B0 20 rel0 29
  f B0 20 rel0 30
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  a B*S*S*H*4
  a B*S*S*H*4
  a B*S*S*H
  a B*S*H
  a 4
  f B0 20 rel0 36
  f B0 20 rel0 38
  f B0 20 rel0 39
  f B0 20 rel0 40
  a B*S*d*4
  f B0 20 rel0 26
  f B0 20 rel0 31
  f B0 20 rel0 32
  a B*S*d*4
  f B0 20 rel0 41
  a B*S*d*4
  f B0 20 rel0 15
  f B0 20 rel0 20
  f B0 20 rel0 25
  a B*S*d*4
  f B0 20 rel0 43
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 45
  a B*S*4
  a B*S*4
  f B0 20 rel0 47
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 46
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  a d*f*4
  a B*S*f*4
  f B0 20 rel0 54
  a B*S*f*4
  a B*S*f*4
  f B0 20 rel0 52
  f B0 20 rel0 53
  f B0 20 rel0 56
  a d*f*4
  a B*S*d*4
  f B0 20 rel0 57
  a B*S*f*4
  f B0 20 rel0 51
  f B0 20 rel0 58
  a d*f*4
  a B*S*d*4
  f B0 20 rel0 50
  f B0 20 rel0 61
  a B*S*d*4
  f B0 20 rel0 60
  f B0 20 rel0 63
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 49
  a d*4
  f B0 20 rel0 64
  f B0 20 rel0 66
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 65
  f B0 20 rel0 68
  f B0 20 rel0 69
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 20 rel0 48
  f B0 20 rel0 70
  f B0 20 rel0 71
  f B0 20 rel0 72
  a B*S*d*4
  f B0 20 rel0 73
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 44
  f B0 20 rel0 74
  f B0 20 rel0 75
  f B0 20 rel0 76
  f B0 20 rel0 77
  a d*d*4
  a B*S*d*4
  f B0 20 rel0 42
  a B*S*d*4
  f B0 20 rel0 79
  a B*S*d*4
  a B*S*S*H*4
  f B0 20 rel0 33
  f B0 20 rel0 80
  a B*S*S*H*4
  a B*S*S*H*4
  f B0 20 rel0 37
  f B0 20 rel0 82
  f B0 20 rel0 84
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 34
  f B0 20 rel0 35
  f B0 20 rel0 83
  a B*S*d*4
  f B0 20 rel0 85
  a B*S*kv*4
  f B0 20 rel0 81
  a B*S*kv*4
  f B0 20 rel0 87
  a B*S*d*4
  f B0 20 rel0 86
  a B*S*kv*4
  a B*S*kv*2
  a B*S*kv*4
  f B0 20 rel0 92
  a B*S*kv*4
  f B0 20 rel0 91
  f B0 20 rel0 94
  a B*S*kv*4
  f B0 20 rel0 89
  f B0 20 rel0 95
  a B*S*d*4
  a B*S*d*2
  a B*S*d*4
  f B0 20 rel0 97
  a B*S*d*4
  f B0 20 rel0 96
  f B0 20 rel0 99
  a B*S*d*4
  f B0 20 rel0 90
  f B0 20 rel0 100
  a B*S*kv*4
  f B0 20 rel0 88
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 101
  a B*S*kv*4
  f B0 20 rel0 93
  a B*S*d*4
  a d*kv*4
  a kv*4
  f B0 20 rel0 105
  a B*S*d*4
  f B0 20 rel0 102
  f B0 20 rel0 106
  a B*S*d*4
  f B0 20 rel0 98
  a B*S*d*4
  a d*d*4
  f B0 20 rel0 12
  a d*4
  f B0 20 rel0 110
  f B0 20 rel0 111
  a B*S*d*4
  a B*S*d*4
  f B0 20 rel0 11
  a d*4
  f B0 20 rel0 109
  f B0 20 rel0 115
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 20 rel0 114
end
f B0 20 end0 117
f B0 20 end0 118
a B*S*4
a B*S*4
a B*S*4
f B0 20 end0 10
f B0 20 end0 119
f B0 23 - 0
f B0 24 - 0
a B*S*d*4
f B0 25 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 1 - 0
f F0 3 - 0
f F0 25 - 0
f F0 28 - 0
f B0 30 - 0
f B0 32 - 0
f B0 33 - 0
f B0 34 - 0
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
  f B0 20 rel-1 116 first B0 13 - 0
  f B0 20 rel0 55
  f B0 20 rel0 59
  f B0 20 rel0 62
  f B0 20 rel0 67
  f B0 20 rel0 78
  f B0 20 rel0 103
  f B0 20 rel0 104
  f B0 20 rel0 107
  f B0 20 rel0 108
  f B0 20 rel0 112
  f B0 20 rel0 113
end
f B0 20 end0 116
f B0 43 - 0
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
