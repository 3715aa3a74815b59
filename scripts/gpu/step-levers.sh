# Issue 29: the step's opt-in levers, measured in one call against the defaults, with
# PyTorch's rows in the same script run. Levers (each an environment variable of oomlab's,
# off by default until measured here; since c5a8e16 bf16's products on cuBLAS, the 4 MiB
# workspace and, for f32, split and dense are CUDA's defaults, so those variants now
# differ from the defaults only where they reach further, e.g. split's bf16 rows):
#   split:  OOMLAB_COLUMN_SUMS=split, sums over the tokens (LayerNorm's dγ and dβ, the cuBLAS
#           linear's bias) in two stages (src/model/column_sum.rs)
#   dense:  OOMLAB_EMBEDDING_GRAD=dense, the embeddings' gradients as a product and a sum
#           over the batch instead of burn's scatter (src/model/embedding.rs)
#   linear2d: OOMLAB_LINEAR=2d, burn's linear on 2-D inputs where cuBLAS does not run the
#           products (bf16 by default): the weight gradient one product instead of a
#           batched one summed over the batch (src/model/linear.rs, linear_2d); f32's
#           products run on cuBLAS by default, so its f32 rows are the defaults' graph
#   levers: all three
#   cublas16: OOMLAB_CUBLAS=1, bf16's products on cuBLAS too (f32's are by default, so only its
#           bf16 rows run). docs/results/2026-12-04-h200-cublas-queued measured it faster (gpu
#           68.0 vs 70.6 ms, h200 797.9 vs 1101.2 ms) with the final loss 3.6e-3 from the
#           defaults' and the NVML peak 66 MiB higher; docs/results/2026-12-05-loss-agreement.md
#           found its loss twice as close to f32's as the bf16 defaults' is.
#   cublas16-ws: cublas16 with CUBLAS_WORKSPACE_CONFIG=:4096:1 (cuBLAS's own variable: one
#           4 MiB workspace instead of its default pool, 32 MiB on Hopper as NVIDIA
#           recommends): whether the 66 MiB is the workspace, and what a smaller one costs.
#           (docs/results/2026-12-05-h200-step-levers: it was.)
#   cublas16-ws4: cublas16 with OOMLAB_CUBLAS_WORKSPACE=4MiB: what cublas16-ws measured, done
#           by oomlab (since 2026-12-05 it sets CUBLAS_WORKSPACE_CONFIG=:4096:1 itself at
#           start-up; before, it handed a 4 MiB buffer of its own to cublasSetWorkspace, which
#           left the 66 MiB in place: docs/results/2026-12-05-h100-step-levers-paired); the
#           candidate for bf16's products on cuBLAS by default.
#   ws4:    f32 (on cuBLAS by default) with that workspace: on an H100 it stepped 1.1 ms
#           slower and peaked 2 MiB higher (docs/results/2026-12-05-h100-cublas-workspace-f32),
#           before the workspace went through CUBLAS_WORKSPACE_CONFIG; through it, 1.2 ms
#           slower and 62 MiB lower (docs/results/2026-12-05-h100-workspace-f32-bf16).
# Since the defaults took bf16 on cuBLAS, the 4 MiB workspace and f32's split sums and
# dense embeddings (docs/results/2026-12-05-h100-new-defaults), these give the defaults
# before that change, to measure against:
#   before32: f32 with OOMLAB_COLUMN_SUMS=one,OOMLAB_EMBEDDING_GRAD=scatter,
#             OOMLAB_CUBLAS_WORKSPACE=cublas
#   before16: bf16 with OOMLAB_CUBLAS=0 (cubecl's products, as before)
#   dense32: f32 with OOMLAB_EMBEDDING_GRAD=dense (the default since the run that measured it)
#   attnw:  OOMLAB_ATTENTION_FORWARD=written, the efficient attention's forward pass as
#           tensor operations a group of heads at a time (src/model/attention/efficient.rs)
#           instead of burn-cubecl's attention, whose written-out fallback runs each step
#           as a kernel of its own
#   qkv:    OOMLAB_QKV=fused, Q, K and V from one product of x with the three weights side
#           by side (src/model/attention/mod.rs): one cuBLAS product where there were three
#   attnb:  OOMLAB_ATTENTION_PRODUCTS=burn, attention's batched products on burn's matmul
#           (the default before attnp became it)
#   attnp:  OOMLAB_ATTENTION_PRODUCTS=cublas (the CUDA default since it was measured in
#           docs/results/2026-12-05-h100-attention-products), the efficient attention's batched products
#           (QKᵀ, Pᵀ·dO, dO·Vᵀ, dS·K, dSᵀ·Q) as cuBLAS strided batched calls on the heads
#           views, dQ, dK and dV written as [batch, seq, heads, head_dim]
#           (src/model/batched.rs): no copies into contiguous tensors first
#   qkvp:   qkv and attnp together
#   attnwp: attnw and attnp together: the written-out forward's products on cuBLAS too, the
#           attention's output written as [batch, seq, heads, head_dim] (no copy before the
#           output projection)
#   smk:    OOMLAB_ATTENTION_SOFTMAX=kernel, the backward pass's causal softmax and its
#           gradient as one kernel of oomlab's each (crates/oomlab-kernels/src/cuda/softmax_kernels.rs) instead
#           of burn's tensor operations, reading and writing the products' dtypes (since
#           ba156f2, OOMLAB_ATTENTION_FORWARD unset writes the forward pass out wherever the
#           softmax kernels run, so smk is smkw's graph)
#   smkw:   smk with OOMLAB_ATTENTION_FORWARD=written: the forward pass as the written-out
#           attention (its products on cuBLAS, the default) with the softmax kernel, instead
#           of burn-cubecl's attention
#   smkf:   smk with OOMLAB_ATTENTION_FORWARD=fused: the softmax kernels in the backward pass
#           only, the forward pass burn-cubecl's attention
#   lnk:    OOMLAB_LAYER_NORM=kernel, LayerNorm's forward and backward passes as kernels of
#           oomlab's (crates/oomlab-kernels/src/cuda/norm_kernels.rs) instead of burn's tensor operations
#   rowk:   smkw and lnk together (f32's default on CUDA since it was measured in
#           docs/results/2026-12-06-h200-row-kernels; so only its bf16 rows differ from the
#           defaults)
#   rowb:   OOMLAB_ATTENTION_SOFTMAX=burn,OOMLAB_ATTENTION_FORWARD=fused,OOMLAB_LAYER_NORM=burn:
#           f32's defaults before rowk became them
#   gelk:   OOMLAB_GELU=kernel, the feed-forward layer's bias and GELU as one kernel of
#           oomlab's each way (crates/oomlab-kernels/src/cuda/gelu_kernels.rs) instead of burn's tensor
#           operations (the bias added, then burn's GELU and its gradient); f32's default on
#           CUDA since docs/results/2026-12-06-h100-gelu-kernels measured it, so only its
#           bf16 rows differ from the defaults
#   gelb:   OOMLAB_GELU=burn: f32's defaults before gelk became them
#   allk:   rowk and gelk together: f32's CUDA graph (every row and GELU kernel) for bf16;
#           bf16's CUDA default since docs/results/2026-12-06-h100-bf16-kernels measured it
#           (so since 75c3c7b smk, smkw, lnk, rowk, gelk and allk differ from the defaults
#           only where they leave a kernel off: run them against a binary before 75c3c7b)
#   dense16, split16, ds16: f32's dense embedding gradients, its split column sums, both, for
#           bf16 alone (f32 has them by default): the first levers bf16's profile names
#           after 75c3c7b (docs/results/2026-12-06-h100-bf16-kernels, profile-bf16/), each
#           turned down for bf16 before on one seed's loss
#           (dense16 and split16 are bf16's defaults since
#           docs/results/2026-12-06-h100-bf16-levers: run them against a binary before)
#   slice16, scatter16: bf16 with what came before two changes of 2026-12-06: the
#           efficient attention's groups of heads sliced before cuBLAS reads them
#           (OOMLAB_ATTENTION_HEADS=slice, a copy where the slice misses cubecl's 512-byte
#           alignment; the default reads them at an offset into the whole tensors) and
#           burn's scatter for the embeddings' gradients (OOMLAB_EMBEDDING_GRAD=scatter)
#   cat16:  bf16 with the efficient attention's groups of heads joined by burn's cat
#           (OOMLAB_ATTENTION_JOIN=cat), as before each group's product was written into its
#           heads of one buffer (src/model/batched.rs, Joined)
#   p16:    bf16 with the backward pass's probabilities recomputed in bf16
#           (OOMLAB_BACKWARD_PROBS=inputs): no cast of P for dV, the softmax's gradient
#           reading P in bf16 (src/model/attention/efficient.rs); changes bf16's rounding,
#           so judge it with the seeds part (bf16's CUDA default since
#           docs/results/2026-12-06-h100-probs-bf16 measured it: run it against a binary
#           before f044144)
#   p32:    bf16 with P recomputed in f32 (OOMLAB_BACKWARD_PROBS=f32), bf16's default
#           before f044144
#   grads2: OOMLAB_LINEAR_GRADS=together, a linear layer's dW and dX as one operation,
#           both cuBLAS calls behind one handshake with cubecl's stream instead of one each
#           (src/model/linear.rs, crates/oomlab-kernels/src/cuda/cublas.rs's linear_grads): fewer launches and
#           less host time where the host bounds the step (the gpu config's AMP bf16,
#           docs/results/2026-12-06-h100-probs-bf16/host-threads-a3b32e1); CUDA's default
#           since docs/results/2026-12-06-h100-grads-together measured it (run it against a
#           binary before that change)
#   grads1: OOMLAB_LINEAR_GRADS=apart, the two products as two operations (CUDA's default
#           before); TESTS=grads1 runs tests/gpu/linear.rs with it
#   cast16: bf16 with OOMLAB_AMP_CAST=micro-batch, AMP's parameters cast in each
#           micro-batch's graph (the default; ac6cb6e alone cast them once a step by
#           default, docs/results/2026-12-06-h100-grads-together measured against it)
#   prior16: bf16 with both grads1 and cast16: bf16's defaults before ac6cb6e
#   step16: bf16 with OOMLAB_AMP_CAST=step, the parameters cast once a step
#           (src/precision/cast.rs, cast_once_a_step): the same gradients, a cast of every
#           parameter a step instead of a micro-batch (4 on the gpu config); with it a new
#           user's first AMP bf16 step compiled 3 kernels beyond the shipped pack
#   pairs2: OOMLAB_ATTENTION_PAIRS=together, attention's independent backward products
#           (dV with dP, dQ with dK) as one operation a pair, both cuBLAS calls behind one
#           handshake (src/model/batched_pair.rs; CUDA's default since
#           docs/results/2026-12-06-h100-attention-pairs measured it: run it against a
#           binary whose default is apart, 248382e or one before 050096a);
#           TESTS=pairs2@batched::the_efficient_attention_forced_into_groups
#           runs the test that counts the pairs with it
#   pairs1: OOMLAB_ATTENTION_PAIRS=apart, one operation (one handshake) each product
#   (heads16, OOMLAB_ATTENTION_CHUNKS=heads, existed at 39652be only: that binary chunked
#   the scores by batch entries by default, which docs/results/2026-12-06-h100-bf16-levers
#   measured slower, and the variable went with it)
#   (head, OOMLAB_HEAD=cublas, the GPT's head on cuBLAS, was measured at 6daf8f2 and
#   removed: docs/results/2026-12-05-h100-attention-forward-head)
# Parts (PARTS, default "test warm paired long profile"):
#   test:    (needs .device-bin/gpu.xz, the test binary of `cargo test --release --test gpu
#            --no-run`) tests/gpu/linear.rs with the defaults (the cuBLAS
#            products queued on cubecl's device thread) and with OOMLAB_COLUMN_SUMS=split
#            (the bias added through the two-stage view), then tests/gpu/batched.rs
#            (attention's batched products on cuBLAS against burn's matmul, and the
#            efficient attention on them), then tests/gpu/softmax.rs (the softmax kernels
#            against burn's tensor operations, and the efficient attention on them),
#            tests/gpu/norm.rs (LayerNorm's kernels against burn's tensor operations) and
#            tests/gpu/gelu.rs (the bias-and-GELU kernels, and the layer on them),
#            TEST_TIMEOUT (default 150 s) each; TESTS (default "defaults split batched
#            softmax norm gelu") picks which; an entry with `::` is a test filter of its
#            own, run with the defaults (e.g. batched::the_efficient_attention_in_two_groups),
#            and VARIANT@FILTER that filter with the variant's settings.
#   warm:    one 2-step process per variant (and the defaults) and precision, so that the
#            timed parts do not compile: each new graph compiles and tunes its kernels once
#            (a changed graph's first run took 70-81 s in docs/results/2026-12-04-h200-embed-grad);
#            the log has each one's time to first step.
#   paired:  benches/paired.py on $CONFIG (default gpu): the defaults rows and those of each
#            variant in VARIANTS (default "before32 before16"; before c5a8e16 it was
#            "split linear2d cublas16 cublas16-ws levers": dense
#            alone was measured in docs/results/2026-12-04-h200-cublas-order, on cubecl's
#            products; it stays in "levers"), PyTorch f32 SDPA and AMP bf16
#            SDPA; $REPEATS (default 2) repeats of $STEPS (default 20) steps, interleaved.
#   long:    $LONG_STEPS (default 100) steps of the defaults and of each variant, f32 and
#            bf16, one process each, and the defaults once more (how far two runs of the same
#            binary and settings land apart; every such pair committed so far gave the same
#            bits, docs/results/2026-12-05-loss-agreement.md): long-VARIANT-P.json.
#   seeds:   $LONG_STEPS (default 100) steps of the defaults and of each variant, each
#            precision, for each seed of SEEDS (default "42 43 44 45 46"), one process each:
#            seeds/SEED-P.json (defaults) and seeds/SEED-P-VARIANT.json, read by
#            `python3 scripts/seed-spread.py DIR` (seeds/table.md): a bf16 change moves the
#            final loss by as much as the seed does, so one seed decides nothing at issue
#            29's 1e-3 bound (docs/results/2026-12-06-h100-pack-update).
#   profile: cubecl's kernel profiler (3 and 8 steps, PROFILE_PRECISIONS, default f32, each
#            process at most PROFILE_TIMEOUT s, default 30: give the h200 config more) on the
#            defaults and on each of
#            PROFILE_VARIANTS (default "levers") (profile-defaults-f32-N, profile-levers-f32-N;
#            read with `python3 benches/profile_breakdown.py DIR defaults levers`). cuBLAS's own
#            kernels are not in it (cubecl's profiler sees cubecl's kernels only). Without
#            the warm part a 2-step warm-up process runs first for each variant and precision.
# PRECISIONS (default "f32 bf16"): the precisions warm, paired (the variants' rows) and long
# run; PAIRED_ONLY replaces paired's default rows (the defaults and PyTorch's SDPA, f32 and
# AMP bf16), e.g. "oomlab bf16 defaults,pytorch amp-bf16 sdpa" for the h200 config's bound.
# VARIANTS="" runs the defaults alone; PAIRED_VARIANTS (default VARIANTS) are those paired
# times, e.g. where the others are run only for their loss (long).
# WARM_JOBS (default 1): how many variants warm side by side. With more than 1 each variant
# gets its own kernel cache folder ($KERNEL_CACHES/NAME; cublas16-ws shares cublas16's, whose
# graph it is, and is not warmed itself), so that no two processes write one cache, and the
# variant's later runs use that folder; the variants' precisions warm one after the other.
# WARM_SPLIT=precision warms each variant's precisions side by side too (cubecl's cache
# files are safe for several processes; oomlab's kernel pack, which a process installs into
# an empty cache folder, exists only for compute capability 9.0 cards, H100 and H200: use it on
# other cards).
# Their autotuning then runs beside the other variants' work on the GPU: a tuned choice may
# differ from one made alone (each run's kernel_cache "tuned" counts say whether a timed run
# tuned anything itself).
# docs/results/2026-12-05-h200-step-levers: WARM_JOBS=6 with the default variants warmed for
# 336 s (the bf16 graphs of linear2d and levers compile ~150 kernels each) and left paired no
# time: give paired its own call, or keep VARIANTS to graphs the pack has (cublas16*, ws4).
# Sequentially (WARM_JOBS=1) it does not all fit one call (up to 10 minutes): each new graph
# (up to 7 with the default variants) compiles in warm, and paired has 12 rows. Then run
# PARTS="test warm", then at once on the machine it leaves warm (the kernel cache is in /tmp;
# each call's start_log appends to the same folder) PARTS="paired", then PARTS="long
# profile"; the last results.tar.gz holds all three.
# An experiment, not what a new user meets: setup.sh sets CUBECL_AUTOTUNE_LEVEL=minimal and
# one kernel cache for every run of the call (the first run of each graph compiles; first-
# step times and the NVML peaks of those first runs are not comparable between rows: the
# long runs come after the paired ones, on a warm cache).
#   [COMMIT=<sha>] OUT=... [CONFIG=gpu] bash scripts/gpu/run.sh step-levers
# Then `python3 scripts/step-levers-table.py DIR` makes the folder's table.md. A lever that
# pays becomes the default only with the kernel pack rebuilt from a fresh machine's runs
# of its graph (export the variable, then `MODE=update FIRST=1 bash scripts/gpu/run.sh
# first-result`, scripts/kernel-pack.py) and the first results verified on another
# fresh machine (`MODE=verify-lesson`, which ends with the OOM CLI check).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
CONFIG=${CONFIG:-gpu}
BUDGET=${BUDGET:-560}
PARTS=${PARTS:-test warm paired long profile}
TEST_PID=
VARIANTS=${VARIANTS-before32 before16}
PRECISIONS=${PRECISIONS:-f32 bf16}
start_log "step-levers-$CONFIG"
left() { echo $(( BUDGET - SECONDS )); }
has() { case " $PARTS " in *" $1 "*) return 0;; esac; return 1; }
# variant_env NAME: the variable settings of a variant, comma separated (paired.py's form).
variant_env() {
  local settings
  case $1 in
    split) settings=OOMLAB_COLUMN_SUMS=split;;
    dense) settings=OOMLAB_EMBEDDING_GRAD=dense;;
    linear2d) settings=OOMLAB_LINEAR=2d;;
    levers) settings=OOMLAB_COLUMN_SUMS=split,OOMLAB_EMBEDDING_GRAD=dense,OOMLAB_LINEAR=2d;;
    cublas16) settings=OOMLAB_CUBLAS=1;;
    cublas16-ws) settings=OOMLAB_CUBLAS=1,CUBLAS_WORKSPACE_CONFIG=:4096:1;;
    cublas16-ws4) settings=OOMLAB_CUBLAS=1,OOMLAB_CUBLAS_WORKSPACE=4MiB;;
    ws4) settings=OOMLAB_CUBLAS_WORKSPACE=4MiB;;
    before32) settings=OOMLAB_COLUMN_SUMS=one,OOMLAB_EMBEDDING_GRAD=scatter,OOMLAB_CUBLAS_WORKSPACE=cublas;;
    before16) settings=OOMLAB_CUBLAS=0;;
    dense32) settings=OOMLAB_EMBEDDING_GRAD=dense;;
    attnw) settings=OOMLAB_ATTENTION_FORWARD=written;;
    qkv) settings=OOMLAB_QKV=fused;;
    attnp) settings=OOMLAB_ATTENTION_PRODUCTS=cublas;;
    attnb) settings=OOMLAB_ATTENTION_PRODUCTS=burn;;
    qkvp) settings=OOMLAB_QKV=fused,OOMLAB_ATTENTION_PRODUCTS=cublas;;
    attnwp) settings=OOMLAB_ATTENTION_FORWARD=written,OOMLAB_ATTENTION_PRODUCTS=cublas;;
    smk) settings=OOMLAB_ATTENTION_SOFTMAX=kernel;;
    smkw) settings=OOMLAB_ATTENTION_SOFTMAX=kernel,OOMLAB_ATTENTION_FORWARD=written;;
    lnk) settings=OOMLAB_LAYER_NORM=kernel;;
    rowk) settings=OOMLAB_ATTENTION_SOFTMAX=kernel,OOMLAB_ATTENTION_FORWARD=written,OOMLAB_LAYER_NORM=kernel;;
    rowb) settings=OOMLAB_ATTENTION_SOFTMAX=burn,OOMLAB_ATTENTION_FORWARD=fused,OOMLAB_LAYER_NORM=burn;;
    gelk) settings=OOMLAB_GELU=kernel;;
    gelb) settings=OOMLAB_GELU=burn;;
    smkf) settings=OOMLAB_ATTENTION_SOFTMAX=kernel,OOMLAB_ATTENTION_FORWARD=fused;;
    dense16) settings=OOMLAB_EMBEDDING_GRAD=dense;;
    split16) settings=OOMLAB_COLUMN_SUMS=split;;
    ds16) settings=OOMLAB_EMBEDDING_GRAD=dense,OOMLAB_COLUMN_SUMS=split;;
    allk) settings=OOMLAB_ATTENTION_SOFTMAX=kernel,OOMLAB_ATTENTION_FORWARD=written,OOMLAB_LAYER_NORM=kernel,OOMLAB_GELU=kernel;;
    slice16) settings=OOMLAB_ATTENTION_HEADS=slice;;
    scatter16) settings=OOMLAB_EMBEDDING_GRAD=scatter;;
    cat16) settings=OOMLAB_ATTENTION_JOIN=cat;;
    p16) settings=OOMLAB_BACKWARD_PROBS=inputs;;
    p32) settings=OOMLAB_BACKWARD_PROBS=f32;;
    grads2) settings=OOMLAB_LINEAR_GRADS=together;;
    grads1) settings=OOMLAB_LINEAR_GRADS=apart;;
    cast16) settings=OOMLAB_AMP_CAST=micro-batch;;
    prior16) settings=OOMLAB_LINEAR_GRADS=apart,OOMLAB_AMP_CAST=micro-batch;;
    step16) settings=OOMLAB_AMP_CAST=step;;
    pairs2) settings=OOMLAB_ATTENTION_PAIRS=together;;
    pairs1) settings=OOMLAB_ATTENTION_PAIRS=apart;;
    defaults) settings="";;
    *) echo "unknown variant $1" >&2; return 1;;
  esac
  echo "$settings$(cache_setting "$1")"
}
# cache_setting NAME: with WARM_JOBS > 1, the variant's own kernel cache folder (appended to
# its settings); the defaults keep the one setup.sh exported.
WARM_JOBS=${WARM_JOBS:-1}
KERNEL_CACHES=${KERNEL_CACHES:-/tmp/oomlab-kernel-caches}
cache_setting() {
  [ "$WARM_JOBS" -gt 1 ] && [ "$1" != defaults ] || return 0
  local graph=${1%-ws}; graph=${graph%-ws4}
  [ "$graph" = ws4 ] && return 0
  echo ",OOMLAB_KERNEL_CACHE=$KERNEL_CACHES/$graph"
}
# precisions NAME: the precisions whose graph the variant changes (cuBLAS already runs f32's
# products by default, so the cublas16 variants' f32 runs would be the defaults'; so are
# smk's, smkw's, lnk's and rowk's since ba156f2, and gelk's since the GELU kernels).
precisions() {
  case $1 in cublas16*|*16|p32|smk|smkw|smkf|lnk|rowk|gelk|allk) echo bf16;; ws4|*32|rowb|gelb) echo f32;; *) echo f32 bf16;; esac
}
# with_env NAME CMD...: CMD with the variant's variables set.
with_env() {
  local settings; settings=$(variant_env "$1") || return 1; shift
  env ${settings//,/ } "$@"
}

# gpu_tests: tests/gpu/linear.rs with the defaults, then with split, then tests/gpu/batched.rs
# (attention's batched products on cuBLAS), tests/gpu/softmax.rs (the softmax kernels) and
# tests/gpu/norm.rs (LayerNorm's kernels), which set their variables themselves (kernel
# cache: the test binary's own, not oomlab's); one test at a time (the softmax and norm
# tests count the process's kernel calls).
gpu_tests() {
  for v in ${TESTS:-defaults split batched softmax norm gelu}; do
    local filter=linear:: settings=$v
    case $v in batched|softmax|norm|gelu) filter=$v:: settings=defaults;; *@*) settings=${v%%@*} filter=${v#*@};; *::*) filter=$v settings=defaults;; esac
    say "test: tests/gpu/${filter%::}.rs, $settings"
    env $(variant_env $settings | sed 's/,*OOMLAB_KERNEL_CACHE=[^,]*//; s/,/ /g') timeout ${TEST_TIMEOUT:-150} \
      /tmp/bin/gpu --ignored --nocapture --test-threads=1 $filter > "$R/gpu-test-$v.txt" 2>&1
    echo "test $v exit: $?" >> "$LOG"
    tail -4 "$R/gpu-test-$v.txt" >> "$LOG"
  done
}
if has test; then
  if [ -x /tmp/bin/gpu ]; then
    # With WARM_JOBS > 1 and warm in PARTS, the tests run beside the warm-up (they time
    # nothing); the timed parts wait for them.
    if [ "$WARM_JOBS" -gt 1 ] && has warm; then gpu_tests & TEST_PID=$!; else gpu_tests; fi
  else
    say "test: skipped (no .device-bin/gpu.xz)"
  fi
