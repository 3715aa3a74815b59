# qwen2-untied-bf16: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates-untied/hf-memory (shapes a and c), torch 2.11.0+cu130, transformers 5.17.0
template qwen2-untied bf16 no-ckpt
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
a B*S*d*2
a B*S*d*2
f F0 38 - 0
f F0 43 - 0
a B*S*d*2
a 1048576
a B*S*kv*2
a B*S*kv*2
a B*S*d*2
a B*S*d
a B*S*d*2
f F0 53 - 0
a B*S*d*2
f F0 54 - 0
a B*S*d*2
f F0 52 - 0
f F0 56 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f F0 62 - 0
a B*S*kv*2
f F0 63 - 0
a B*S*kv*2
f F0 48 - 0
f F0 50 - 0
f F0 61 - 0
f F0 65 - 0
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f F0 76 - 0
a B*S*d*2
a B*S*d*2
f F0 78 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 82 - 0
a B*S*4
a B*S*4
f F0 85 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 83 - 0
f F0 88 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*d*2
a B*S*d*2
loop L-1
  f F0 99 rel-1 27 first F0 79 - 0
  f F0 99 rel-1 40 first F0 97 - 0
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 99 rel0 1
  a B*S*4
  a B*S*4
  f F0 99 rel0 3
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel0 2
  f F0 99 rel0 5
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 99 rel0 12
  a B*S*d*2
  f F0 99 rel0 13
  a B*S*d*2
  f F0 99 rel0 11
  f F0 99 rel0 14
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f F0 99 rel0 17
  a B*S*kv*2
  f F0 99 rel0 18
  a B*S*kv*2
  f F0 99 rel0 8
  f F0 99 rel0 9
  f F0 99 rel0 16
  f F0 99 rel0 19
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 99 rel0 25
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel0 26
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 99 rel0 29
  a B*S*4
  a B*S*4
  f F0 99 rel0 31
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel0 30
  f F0 99 rel0 33
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel-1 41 first F0 98 - 0
end
f F0 99 end1 27
f F0 99 end1 40
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 103 - 0
a B*S*4
a B*S*4
f F0 106 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 0 - 0
f F0 2 - 0
f F0 99 end1 41
f F0 104 - 0
f F0 109 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 117 - 0
f F0 118 - 0
f F0 119 - 0
phase B0
a 4
a B*S*V*4
f F0 120 - 0
f F0 123 - 0
a B*S*V*4
f F0 121 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 111 - 0
f B0 7 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 110 - 0
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
f F0 107 - 0
f B0 24 - 0
f B0 27 - 0
f B0 28 - 0
a B*S*d*4
f B0 29 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 102 - 0
f B0 34 - 0
f B0 36 - 0
f B0 37 - 0
f B0 38 - 0
a B*S*d*2
f B0 23 - 0
loop L-1
  a d*f*2
  a B*S*f*2
  f F0 99 mir-1 39
  a B*S*f*2
  a B*S*f*2
  f F0 99 mir-1 37
  f F0 99 mir-1 38
  f B0 46 rel0 1
  a d*f*2
  a B*S*d*2
  f B0 46 rel0 2
  a B*S*f*2
  f F0 99 mir-1 36
  f B0 46 rel0 3
  a d*f*2
  a B*S*d*2
  f F0 99 mir-1 35
  f B0 46 rel0 6
  a B*S*d*2
  f B0 46 rel0 5
  f B0 46 rel0 8
  a B*S*d*2
  a B*S*d*2
  a d*2
  f F0 99 mir-1 34
  f B0 46 rel0 9
  f B0 46 rel0 11
  a B*S*d*4
  f B0 46 rel0 10
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 46 rel0 13
  f B0 46 rel0 14
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 99 mir-1 32
  f B0 46 rel0 16
  f B0 46 rel0 17
  f B0 46 rel0 18
  a B*S*d*4
  f B0 46 rel0 19
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 99 mir-1 28
  f B0 46 rel0 20
  f B0 46 rel0 21
  f B0 46 rel0 22
  f B0 46 rel0 23
  a B*S*d*2
  f B0 46 rel0 15
  f B0 46 rel0 24
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f F0 99 mir-1 10
  f F0 99 mir-1 15
  f F0 99 mir-1 20
  f F0 99 mir-1 21
  f F0 99 mir-1 22
  f F0 99 mir-1 23
  f F0 99 mir-1 24
  f B0 46 rel0 26
  f B0 46 rel0 30
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 46 rel0 32
  a B*S*kv*2
  f B0 46 rel0 31
  f B0 46 rel0 34
  a B*S*kv*2
  f B0 46 rel0 28
  f B0 46 rel0 35
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 46 rel0 37
  a B*S*d*2
  f B0 46 rel0 36
  f B0 46 rel0 39
  a B*S*d*2
  f B0 46 rel0 27
  f B0 46 rel0 40
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 46 rel0 29
  a B*S*kv*2
  f B0 46 rel0 33
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 46 rel0 44
  a B*S*d*2
  f B0 46 rel0 41
  f B0 46 rel0 45
  a B*S*d*2
  f B0 46 rel0 38
  a B*S*d*2
  a d*d*2
  a d*2
  f F0 99 mir-1 7
  f B0 46 rel0 49
  f B0 46 rel0 50
  a B*S*d*2
  a B*S*d*2
  a d*2
  f F0 99 mir-1 6
  f B0 46 rel0 48
  f B0 46 rel0 54
  a B*S*d*4
  f B0 46 rel0 53
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 46 rel0 56
  f B0 46 rel0 57
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 99 mir-1 4
  f B0 46 rel0 59
  f B0 46 rel0 60
  f B0 46 rel0 61
  a B*S*d*4
  f B0 46 rel0 62
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 99 mir-1 0
  f B0 46 rel0 63
  f B0 46 rel0 64
  f B0 46 rel0 65
  f B0 46 rel0 66
  a B*S*d*2
  f B0 46 rel0 58
  f B0 46 rel0 67
