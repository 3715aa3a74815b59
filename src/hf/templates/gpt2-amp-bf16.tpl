# gpt2-amp-bf16: read by scripts/hf-templates.py from docs/results/2026-12-04-h200-hf-templates/templates/hf-memory (shapes a and b), torch 2.11.0+cu130, transformers 5.17.0
template gpt2 amp-bf16 no-ckpt
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
  f F0 33 rel0 4
  a d*d*2
  a d*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 33 rel0 7
  a B*S*d*4
  f F0 33 rel-1 34 first F0 25 - 0
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
  f F0 33 rel0 20
  a B*S*f*4
  f F0 33 rel0 21
  a B*S*f*4
  f F0 33 rel0 22
  a B*S*f*4
  f F0 33 rel0 23
  a B*S*f*4
  a B*S*f*4
  f F0 33 rel0 17
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f F0 33 rel0 26
  a B*S*d
  a B*S*d*2
  f F0 33 rel0 30
  a B*S*d*4
  f F0 33 rel0 9
  f F0 33 rel0 11
  f F0 33 rel0 32
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
f F0 38 - 0
a d*d*2
a d*2
a B*S*d*2
a B*S*d
a B*S*d*2
f F0 42 - 0
a B*S*d*4
f F0 33 end1 34
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
f F0 57 - 0
a B*S*f*4
f F0 58 - 0
a B*S*f*4
f F0 60 - 0
a B*S*f*4
f F0 62 - 0
a B*S*f*4
a B*S*f*4
f F0 54 - 0
a d*f*2
a B*S*f*2
a d*2
a B*S*d*2
f F0 67 - 0
a B*S*d
a B*S*d*2
f F0 72 - 0
a B*S*d*4
f F0 44 - 0
f F0 48 - 0
f F0 75 - 0
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
  f F0 33 rel-1 39 first F0 30 - 0
  f F0 33 rel0 6 last F0 41 - 0
  f F0 33 rel0 16 last F0 53 - 0
  f F0 33 rel0 29 last F0 71 - 0