fi

# warm_one V P: one 2-step process of variant V at precision P; its lines go to warm-V-P.log.
warm_one() {
  local v=$1 p=$2 w="$R/warm-$1-$2"
  {
    echo "### warm: $v, $p, 2 steps ($(date -u +%H:%M:%S))"
    with_env $v timeout $(( $(left) - 100 )) $BIN train --config "$CONFIG" --device cuda --precision $p \
      --max-steps 2 --json --quiet --out "$w" > "$w.json" 2>> "$w.log.tmp"
    echo "exit: $? ($(date -u +%H:%M:%S))"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('time_to_first_step_s', d['time_to_first_step_s'], 'kernel_cache', d.get('kernel_cache'))" \
      "$w.json" 2>&1
  } > "$w.log" 2>&1
  cat "$w.log.tmp" >> "$w.log" 2>/dev/null; rm -f "$w.log.tmp" "$w/memory.csv"
}
# wait_for_slot: until fewer than WARM_JOBS warm-ups run (the GPU tests do not count).
wait_for_slot() {
  while [ "$(jobs -rp | grep -vx "${TEST_PID:-none}" | wc -l)" -ge "$WARM_JOBS" ]; do sleep 1; done
}
if has warm; then
  if [ "$WARM_JOBS" -gt 1 ]; then
    say "warm: defaults and ${VARIANTS/cublas16-ws/}, $WARM_JOBS at a time, each with its own kernel cache"
    for v in defaults $VARIANTS; do
      [ "$v" = cublas16-ws ] && continue
      wait_for_slot
      if [ "${WARM_SPLIT:-variant}" = precision ]; then
        for p in $(precisions $v); do
          case " $PRECISIONS " in *" $p "*) ;; *) continue;; esac
          wait_for_slot
          warm_one $v $p & WARM_PIDS="${WARM_PIDS:-} $!"
        done
      else
        ( for p in $(precisions $v); do
            case " $PRECISIONS " in *" $p "*) ;; *) continue;; esac
            [ "$(left)" -gt 120 ] && warm_one $v $p
          done ) &
        WARM_PIDS="${WARM_PIDS:-} $!"
      fi
    done
    wait $WARM_PIDS
    cat "$R"/warm-*.log >> "$LOG"
  else
    for p in $PRECISIONS; do for v in defaults $VARIANTS; do
      case " $(precisions $v) " in *" $p "*) ;; *) continue;; esac
      [ "$(left)" -gt 120 ] || break
      warm_one $v $p; cat "$R/warm-$v-$p.log" >> "$LOG"
    done; done
  fi
