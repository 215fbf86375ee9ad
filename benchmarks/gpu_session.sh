#!/usr/bin/env bash
# One lent GPU's measurements, as one prepared command (the device tool: 15 minutes a session, ≤ 10 min a command).
# Run from the repository root on the device machine, with the cp312 wheels of taichi, dill and meshio in .whl/
# (README's "GPU" section says how to fetch them):
#
#     bash benchmarks/gpu_session.sh            # everything, under 8 min (each step has a limit)
#
# 1. the joints through solids (issue 29) on CUDA: the drum column under a Ricker pulse (compare with the CPU's line
#    in the README); 2. one Peña world (bench_pena); 3. Peña batches at W = 1, 132 (one per SM of an H100), 1,000,
#    over three block sizes (issue 30 item 1: where throughput stops growing); 4. Nsight Compute on advance_blocks at
#    W = 132: registers a thread, achieved occupancy, the main stall reasons (issue 30 item 1); 5. the block path's
#    same bits on CUDA (issue 30 item 3: two runs, a world alone, the shares in reverse order; check_block_bits.py).
# Each step has its own time limit, so that one stuck step leaves the others' figures.
set -u
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=/tmp/site:$PWD || exit 1
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv
step() { local limit=$1; shift; echo "== $* (limit ${limit} s)"; local t0=$SECONDS; timeout "$limit" "$@"; \
         echo "== rc $? in $((SECONDS - t0)) s"; }
step 130 python3 -m dem.cli run drum_column --arch cuda --set pulse=ricker pulse_pga_g=0.4 --t-end 1.5 \
  --out /tmp/col --no-plots --no-progress
step 60 python3 benchmarks/bench_pena.py --arch cuda --t-end 2 --no-sleep
step 180 python3 benchmarks/bench_worlds.py --arch cuda --worlds 1 132 1000 --t-end 0.05 --alone 0 \
  --block-dim 64 128 256
if command -v ncu >/dev/null; then
  step 100 ncu --clock-control none -k regex:advance_blocks -c 1 --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SpeedOfLight \
    python3 benchmarks/bench_worlds.py --arch cuda --worlds 132 --t-end 0.002 --alone 0
else
  echo "ncu: not on this machine"
fi
step 150 python3 benchmarks/check_block_bits.py --arch cuda