end
f F0 81 - 0
f F0 88 - 0
f F0 89 - 0
f F0 90 - 0
phase B0
a 4
a B*S*V*4
f F0 91 - 0
f F0 94 - 0
a B*S*V*4
f F0 92 - 0
f B0 1 - 0
a B*S*V*2
f B0 4 - 0
a d*V*2
a 33554432
a B*S*d*2
f F0 86 - 0
f F0 87 - 0
f B0 7 - 0
a B*S*d*4
f B0 11 - 0
a d*V*4
f B0 9 - 0
a B*S*d*4
a d*4
a d*4
f F0 77 - 0
f F0 82 - 0
f F0 83 - 0
loop L
  f B0 25 rel-1 47 first B0 15 - 0
  a B*S*d*2
  a B*S*d*2
  f F0 33 mir0 31 first F0 74 - 0
  f B0 25 rel0 0
  a B*S*f*2
  a d*f*2
  a d*2
  f F0 33 mir0 27 first F0 69 - 0
  f F0 33 mir0 28 first F0 70 - 0
  f B0 25 rel0 1
  a d*4
  f B0 25 rel0 4
  a B*S*f*4
  f B0 25 rel0 2
  a d*f*4
  f B0 25 rel0 3
  a B*S*f*4
  a B*S*f*4
  a B*S*f*2
  f F0 33 mir0 18 first F0 55 - 0
  f F0 33 mir0 25 first F0 66 - 0
  f B0 25 rel0 6
  f B0 25 rel0 9
  a B*S*f*4
  f F0 33 mir0 24 first F0 64 - 0
  f B0 25 rel0 8
  a B*S*f*4
  f B0 25 rel0 11
  a B*S*f*2
  a B*S*f*4
  f B0 25 rel0 12
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f F0 33 mir0 19 first F0 56 - 0
  f B0 25 rel0 14
  f B0 25 rel0 15
  f B0 25 rel0 16
  a B*S*f*2
  f B0 25 rel0 17
  f B0 25 rel0 18
  a B*S*f*2
  f B0 25 rel0 10
  f B0 25 rel0 19
  a B*S*d*2
  a d*f*2
  a f*2
  f F0 33 mir0 14 first F0 51 - 0
  f F0 33 mir0 15 first F0 52 - 0
  f B0 25 rel0 13
  a f*4
  f B0 25 rel0 22
  a B*S*d*4
  f B0 25 rel0 20
  a d*f*4
  f B0 25 rel0 21
  a B*S*d*4
  a d*4
  a d*4
  f F0 33 mir0 10 first F0 46 - 0
  f F0 33 mir0 12 first F0 49 - 0
  f F0 33 mir0 13 first F0 50 - 0
  f B0 25 rel0 24
  f B0 25 rel0 26
  a B*S*d*2
  a B*S*d*2
  f F0 33 mir0 8 first F0 43 - 0
  f B0 25 rel0 29
  a B*S*d*2
  a d*d*2
  a d*2
  f F0 33 mir0 5 first F0 40 - 0
  f B0 25 rel0 30
  a d*4
  f B0 25 rel0 33
  a d*d*4
  f B0 25 rel0 32
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f F0 33 mir-1 40 last F0 31 - 0
  f F0 33 mir0 0 first F0 34 - 0
  f F0 33 mir0 1 first F0 35 - 0
  f F0 33 mir0 2 first F0 36 - 0
  f F0 33 mir0 3 first F0 37 - 0
  f B0 25 rel0 31
  f B0 25 rel0 39
  a B*S*d*6
  f B0 25 rel0 36
  f B0 25 rel0 37
  f B0 25 rel0 38
  a B*S*d*2
  a d*d*6
  a d*6
  f F0 33 mir-1 37 last F0 28 - 0
  f F0 33 mir-1 38 last F0 29 - 0
  f B0 25 rel0 40
  a d*12
  f B0 25 rel0 43
  a B*S*d*4
  f B0 25 rel0 41
  a d*d*12
  f B0 25 rel0 42
  a B*S*d*4
  a d*4
  a d*4
  f F0 33 mir-1 33 last F0 23 - 0
  f F0 33 mir-1 35 last F0 26 - 0
  f F0 33 mir-1 36 last F0 27 - 0
  f B0 25 rel0 45
end
f B0 25 end0 47
a B*S*d*4
f F0 22 - 0
f B0 19 - 0
a S*d*4
a d*P*4
f F0 2 - 0
f B0 30 - 0
a d*V*4
f B0 0 - 0
f B0 27 - 0
f B0 34 - 0
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
  f B0 25 rel-1 48 first B0 20 - 0
  f B0 25 rel-1 49 first B0 21 - 0
  f B0 25 rel0 5
  f B0 25 rel0 7
  f B0 25 rel0 23
  f B0 25 rel0 25
  f B0 25 rel0 27
  f B0 25 rel0 28
  f B0 25 rel0 34
  f B0 25 rel0 35
  f B0 25 rel0 44
  f B0 25 rel0 46