fi

if [ -n "$TEST_PID" ]; then
  say "waiting for the GPU tests"
  wait "$TEST_PID"
fi

if has paired; then
  ARGS=(); ONLY=${PAIRED_ONLY:-oomlab f32 defaults,pytorch f32 sdpa,oomlab bf16 defaults,pytorch amp-bf16 sdpa}
  for v in ${PAIRED_VARIANTS-$VARIANTS}; do
    ARGS+=(--variant "$v:$(variant_env $v)")
    for p in $(precisions $v); do
      case " $PRECISIONS " in *" $p "*) ONLY="$ONLY,oomlab-$v $p defaults";; esac
    done
  done
  RESERVE=0
  has long && RESERVE=$((RESERVE + 150))
  has profile && RESERVE=$((RESERVE + 60))
  has seeds && RESERVE=$((RESERVE + ${SEEDS_RESERVE:-240}))
  say "paired: $CONFIG, ${REPEATS:-2} repeats of ${STEPS:-20} steps; variants ${PAIRED_VARIANTS-$VARIANTS}"
  timeout $(( $(left) - 15 )) python3 benches/paired.py --oomlab "$BIN" --config "$CONFIG" --steps "${STEPS:-20}" \
    --repeats "${REPEATS:-2}" --deadline-s $(( $(left) - 40 - RESERVE )) --only "$ONLY" "${ARGS[@]}" \
    --out "$R/paired" > "$R/paired-stdout.txt" 2>&1
  echo "exit: $?" >> "$LOG"
  [ -f "$R/paired/paired.md" ] || python3 benches/paired.py --tables-only --out "$R/paired" >> "$LOG" 2>&1
