#!/bin/bash
# good (0) if pure f16 on the CPU ends below loss 10 after the tiny config's 80 steps
cd /tmp/bisect-wt || exit 125
CARGO_TARGET_DIR=/work/main/target cargo build --release >> /tmp/bisect/build.log 2>&1 || exit 125
rm -rf /tmp/bisect/run
timeout 600 /work/main/target/release/oomlab train --device cpu --strategy half --precision f16 --max-steps 80 --out /tmp/bisect/run > /tmp/bisect/run.out 2>&1
loss=$(python3 -c "
import json
d=json.load(open('/tmp/bisect/run/summary.json'))
print(d.get('final_loss'), d.get('precision',{}).get('loss_scale',{}).get('skipped_steps') if isinstance(d.get('precision'),dict) else '')" 2>/dev/null)
echo "$(git rev-parse --short HEAD) 80 steps: final_loss skipped = $loss" >> /tmp/bisect/results.txt
set -- $loss
[ -n "${1:-}" ] && [ "$1" != None ] || exit 125
python3 -c "import sys; l=float(sys.argv[1]); sys.exit(0 if l==l and l<10 else 1)" "$1"
