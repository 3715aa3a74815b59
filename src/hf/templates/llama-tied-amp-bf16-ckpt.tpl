# llama-tied-amp-bf16-ckpt: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates-gqa/hf-memory, docs/results/2026-12-04-h200-hf-templates/templates/hf-memory (shapes a and c), torch 2.11.0+cu130, transformers 5.17.0
template llama-tied amp-bf16 ckpt
phase build
a d*V*4
loop L
  a d*d*4
  a d*kv*4
  a d*kv*4
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
f build 27 - 0
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
loop L
  a B*S*d*4
  a B*S*4
  f F0 32 rel0 0
  a B*S*4
  a B*S*4
  f F0 32 rel0 2
  a B*S*d*4
  f F0 32 rel0 3
  a B*S*d*4
  f F0 32 rel0 1
  f F0 32 rel0 4
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  f F0 32 rel0 7
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 32 rel0 10
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 32 rel0 13
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f F0 32 rel0 16
  a B*S*d*4
  f F0 32 rel0 17
  a B*S*d*4
  f F0 32 rel0 15
  f F0 32 rel0 18
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f F0 32 rel0 21
  a B*S*kv*4
  f F0 32 rel0 22
  a B*S*kv*4
  f F0 32 rel0 8
  f F0 32 rel0 11
  f F0 32 rel0 20
  f F0 32 rel0 23
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 32 rel0 25
  f F0 32 rel0 26
  f F0 32 rel0 27
  f F0 32 rel0 28
  f F0 32 rel0 30
  f F0 32 rel0 31
  a d*d*2
  a B*S*d*2
  f F0 32 rel0 5
  f F0 32 rel0 14
  f F0 32 rel0 19
  f F0 32 rel0 24
  f F0 32 rel0 29
  a B*S*d*4
  f F0 32 rel0 33
  a B*S*d*4
  a B*S*4
  f F0 32 rel0 35
  a B*S*4
  a B*S*4
  f F0 32 rel0 37
  a B*S*d*4
  f F0 32 rel0 38
  a B*S*d*4
  f F0 32 rel0 36
  f F0 32 rel0 39
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 32 rel0 42
  a B*S*f*2
  f F0 32 rel0 43
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 32 rel0 46
  a B*S*f*2
  f F0 32 rel0 44
  f F0 32 rel0 47
  a d*f*2
  a B*S*d*2
  f F0 32 rel0 40
  f F0 32 rel0 48
  a B*S*d*4
  f F0 32 rel0 34
  f F0 32 rel0 50
end
a B*S*d*4
a B*S*4
f F0 33 - 0
a B*S*4
a B*S*4
f F0 36 - 0
a B*S*d*4
a B*S*d*4
f F0 34 - 0
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
  f F0 32 rel0 6
  f F0 32 rel0 9
  f F0 32 rel0 12
  f F0 32 rel0 32
  f F0 32 rel0 41
  f F0 32 rel0 45
  f F0 32 rel0 49