end
a d*f*2
a B*S*f*2
f F0 96 - 0
a B*S*f*2
a B*S*f*2
f F0 94 - 0
f F0 95 - 0
f B0 48 - 0
a d*f*2
a B*S*d*2
f B0 50 - 0
a B*S*f*2
f F0 93 - 0
f B0 51 - 0
a d*f*2
a B*S*d*2
f F0 90 - 0
f B0 58 - 0
a B*S*d*2
f B0 56 - 0
f B0 62 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 89 - 0
f B0 65 - 0
f B0 69 - 0
a B*S*d*4
f B0 68 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 74 - 0
f B0 76 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 86 - 0
f B0 78 - 0
f B0 81 - 0
f B0 82 - 0
a B*S*d*4
f B0 83 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 81 - 0
f B0 88 - 0
f B0 90 - 0
f B0 91 - 0
f B0 92 - 0
a B*S*d*2
f B0 77 - 0
f B0 98 - 0
a d*d*2
a B*S*d*2
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*8~1.00788
f F0 51 - 0
f F0 58 - 0
f F0 67 - 0
f F0 72 - 0
f F0 73 - 0
f F0 74 - 0
f F0 75 - 0
f B0 102 - 0
f B0 106 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 117 - 0
a B*S*kv*2
f B0 116 - 0
f B0 120 - 0
a B*S*kv*2
f B0 104 - 0
f B0 123 - 0
a B*S*d*2
f F0 30 - 0
a B*S*d
a B*S*d*2
f B0 128 - 0
a B*S*d*2
f B0 126 - 0
f B0 131 - 0
a B*S*d*2
f F0 29 - 0
f B0 103 - 0
f B0 134 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 105 - 0
a B*S*kv*2
f B0 118 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 142 - 0
a B*S*d*2
f B0 138 - 0
f B0 144 - 0
a B*S*d*2
f B0 129 - 0
a B*S*d*2
a d*d*2
a d*2
f F0 45 - 0
f B0 151 - 0
f B0 153 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 44 - 0
f B0 148 - 0
f B0 160 - 0
a B*S*d*4
f B0 159 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 165 - 0
f B0 167 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 41 - 0
f B0 169 - 0
f B0 172 - 0
f B0 173 - 0
a B*S*d*4
f B0 174 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 36 - 0
f B0 179 - 0
f B0 181 - 0
f B0 182 - 0
f B0 183 - 0
a B*S*d*2
f B0 168 - 0
f B0 189 - 0
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
  f B0 46 rel-1 55 first B0 16 - 0
  f B0 46 rel0 0 last B0 47 - 0
  f B0 46 rel0 4 last B0 55 - 0
  f B0 46 rel0 7 last B0 61 - 0
  f B0 46 rel0 12 last B0 70 - 0
  f B0 46 rel0 25 last B0 101 - 0
  f B0 46 rel0 42 last B0 139 - 0
  f B0 46 rel0 43 last B0 140 - 0
  f B0 46 rel0 46 last B0 145 - 0
  f B0 46 rel0 47 last B0 146 - 0
  f B0 46 rel0 51 last B0 154 - 0
  f B0 46 rel0 52 last B0 155 - 0
