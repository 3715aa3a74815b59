# Call 5: on call 4's machine (kept warm), the h200 config in bf16 compiled to the end
# (call 4's 240 s limit had stopped it), then the kernel cache returned for the pack.
# Run by the device tool from the repository root at commit 19f6d08, carrying .device-bin:
mkdir -p /tmp/bin /tmp/runs; B=/tmp/bin/oomlab; [ -x $B ] || python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .device-bin/oomlab.xz $B; chmod +x $B; unset CUBECL_AUTOTUNE_LEVEL OOMLAB_KERNEL_CACHE; C=$HOME/.cache/oomlab/cubecl; echo "cache before: $(du -sh $C)"; date -u; t0=$SECONDS; timeout 380 $B train --config h200 --precision bf16 --max-steps 3 --json --out /tmp/runs/h200b > $OUT/h200-bf16-again.json 2> /tmp/runs/h200b.stderr; echo "exit $? after $((SECONDS-t0)) s"; tail -4 /tmp/runs/h200b.stderr; python3 -c "import json;s=json.load(open('$OUT/h200-bf16-again.json'));print(s.get('time_to_first_step_s'), s.get('kernel_cache'))"; tar cf - -C $C . | python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read(), preset=1))" > $OUT/kernel-cache.tar.xz; ls -la $OUT; date -u
# Its output: cache before 209M; exit 0 after 117 s; "first step at this shape: 31 kernels
# compiled, 3 operations autotuned, 45 s"; the pack then made with
#   python3 scripts/kernel-pack.py kernel-cache.tar.xz kernels/nvidia-h200
# "201 autotune results, 1167 kernels from 2 chunk file(s) (226.3 MiB, 7.4 MiB xz)".