fi

# long_run V P DIR [ARGS...]: $LONG_STEPS (default 100) steps of variant V at precision P,
# one process, its run folder DIR and its JSON summary DIR.json (ARGS: more train flags).
long_run() {
  local v=$1 p=$2 dir=$3; shift 3
  with_env $v timeout 60 $BIN train --config "$CONFIG" --device cuda --precision $p "$@" \
    --max-steps "${LONG_STEPS:-100}" --json --quiet --out "$dir" > "$dir.json" 2>> "$LOG"
  echo "exit: $?" >> "$LOG"
}
if has long; then
  for p in $PRECISIONS; do for v in defaults $VARIANTS defaults-again; do
    case " $(precisions ${v%-again}) " in *" $p "*) ;; *) continue;; esac
    [ "$(left)" -gt 40 ] || break
    say "long: ${LONG_STEPS:-100} steps, $p, $v"
    long_run ${v%-again} $p "$R/long-$v-$p"
    rm -f "$R/long-$v-$p/memory.csv"
  done; done
fi

if has seeds; then
  mkdir -p "$R/seeds" /tmp/seeds
  for s in ${SEEDS:-42 43 44 45 46}; do for p in $PRECISIONS; do for v in defaults $VARIANTS; do
    case " $(precisions $v) " in *" $p "*) ;; *) continue;; esac
    [ "$(left)" -gt 40 ] || break
    name=$s-$p; [ "$v" = defaults ] || name=$name-$v
    say "seeds: ${LONG_STEPS:-100} steps, seed $s, $p, $v"
    long_run $v $p "/tmp/seeds/$name" --seed $s
    mv "/tmp/seeds/$name.json" "$R/seeds/$name.json"
  done; done; done