end
f B0 161 - 0
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
f F-1 122 - 0
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
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 38 - 0
a B*S*4
a B*S*4
f F0 41 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 39 - 0
f F0 44 - 0
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*2
a B*S*d
a B*S*d*2
f F0 53 - 0
a B*S*d*2
f F0 54 - 0
a B*S*d*2
f F0 52 - 0
f F0 56 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f F0 62 - 0
a B*S*kv*2
f F0 63 - 0
a B*S*kv*2
f F0 49 - 0
f F0 50 - 0
f F0 61 - 0
f F0 65 - 0
a 8
a 8
a B*S*d*2
a B*S*H*4
a 256
f F0 76 - 0
a B*S*d*2
a B*S*d*2
f F0 78 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 82 - 0
a B*S*4
a B*S*4
f F0 85 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 83 - 0
f F0 88 - 0
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*f*2
a B*S*d*2
a B*S*d*2
loop L-1
  f F0 99 rel-1 27 first F0 79 - 0
  f F0 99 rel-1 40 first F0 97 - 0
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 99 rel0 1
  a B*S*4
  a B*S*4
  f F0 99 rel0 3
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel0 2
  f F0 99 rel0 5
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 99 rel0 12
  a B*S*d*2
  f F0 99 rel0 13
  a B*S*d*2
  f F0 99 rel0 11
  f F0 99 rel0 14
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f F0 99 rel0 17
  a B*S*kv*2
  f F0 99 rel0 18
  a B*S*kv*2
  f F0 99 rel0 8
  f F0 99 rel0 9
  f F0 99 rel0 16
  f F0 99 rel0 19
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 99 rel0 25
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel0 26
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f F0 99 rel0 29
  a B*S*4
  a B*S*4
  f F0 99 rel0 31
  a B*S*d*4
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel0 30
  f F0 99 rel0 33
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*f*2
  a B*S*d*2
  a B*S*d*2
  f F0 99 rel-1 41 first F0 98 - 0
end
f F0 99 end1 27
f F0 99 end1 40
a B*S*d*4
a B*S*d*4
a B*S*4
f F0 103 - 0
a B*S*4
a B*S*4
f F0 106 - 0
a B*S*d*4
a B*S*d*2
a B*S*d*2
f F0 1 - 0
f F0 3 - 0
f F0 99 end1 41
f F0 104 - 0
f F0 109 - 0
a B*S*V*2
a B*S*V*4
a B*8+B*S*8
a B*S*8
a B*S*V*4
a 4
a 4
f F0 117 - 0
f F0 118 - 0
f F0 119 - 0
phase B1
a 4
a B*S*V*4
f F0 120 - 0
f F0 123 - 0
a B*S*V*4
f F0 121 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a B*S*d*2
f F0 111 - 0
f B0 7 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 110 - 0
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
f F0 107 - 0
f B0 23 - 0
f B0 26 - 0
f B0 27 - 0
a B*S*d*4
f B0 28 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 102 - 0
f B0 33 - 0
f B0 35 - 0
f B0 36 - 0
f B0 37 - 0
a B*S*d*2
f B0 22 - 0
loop L-1
  a d*f*2
  a B*S*f*2
  f F0 99 mir-1 39
  a B*S*f*2
  a B*S*f*2
  f F0 99 mir-1 37
  f F0 99 mir-1 38
  f B0 45 rel0 1
  a d*f*2
  a B*S*d*2
  f B0 45 rel0 2
  a B*S*f*2
  f F0 99 mir-1 36
  f B0 45 rel0 3
  a d*f*2
  a B*S*d*2
  f F0 99 mir-1 35
  f B0 45 rel0 6
  a B*S*d*2
  f B0 45 rel0 5
  f B0 45 rel0 8
  a B*S*d*2
  a B*S*d*2
  a d*2
  f F0 99 mir-1 34
  f B0 45 rel0 9
  f B0 45 rel0 11
  a B*S*d*4
  f B0 45 rel0 10
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 13
  f B0 45 rel0 14
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 99 mir-1 32
  f B0 45 rel0 16
  f B0 45 rel0 17
  f B0 45 rel0 18
  a B*S*d*4
  f B0 45 rel0 19
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 99 mir-1 28
  f B0 45 rel0 20
  f B0 45 rel0 21
  f B0 45 rel0 22
  f B0 45 rel0 23
  a B*S*d*2
  f B0 45 rel0 15
  f B0 45 rel0 24
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f F0 99 mir-1 10
  f F0 99 mir-1 15
  f F0 99 mir-1 20
  f F0 99 mir-1 21
  f F0 99 mir-1 22
  f F0 99 mir-1 23
  f F0 99 mir-1 24
  f B0 45 rel0 26
  f B0 45 rel0 30
  a B*S*kv*2
  a B*S*kv
  a B*S*kv*2
  f B0 45 rel0 32
  a B*S*kv*2
  f B0 45 rel0 31
  f B0 45 rel0 34
  a B*S*kv*2
  f B0 45 rel0 28
  f B0 45 rel0 35
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f B0 45 rel0 37
  a B*S*d*2
  f B0 45 rel0 36
  f B0 45 rel0 39
  a B*S*d*2
  f B0 45 rel0 27
  f B0 45 rel0 40
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 45 rel0 29
  a B*S*kv*2
  f B0 45 rel0 33
  a B*S*d*2
  a d*kv*2
  a kv*2
  f B0 45 rel0 44
  a B*S*d*2
  f B0 45 rel0 41
  f B0 45 rel0 45
  a B*S*d*2
  f B0 45 rel0 38
  a B*S*d*2
  a d*d*2
  a d*2
  f F0 99 mir-1 7
  f B0 45 rel0 49
  f B0 45 rel0 50
  a B*S*d*2
  a B*S*d*2
  a d*2
  f F0 99 mir-1 6
  f B0 45 rel0 48
  f B0 45 rel0 54
  a B*S*d*4
  f B0 45 rel0 53
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 45 rel0 56
  f B0 45 rel0 57
  a B*S*4
  a B*S*4
  a B*S*4
  f F0 99 mir-1 4
  f B0 45 rel0 59
  f B0 45 rel0 60
  f B0 45 rel0 61
  a B*S*d*4
  f B0 45 rel0 62
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 99 mir-1 0
  f B0 45 rel0 63
  f B0 45 rel0 64
  f B0 45 rel0 65
  f B0 45 rel0 66
  a B*S*d*2
  f B0 45 rel0 58
  f B0 45 rel0 67