end
f B0 25 end0 48
f B0 25 end0 49
f B0 31 - 0
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
f F-1 93 - 0
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
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 26 rel0 11
  a d*d*2
  a d*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 14
  a B*S*d*4
  f F0 26 rel0 0
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
  f F0 26 rel0 27
  a B*S*f*4
  f F0 26 rel0 28
  a B*S*f*4
  f F0 26 rel0 29
  a B*S*f*4
  f F0 26 rel0 30
  a B*S*f*4
  a B*S*f*4
  f F0 26 rel0 24
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f F0 26 rel0 33
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 37
  a B*S*d*4
  f F0 26 rel0 16
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
  f F0 26 rel0 5
  f F0 26 rel0 13
  f F0 26 rel0 23
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
  f B0 24 rel-1 47 first B0 14 - 0
  a B*S*d*2
  a B*S*d*2
  f F0 26 mir0 38
  f B0 24 rel0 0
  a B*S*f*2
  a d*f*2
  a d*2
  f F0 26 mir0 34
  f F0 26 mir0 35
  f B0 24 rel0 1
  a d*4
  f B0 24 rel0 4
  a B*S*f*4
  f B0 24 rel0 2
  a d*f*4
  f B0 24 rel0 3
  a B*S*f*4
  a B*S*f*4
  a B*S*f*2
  f F0 26 mir0 25
  f F0 26 mir0 32
  f B0 24 rel0 6
  f B0 24 rel0 9
  a B*S*f*4
  f F0 26 mir0 31
  f B0 24 rel0 8
  a B*S*f*4
  f B0 24 rel0 11
  a B*S*f*2
  a B*S*f*4
  f B0 24 rel0 12
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f F0 26 mir0 26
  f B0 24 rel0 14
  f B0 24 rel0 15
  f B0 24 rel0 16
  a B*S*f*2
  f B0 24 rel0 17
  f B0 24 rel0 18
  a B*S*f*2
  f B0 24 rel0 10
  f B0 24 rel0 19
  a B*S*d*2
  a d*f*2
  a f*2
  f F0 26 mir0 21
  f F0 26 mir0 22
  f B0 24 rel0 13
  a f*4
  f B0 24 rel0 22
  a B*S*d*4
  f B0 24 rel0 20
  a d*f*4
  f B0 24 rel0 21
  a B*S*d*4
  a d*4
  a d*4
  f F0 26 mir0 17
  f F0 26 mir0 19
  f F0 26 mir0 20
  f B0 24 rel0 24
  f B0 24 rel0 26
  a B*S*d*2
  a B*S*d*2
  f F0 26 mir0 15
  f B0 24 rel0 29
  a B*S*d*2
  a d*d*2
  a d*2
  f F0 26 mir0 12
  f B0 24 rel0 30
  a d*4
  f B0 24 rel0 33
  a d*d*4
  f B0 24 rel0 32
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f F0 26 mir0 6
  f F0 26 mir0 7
  f F0 26 mir0 8
  f F0 26 mir0 9
  f F0 26 mir0 10
  f B0 24 rel0 31
  f B0 24 rel0 39
  a B*S*d*6
  f B0 24 rel0 36
  f B0 24 rel0 37
  f B0 24 rel0 38
  a B*S*d*2
  a d*d*6
  a d*6
  f F0 26 mir0 3
  f F0 26 mir0 4
  f B0 24 rel0 40
  a d*12
  f B0 24 rel0 43
  a B*S*d*4
  f B0 24 rel0 41
  a d*d*12
  f B0 24 rel0 42
  a B*S*d*4
  a d*4
  a d*4
  f F0 26 mir-1 40 last F0 24 - 0
  f F0 26 mir0 1
  f F0 26 mir0 2
  f B0 24 rel0 45
end
f B0 24 end0 47
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
  f B0 24 rel-1 48 first B0 19 - 0
  f B0 24 rel-1 49 first B0 20 - 0
  f B0 24 rel0 5
  f B0 24 rel0 7
  f B0 24 rel0 23
  f B0 24 rel0 25
  f B0 24 rel0 27
  f B0 24 rel0 28
  f B0 24 rel0 34
  f B0 24 rel0 35
  f B0 24 rel0 44
  f B0 24 rel0 46