end
f F0 40 - 0
f F0 44 - 0
f F0 45 - 0
f F0 46 - 0
phase B0
a 4
a B*S*V*4
f F0 47 - 0
f F0 50 - 0
a B*S*V*4
f F0 48 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 42 - 0
f F0 43 - 0
f B0 7 - 0
a B*S*d*4
f B0 11 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a B*S*d*4
a d*4
f F0 39 - 0
f B0 15 - 0
f B0 20 - 0
a B*S*d*4
a B*S*d*4
a B*S*4
loop L
  f B0 28 rel-1 126 first B0 19 - 0
  f B0 28 rel-1 127 first B0 25 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 28 rel-1 11 first F0 37 - 0
  f B0 28 rel-1 128 first B0 27 - 0
  f B0 28 rel0 0
  f B0 28 rel0 1
  a B*S*d*4
  f B0 28 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 32 mir0 51
  f B0 28 rel0 3
  f B0 28 rel0 4
  f B0 28 rel0 5
  f B0 28 rel0 6
  a B*S*d*2
  a B*S*d*4
  a B*S*4
  f B0 28 rel0 8
  a B*S*4
  a B*S*4
  f B0 28 rel0 10
  a B*S*d*4
  a B*S*d*4
  f B0 28 rel0 9
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f B0 28 rel0 24
  a B*S*d*4
  f B0 28 rel0 25
  a B*S*d*4
  f B0 28 rel0 23
  f B0 28 rel0 26
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f B0 28 rel0 29
  a B*S*kv*4
  f B0 28 rel0 30
  a B*S*kv*4
  f B0 28 rel0 16
  f B0 28 rel0 19
  f B0 28 rel0 28
  f B0 28 rel0 31
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 28 rel0 39
  a d*d*2
  a B*S*d*2
  f B0 28 rel0 13
  f B0 28 rel0 27
  f B0 28 rel0 32
  a B*S*d*4
  f B0 28 rel0 41
  a B*S*d*4
  a B*S*4
  f B0 28 rel0 43
  a B*S*4
  a B*S*4
  f B0 28 rel0 45
  a B*S*d*4
  a B*S*d*4
  f B0 28 rel0 44
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  f B0 28 rel0 48
  a d*f*2
  a B*S*f*2
  f B0 28 rel0 7
  f B0 28 rel0 56
  f B0 28 rel0 57
  a d*f*4
  f B0 28 rel0 58
  a B*S*f*2
  a B*S*f*2
  f B0 28 rel0 52
  f B0 28 rel0 55
  f B0 28 rel0 59
  a d*f*2
  a B*S*d*2
  f B0 28 rel0 53
  f B0 28 rel0 54
  f B0 28 rel0 61
  a B*S*d*4
  f B0 28 rel0 64
  a d*f*4
  f B0 28 rel0 63
  a B*S*f*2
  f B0 28 rel0 51
  f B0 28 rel0 62
  a d*f*2
  a B*S*d*2
  f B0 28 rel0 49
  f B0 28 rel0 50
  f B0 28 rel0 67
  a B*S*d*4
  f B0 28 rel0 69
  f B0 28 rel0 70
  a d*f*4
  f B0 28 rel0 68
  a B*S*d*4
  a B*S*d*4
  f B0 28 rel0 47
  a d*4
  f B0 28 rel0 65
  f B0 28 rel0 73
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 28 rel0 72
  f B0 28 rel0 75
  f B0 28 rel0 76
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 28 rel0 46
  f B0 28 rel0 77
  f B0 28 rel0 78
  f B0 28 rel0 79
  a B*S*d*4
  f B0 28 rel0 80
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 28 rel0 42
  f B0 28 rel0 81
  f B0 28 rel0 82
  f B0 28 rel0 83
  f B0 28 rel0 84
  a B*S*d*2
  a d*d*2
  a B*S*d*2
  f B0 28 rel0 40
  f B0 28 rel0 85
  a d*d*4
  f B0 28 rel0 86
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 28 rel0 22
  f B0 28 rel0 33
  f B0 28 rel0 34
  f B0 28 rel0 35
  f B0 28 rel0 36
  f B0 28 rel0 37
  f B0 28 rel0 38
  f B0 28 rel0 87
  f B0 28 rel0 92
  a B*S*d*4
  f B0 28 rel0 89
  a B*S*kv*4
  f B0 28 rel0 90
  a B*S*kv*4
  a B*S*kv*2
  f B0 28 rel0 95
  a B*S*kv
  a B*S*kv*2
  f B0 28 rel0 97
  a B*S*kv*2
  f B0 28 rel0 96
  f B0 28 rel0 99
  a B*S*kv*4
  a B*S*kv*2
  f B0 28 rel0 94
  f B0 28 rel0 100
  f B0 28 rel0 101
  a B*S*d*4
  a B*S*d*2
  f B0 28 rel0 102
  a B*S*d
  a B*S*d*2
  f B0 28 rel0 104
  a B*S*d*2
  f B0 28 rel0 103
  f B0 28 rel0 106
  a B*S*d*4
  a B*S*d*2
  f B0 28 rel0 93
  f B0 28 rel0 107
  f B0 28 rel0 108
  a d*kv*2
  a B*S*d*2
  f B0 28 rel0 20
  f B0 28 rel0 21
  f B0 28 rel0 91
  a B*S*d*4
  f B0 28 rel0 110
  a d*kv*4
  f B0 28 rel0 109
  a B*S*kv*2
  f B0 28 rel0 98
  a d*kv*2
  a B*S*d*2
  f B0 28 rel0 17
  f B0 28 rel0 18
  f B0 28 rel0 113
  a B*S*d*4
  f B0 28 rel0 115
  f B0 28 rel0 116
  a d*kv*4
  f B0 28 rel0 114
  a B*S*d*2
  f B0 28 rel0 105
  a d*d*2
  a B*S*d*2
  f B0 28 rel0 14
  f B0 28 rel0 15
  f B0 28 rel0 118
  a B*S*d*4
  f B0 28 rel0 120
  f B0 28 rel0 121
  a d*d*4
  f B0 28 rel0 119
  a B*S*d*4
  a B*S*d*4
  f B0 28 rel0 12
  a d*4
  f B0 28 rel0 111
  f B0 28 rel0 124
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 28 rel0 123
end
f B0 28 end0 126
f B0 28 end0 127
a B*S*4
a B*S*4
a B*S*4
f B0 28 end0 11
f B0 28 end0 128
f B0 31 - 0
f B0 32 - 0
a B*S*d*4
f B0 33 - 0
a B*S*d*4
a B*S*d*4
a B*S*d*4
f F0 0 - 0
f F0 2 - 0
f F0 24 - 0
f F0 27 - 0
f B0 38 - 0
f B0 40 - 0
f B0 41 - 0
f B0 42 - 0
a d*V*4
f B0 0 - 0
f B0 26 - 0
f B0 51 - 0
phase O0
a d*V*4
a d*V*4
loop L
  a d*d*4
  a d*d*4
  a d*kv*4
  a d*kv*4
  a d*kv*4
  a d*kv*4
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
loop L
  a d*d*4
  a d*kv*4
  a d*kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