fi

if has profile; then
  for v in defaults ${PROFILE_VARIANTS:-levers}; do for pp in ${PROFILE_PRECISIONS:-f32}; do for n in 3 8; do
    [ "$(left)" -gt 25 ] || break
    # Without a warm-up process first the 3-step run pays the driver's compilation of the
    # PTX and the 8-step run does not: their difference is then no step's (read such a
    # pair with `profile_breakdown.py --tail`).
    [ "$n" = 3 ] && ! has warm && [ ! -e "$R/warm-$v-$pp.json" ] && warm_one $v $pp
    say "profile: $v, $pp, $n steps"
    with_env $v env CUBECL_DEBUG_OPTION=profile CUBECL_DEBUG_LOG="$R/profile-$v-$pp-$n.log" timeout ${PROFILE_TIMEOUT:-30} $BIN train \
      --config "$CONFIG" --device cuda --precision $pp --max-steps $n --out "$R/profile-$v-$pp-$n" > /dev/null 2>> "$LOG"
    echo "exit: $?" >> "$LOG"
    gzip -f "$R/profile-$v-$pp-$n.log" 2>/dev/null
  done; done; done
fi

say "done"
rm -f "$R"/profile-*/steps.jsonl "$R"/warm-*/steps.jsonl "$R"/paired/runs/*/steps.jsonl "$R"/paired/data.txt
tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" "step-levers-$CONFIG"
cat "$LOG"
tail -30 "$R/paired/paired.md" 2>/dev/null