end
f B0 24 end0 48
f B0 24 end0 49
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
  a d*d*6
  a B*S*d*2
  a d*6
  a B*S*d*6
  a 8
  a 8
  a B*S*d*2
  a B*S*H*4
  a 256
  f F0 26 rel0 11
  a d*d*2
  a d*2
  a B*S*d*2
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 14
  a B*S*d*4
  f F0 26 rel0 0
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
  f F0 26 rel0 27
  a B*S*f*4
  f F0 26 rel0 28
  a B*S*f*4
  f F0 26 rel0 29
  a B*S*f*4
  f F0 26 rel0 30
  a B*S*f*4
  a B*S*f*4
  f F0 26 rel0 24
  a d*f*2
  a B*S*f*2
  a d*2
  a B*S*d*2
  f F0 26 rel0 33
  a B*S*d
  a B*S*d*2
  f F0 26 rel0 37
  a B*S*d*4
  f F0 26 rel0 16
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
  f F0 26 rel0 5
  f F0 26 rel0 13
  f F0 26 rel0 23
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
  f B0 24 rel-1 47 first B0 14 - 0
  a B*S*d*2
  a B*S*d*2
  f F0 26 mir0 38
  f B0 24 rel0 0
  a B*S*f*2
  a d*f*2
  a d*2
  f F0 26 mir0 34
  f F0 26 mir0 35
  f B0 24 rel0 1
  a d*4
  f B0 24 rel0 4
  a B*S*f*4
  f B0 24 rel0 2
  a d*f*4
  f B0 24 rel0 3
  a B*S*f*4
  a B*S*f*4
  a B*S*f*2
  f F0 26 mir0 25
  f F0 26 mir0 32
  f B0 24 rel0 6
  f B0 24 rel0 9
  a B*S*f*4
  f F0 26 mir0 31
  f B0 24 rel0 8
  a B*S*f*4
  f B0 24 rel0 11
  a B*S*f*2
  a B*S*f*4
  f B0 24 rel0 12
  a B*S*f*4
  a B*S*f*4
  a B*S*f*4
  f F0 26 mir0 26
  f B0 24 rel0 14
  f B0 24 rel0 15
  f B0 24 rel0 16
  a B*S*f*2
  f B0 24 rel0 17
  f B0 24 rel0 18
  a B*S*f*2
  f B0 24 rel0 10
  f B0 24 rel0 19
  a B*S*d*2
  a d*f*2
  a f*2
  f F0 26 mir0 21
  f F0 26 mir0 22
  f B0 24 rel0 13
  a f*4
  f B0 24 rel0 22
  a B*S*d*4
  f B0 24 rel0 20
  a d*f*4
  f B0 24 rel0 21
  a B*S*d*4
  a d*4
  a d*4
  f F0 26 mir0 17
  f F0 26 mir0 19
  f F0 26 mir0 20
  f B0 24 rel0 24
  f B0 24 rel0 26
  a B*S*d*2
  a B*S*d*2
  f F0 26 mir0 15
  f B0 24 rel0 29
  a B*S*d*2
  a d*d*2
  a d*2
  f F0 26 mir0 12
  f B0 24 rel0 30
  a d*4
  f B0 24 rel0 33
  a d*d*4
  f B0 24 rel0 32
  a B*S*d*2
  a B*S*d*2
  a B*S*d*2
  a B*S*d*4~1.01577
  f F0 26 mir0 6
  f F0 26 mir0 7
  f F0 26 mir0 8
  f F0 26 mir0 9
  f F0 26 mir0 10
  f B0 24 rel0 31
  f B0 24 rel0 39
  a B*S*d*6
  f B0 24 rel0 36
  f B0 24 rel0 37
  f B0 24 rel0 38
  a B*S*d*2
  a d*d*6
  a d*6
  f F0 26 mir0 3
  f F0 26 mir0 4
  f B0 24 rel0 40
  a d*12
  f B0 24 rel0 43
  a B*S*d*4
  f B0 24 rel0 41
  a d*d*12
  f B0 24 rel0 42
  a B*S*d*4
  a d*4
  a d*4
  f F0 26 mir-1 40 last F0 24 - 0
  f F0 26 mir0 1
  f F0 26 mir0 2
  f B0 24 rel0 45
end
f B0 24 end0 47
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
  f B0 24 rel-1 48 first B0 19 - 0
  f B0 24 rel-1 49 first B0 20 - 0
  f B0 24 rel0 5
  f B0 24 rel0 7
  f B0 24 rel0 23
  f B0 24 rel0 25
  f B0 24 rel0 27
  f B0 24 rel0 28
  f B0 24 rel0 34
  f B0 24 rel0 35
  f B0 24 rel0 44
  f B0 24 rel0 46
end
f B0 24 end0 48
f B0 24 end0 49
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