f B0 17 - 0
loop L
  f B0 28 rel-1 125 first B0 21 - 0
  f B0 28 rel0 60
  f B0 28 rel0 66
  f B0 28 rel0 71
  f B0 28 rel0 74
  f B0 28 rel0 88
  f B0 28 rel0 112
  f B0 28 rel0 117
  f B0 28 rel0 122
end
f B0 28 end0 125
f O0 5 - 0
loop L
  f O0 6 rel0 0
  f O0 6 rel0 1
  f O0 6 rel0 2
  f O0 6 rel0 3
  f O0 6 rel0 4
  f O0 6 rel0 5
  f O0 6 rel0 6
  f O0 6 rel0 7
  f O0 6 rel0 8
end
f O0 7 - 0
phase F1
f F-1 49 - 0
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
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  f F0 33 rel0 7
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 10
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 13
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f F0 33 rel0 16
  a B*S*d*4
  f F0 33 rel0 17
  a B*S*d*4
  f F0 33 rel0 15
  f F0 33 rel0 18
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f F0 33 rel0 21
  a B*S*kv*4
  f F0 33 rel0 22
  a B*S*kv*4
  f F0 33 rel0 8
  f F0 33 rel0 11
  f F0 33 rel0 20
  f F0 33 rel0 23
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 33 rel0 25
  f F0 33 rel0 26
  f F0 33 rel0 27
  f F0 33 rel0 28
  f F0 33 rel0 30
  f F0 33 rel0 31
  a d*d*2
  a B*S*d*2
  f F0 33 rel0 5
  f F0 33 rel0 14
  f F0 33 rel0 19
  f F0 33 rel0 24
  f F0 33 rel0 29
  a B*S*d*4
  f F0 33 rel0 33
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 35
  a B*S*4
  a B*S*4
  f F0 33 rel0 37
  a B*S*d*4
  f F0 33 rel0 38
  a B*S*d*4
  f F0 33 rel0 36
  f F0 33 rel0 39
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 42
  a B*S*f*2
  f F0 33 rel0 43
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 46
  a B*S*f*2
  f F0 33 rel0 44
  f F0 33 rel0 47
  a d*f*2
  a B*S*d*2
  f F0 33 rel0 40
  f F0 33 rel0 48
  a B*S*d*4
  f F0 33 rel0 34
  f F0 33 rel0 50
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
  f F0 33 rel0 9
  f F0 33 rel0 12
  f F0 33 rel0 32
  f F0 33 rel0 41
  f F0 33 rel0 45
  f F0 33 rel0 49
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
  f B0 27 rel-1 126 first B0 18 - 0
  f B0 27 rel-1 127 first B0 24 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel-1 11 first F0 38 - 0
  f B0 27 rel-1 128 first B0 26 - 0
  f B0 27 rel0 0
  f B0 27 rel0 1
  a B*S*d*4
  f B0 27 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 51
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
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 24
  a B*S*d*4
  f B0 27 rel0 25
  a B*S*d*4
  f B0 27 rel0 23
  f B0 27 rel0 26
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 29
  a B*S*kv*4
  f B0 27 rel0 30
  a B*S*kv*4
  f B0 27 rel0 16
  f B0 27 rel0 19
  f B0 27 rel0 28
  f B0 27 rel0 31
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 27 rel0 39
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 13
  f B0 27 rel0 27
  f B0 27 rel0 32
  a B*S*d*4
  f B0 27 rel0 41
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 43
  a B*S*4
  a B*S*4
  f B0 27 rel0 45
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 44
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  f B0 27 rel0 48
  a d*f*2
  a B*S*f*2
  f B0 27 rel0 7
  f B0 27 rel0 56
  f B0 27 rel0 57
  a d*f*4
  f B0 27 rel0 58
  a B*S*f*2
  a B*S*f*2
  f B0 27 rel0 52
  f B0 27 rel0 55
  f B0 27 rel0 59
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 53
  f B0 27 rel0 54
  f B0 27 rel0 61
  a B*S*d*4
  f B0 27 rel0 64
  a d*f*4
  f B0 27 rel0 63
  a B*S*f*2
  f B0 27 rel0 51
  f B0 27 rel0 62
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 49
  f B0 27 rel0 50
  f B0 27 rel0 67
  a B*S*d*4
  f B0 27 rel0 69
  f B0 27 rel0 70
  a d*f*4
  f B0 27 rel0 68
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 47
  a d*4
  f B0 27 rel0 65
  f B0 27 rel0 73
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 72
  f B0 27 rel0 75
  f B0 27 rel0 76
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel0 46
  f B0 27 rel0 77
  f B0 27 rel0 78
  f B0 27 rel0 79
  a B*S*d*4
  f B0 27 rel0 80
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 42
  f B0 27 rel0 81
  f B0 27 rel0 82
  f B0 27 rel0 83
  f B0 27 rel0 84
  a B*S*d*2
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 40
  f B0 27 rel0 85
  a d*d*4
  f B0 27 rel0 86
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 27 rel0 22
  f B0 27 rel0 33
  f B0 27 rel0 34
  f B0 27 rel0 35
  f B0 27 rel0 36
  f B0 27 rel0 37
  f B0 27 rel0 38
  f B0 27 rel0 87
  f B0 27 rel0 92
  a B*S*d*4
  f B0 27 rel0 89
  a B*S*kv*4
  f B0 27 rel0 90
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 95
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 97
  a B*S*kv*2
  f B0 27 rel0 96
  f B0 27 rel0 99
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 94
  f B0 27 rel0 100
  f B0 27 rel0 101
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 102
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 104
  a B*S*d*2
  f B0 27 rel0 103
  f B0 27 rel0 106
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 93
  f B0 27 rel0 107
  f B0 27 rel0 108
  a d*kv*2
  a B*S*d*2
  f B0 27 rel0 20
  f B0 27 rel0 21
  f B0 27 rel0 91
  a B*S*d*4
  f B0 27 rel0 110
  a d*kv*4
  f B0 27 rel0 109
  a B*S*kv*2
  f B0 27 rel0 98
  a d*kv*2
  a B*S*d*2
  f B0 27 rel0 17
  f B0 27 rel0 18
  f B0 27 rel0 113
  a B*S*d*4
  f B0 27 rel0 115
  f B0 27 rel0 116
  a d*kv*4
  f B0 27 rel0 114
  a B*S*d*2
  f B0 27 rel0 105
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 14
  f B0 27 rel0 15
  f B0 27 rel0 118
  a B*S*d*4
  f B0 27 rel0 120
  f B0 27 rel0 121
  a d*d*4
  f B0 27 rel0 119
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 12
  a d*4
  f B0 27 rel0 111
  f B0 27 rel0 124
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 123
end
f B0 27 end0 126
f B0 27 end0 127
a B*S*4
a B*S*4
a B*S*4
f B0 27 end0 11
f B0 27 end0 128
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
f B0 50 - 0
phase O1
a d*V*4
loop L
  a d*d*4
  a d*kv*4
  a d*kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