end
a d*f*2
a B*S*f*2
f F0 96 - 0
a B*S*f*2
a B*S*f*2
f F0 94 - 0
f F0 95 - 0
f B0 47 - 0
a d*f*2
a B*S*d*2
f B0 49 - 0
a B*S*f*2
f F0 93 - 0
f B0 50 - 0
a d*f*2
a B*S*d*2
f F0 90 - 0
f B0 57 - 0
a B*S*d*2
f B0 55 - 0
f B0 61 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 89 - 0
f B0 64 - 0
f B0 68 - 0
a B*S*d*4
f B0 67 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 73 - 0
f B0 75 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 86 - 0
f B0 77 - 0
f B0 80 - 0
f B0 81 - 0
a B*S*d*4
f B0 82 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 81 - 0
f B0 87 - 0
f B0 89 - 0
f B0 90 - 0
f B0 91 - 0
a B*S*d*2
f B0 76 - 0
f B0 97 - 0
a d*d*2
a B*S*d*2
a B*S*d*2
a B*S*kv*2
a B*S*kv*2
a B*S*d*8~1.00788
f F0 51 - 0
f F0 58 - 0
f F0 67 - 0
f F0 72 - 0
f F0 73 - 0
f F0 74 - 0
f F0 75 - 0
f B0 101 - 0
f B0 105 - 0
a B*S*kv*2
a B*S*kv
a B*S*kv*2
f B0 116 - 0
a B*S*kv*2
f B0 115 - 0
f B0 119 - 0
a B*S*kv*2
f B0 103 - 0
f B0 122 - 0
a B*S*d*2
f F0 31 - 0
a B*S*d
a B*S*d*2
f B0 127 - 0
a B*S*d*2
f B0 125 - 0
f B0 130 - 0
a B*S*d*2
f F0 30 - 0
f B0 102 - 0
f B0 133 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 104 - 0
a B*S*kv*2
f B0 117 - 0
a B*S*d*2
a d*kv*2
a kv*2
f B0 141 - 0
a B*S*d*2
f B0 137 - 0
f B0 143 - 0
a B*S*d*2
f B0 128 - 0
a B*S*d*2
a d*d*2
a d*2
f F0 46 - 0
f B0 150 - 0
f B0 152 - 0
a B*S*d*2
a B*S*d*2
a d*2
f F0 45 - 0
f B0 147 - 0
f B0 159 - 0
a B*S*d*4
f B0 158 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
f B0 164 - 0
f B0 166 - 0
a B*S*4
a B*S*4
a B*S*4
f F0 42 - 0
f B0 168 - 0
f B0 171 - 0
f B0 172 - 0
a B*S*d*4
f B0 173 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 37 - 0
f B0 178 - 0
f B0 180 - 0
f B0 181 - 0
f B0 182 - 0
a B*S*d*2
f B0 167 - 0
f B0 188 - 0
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
  f B0 45 rel-1 55 first B0 15 - 0
  f B0 45 rel0 0 last B0 46 - 0
  f B0 45 rel0 4 last B0 54 - 0
  f B0 45 rel0 7 last B0 60 - 0
  f B0 45 rel0 12 last B0 69 - 0
  f B0 45 rel0 25 last B0 100 - 0
  f B0 45 rel0 42 last B0 138 - 0
  f B0 45 rel0 43 last B0 139 - 0
  f B0 45 rel0 46 last B0 144 - 0
  f B0 45 rel0 47 last B0 145 - 0
  f B0 45 rel0 51 last B0 153 - 0
  f B0 45 rel0 52 last B0 154 - 0
end
f B0 160 - 0
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