f B0 16 - 0
loop L
  f B0 27 rel-1 125 first B0 20 - 0
  f B0 27 rel0 60
  f B0 27 rel0 66
  f B0 27 rel0 71
  f B0 27 rel0 74
  f B0 27 rel0 88
  f B0 27 rel0 112
  f B0 27 rel0 117
  f B0 27 rel0 122
end
f B0 27 end0 125
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
end
f O0 2 - 0
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
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  f F0 33 rel0 7
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 10
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  f F0 33 rel0 13
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f F0 33 rel0 16
  a B*S*d*4
  f F0 33 rel0 17
  a B*S*d*4
  f F0 33 rel0 15
  f F0 33 rel0 18
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f F0 33 rel0 21
  a B*S*kv*4
  f F0 33 rel0 22
  a B*S*kv*4
  f F0 33 rel0 8
  f F0 33 rel0 11
  f F0 33 rel0 20
  f F0 33 rel0 23
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 33 rel0 25
  f F0 33 rel0 26
  f F0 33 rel0 27
  f F0 33 rel0 28
  f F0 33 rel0 30
  f F0 33 rel0 31
  a d*d*2
  a B*S*d*2
  f F0 33 rel0 5
  f F0 33 rel0 14
  f F0 33 rel0 19
  f F0 33 rel0 24
  f F0 33 rel0 29
  a B*S*d*4
  f F0 33 rel0 33
  a B*S*d*4
  a B*S*4
  f F0 33 rel0 35
  a B*S*4
  a B*S*4
  f F0 33 rel0 37
  a B*S*d*4
  f F0 33 rel0 38
  a B*S*d*4
  f F0 33 rel0 36
  f F0 33 rel0 39
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 42
  a B*S*f*2
  f F0 33 rel0 43
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  f F0 33 rel0 46
  a B*S*f*2
  f F0 33 rel0 44
  f F0 33 rel0 47
  a d*f*2
  a B*S*d*2
  f F0 33 rel0 40
  f F0 33 rel0 48
  a B*S*d*4
  f F0 33 rel0 34
  f F0 33 rel0 50
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
  f F0 33 rel0 9
  f F0 33 rel0 12
  f F0 33 rel0 32
  f F0 33 rel0 41
  f F0 33 rel0 45
  f F0 33 rel0 49
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
  f B0 27 rel-1 126 first B0 18 - 0
  f B0 27 rel-1 127 first B0 24 - 0
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel-1 11 first F0 38 - 0
  f B0 27 rel-1 128 first B0 26 - 0
  f B0 27 rel0 0
  f B0 27 rel0 1
  a B*S*d*4
  f B0 27 rel0 2
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f F0 33 mir0 51
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
  a d*d*2
  a B*S*d*2
  a B*S*d*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a d*kv*2
  a B*S*d*2
  a B*S*kv*2
  a B*S*d*4
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 24
  a B*S*d*4
  f B0 27 rel0 25
  a B*S*d*4
  f B0 27 rel0 23
  f B0 27 rel0 26
  a B*S*kv*4
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 29
  a B*S*kv*4
  f B0 27 rel0 30
  a B*S*kv*4
  f B0 27 rel0 16
  f B0 27 rel0 19
  f B0 27 rel0 28
  f B0 27 rel0 31
  a B*S*kv*2
  a B*S*d*2
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f B0 27 rel0 39
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 13
  f B0 27 rel0 27
  f B0 27 rel0 32
  a B*S*d*4
  f B0 27 rel0 41
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 43
  a B*S*4
  a B*S*4
  f B0 27 rel0 45
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 44
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  a B*S*d*2
  a B*S*f*2
  a B*S*f*2
  a d*f*2
  f B0 27 rel0 48
  a d*f*2
  a B*S*f*2
  f B0 27 rel0 7
  f B0 27 rel0 56
  f B0 27 rel0 57
  a d*f*4
  f B0 27 rel0 58
  a B*S*f*2
  a B*S*f*2
  f B0 27 rel0 52
  f B0 27 rel0 55
  f B0 27 rel0 59
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 53
  f B0 27 rel0 54
  f B0 27 rel0 61
  a B*S*d*4
  f B0 27 rel0 64
  a d*f*4
  f B0 27 rel0 63
  a B*S*f*2
  f B0 27 rel0 51
  f B0 27 rel0 62
  a d*f*2
  a B*S*d*2
  f B0 27 rel0 49
  f B0 27 rel0 50
  f B0 27 rel0 67
  a B*S*d*4
  f B0 27 rel0 69
  f B0 27 rel0 70
  a d*f*4
  f B0 27 rel0 68
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 47
  a d*4
  f B0 27 rel0 65
  f B0 27 rel0 73
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 72
  f B0 27 rel0 75
  f B0 27 rel0 76
  a B*S*4
  a B*S*4
  a B*S*4
  f B0 27 rel0 46
  f B0 27 rel0 77
  f B0 27 rel0 78
  f B0 27 rel0 79
  a B*S*d*4
  f B0 27 rel0 80
  a B*S*d*4
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 42
  f B0 27 rel0 81
  f B0 27 rel0 82
  f B0 27 rel0 83
  f B0 27 rel0 84
  a B*S*d*2
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 40
  f B0 27 rel0 85
  a d*d*4
  f B0 27 rel0 86
  a B*S*d*2
  a B*S*kv*2
  a B*S*kv*2
  a B*S*d*8~1.00788
  f B0 27 rel0 22
  f B0 27 rel0 33
  f B0 27 rel0 34
  f B0 27 rel0 35
  f B0 27 rel0 36
  f B0 27 rel0 37
  f B0 27 rel0 38
  f B0 27 rel0 87
  f B0 27 rel0 92
  a B*S*d*4
  f B0 27 rel0 89
  a B*S*kv*4
  f B0 27 rel0 90
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 95
  a B*S*kv
  a B*S*kv*2
  f B0 27 rel0 97
  a B*S*kv*2
  f B0 27 rel0 96
  f B0 27 rel0 99
  a B*S*kv*4
  a B*S*kv*2
  f B0 27 rel0 94
  f B0 27 rel0 100
  f B0 27 rel0 101
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 102
  a B*S*d
  a B*S*d*2
  f B0 27 rel0 104
  a B*S*d*2
  f B0 27 rel0 103
  f B0 27 rel0 106
  a B*S*d*4
  a B*S*d*2
  f B0 27 rel0 93
  f B0 27 rel0 107
  f B0 27 rel0 108
  a d*kv*2
  a B*S*d*2
  f B0 27 rel0 20
  f B0 27 rel0 21
  f B0 27 rel0 91
  a B*S*d*4
  f B0 27 rel0 110
  a d*kv*4
  f B0 27 rel0 109
  a B*S*kv*2
  f B0 27 rel0 98
  a d*kv*2
  a B*S*d*2
  f B0 27 rel0 17
  f B0 27 rel0 18
  f B0 27 rel0 113
  a B*S*d*4
  f B0 27 rel0 115
  f B0 27 rel0 116
  a d*kv*4
  f B0 27 rel0 114
  a B*S*d*2
  f B0 27 rel0 105
  a d*d*2
  a B*S*d*2
  f B0 27 rel0 14
  f B0 27 rel0 15
  f B0 27 rel0 118
  a B*S*d*4
  f B0 27 rel0 120
  f B0 27 rel0 121
  a d*d*4
  f B0 27 rel0 119
  a B*S*d*4
  a B*S*d*4
  f B0 27 rel0 12
  a d*4
  f B0 27 rel0 111
  f B0 27 rel0 124
  a B*S*d*4
  a B*S*d*4
  a B*S*4
  f B0 27 rel0 123
end
f B0 27 end0 126
f B0 27 end0 127
a B*S*4
a B*S*4
a B*S*4
f B0 27 end0 11
f B0 27 end0 128
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
f B0 50 - 0
phase O2
a d*V*4
loop L
  a d*d*4
  a d*kv*4
  a d*kv*4
  a d*d*4
  a d*f*4
  a d*f*4
  a d*f*4
  a d*4
  a d*4
end
a d*4
f B0 16 - 0
loop L
  f B0 27 rel-1 125 first B0 20 - 0
  f B0 27 rel0 60
  f B0 27 rel0 66
  f B0 27 rel0 71
  f B0 27 rel0 74
  f B0 27 rel0 88
  f B0 27 rel0 112
  f B0 27 rel0 117
  f B0 27 rel0 122
end
f B0 27 end0 125
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
end
f O0 2 - 0
