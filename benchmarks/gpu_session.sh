#!/usr/bin/env bash
# One lent GPU's measurements, as one prepared command (the device tool: 15 minutes a session, ≤ 10 min a command).
# Run from the repository root on the device machine, with the cp312 wheels of taichi, dill and meshio in .whl/
# and, to load the step kernels instead of compiling them (~114 s each on the H200's host), the CUDA kernel cache
# built here without a GPU in .gpu/, both carried (docs/gpu.md, "Preparing a lent GPU's session", says how):
#
#     python3.12 benchmarks/cuda_kernel_cache.py --block-dim 32 64 128 256 512 1024 --out .gpu/ticache.tar.xz  # here
#     bash benchmarks/gpu_session.sh            # there: the measurements, under 10 min (the steps' limits: 580 s)
#     bash benchmarks/gpu_session.sh study      # there, in a session of its own: issue 30 item 6, the fragility
#                                               # study's 1,000 DEM cases in one batch (limit 560 s)
#
# In order of what the issue needs most (each step has its own time limit, so that one stuck step leaves the others'
# figures): 0. whether the carried cache loads (dem compile says "loaded from the cache" or "compiled");
# 1. Peña batches at W = 1, 132 (one per SM), 1,000 over block sizes 32–256 (issue 30 items 1 and 2: where
#    throughput stops growing, and the block-size rule; benchmarks/ptx_resources.py gives each size's registers and
#    occupancy without a GPU); 2. W = 10,000 at blocks 32 and 128; 3. Nsight Compute at W = 1,000, block 32 (achieved
#    occupancy and stalls where all worlds are resident); 4. the block path's same bits on CUDA (issue 30 item 3:
#    two runs, a world alone, the shares in reverse order; check_block_bits.py); 5. one Peña world (bench_pena);
#    6. the drum column (joints through solids, issue 29) under a Ricker pulse (compare with the CPU's README line);
#    7. one pier-deck world at blocks of 128, 512 and 1,024 (item 5: a larger block for a big world; ptxas: 255, 64
#    and 32 registers a thread).
set -u
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=/tmp/site:$PWD || exit 1
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv
step() { local limit=$1; shift; echo "== $* (limit ${limit} s)"; local t0=$SECONDS; timeout "$limit" "$@"; \
         echo "== rc $? in $((SECONDS - t0)) s"; }
if [ -f .gpu/ticache.tar.xz ]; then
  tar xJf .gpu/ticache.tar.xz -C /tmp && export TI_OFFLINE_CACHE_FILE_PATH=/tmp/ticache
  echo "kernel cache: $(ls /tmp/ticache | wc -l) files from .gpu/ticache.tar.xz"
fi
step 130 python3 -m dem.cli compile --arch cuda --entry blocks --no-progress
if [ "${1:-}" = study ]; then  # the study's numbers.json comes back under $OUT when the device tool gives one
  step 420 python3 docs/examples/gpu_fragility_study.py --arch cuda --out /tmp/gpu_fragility \
    --figures "${OUT:-/tmp/gpu_fragility}/gpu_fragility"
  exit 0
fi
step 200 python3 benchmarks/bench_worlds.py --arch cuda --worlds 1 132 1000 --t-end 0.05 --alone 0 \
  --block-dim 32 64 128 256
step 50 python3 benchmarks/bench_worlds.py --arch cuda --worlds 10000 --t-end 0.005 --alone 0 --block-dim 32 128
if command -v ncu >/dev/null; then
  step 50 ncu --clock-control none -k regex:advance_blocks -c 1 --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SpeedOfLight \
    python3 benchmarks/bench_worlds.py --arch cuda --worlds 1000 --t-end 0.002 --alone 0 --block-dim 32
else
  echo "ncu: not on this machine"
fi
step 60 python3 benchmarks/check_block_bits.py --arch cuda
step 40 python3 benchmarks/bench_pena.py --arch cuda --t-end 2 --no-sleep
step 50 python3 -m dem.cli run drum_column --arch cuda --set pulse=ricker pulse_pga_g=0.4 --t-end 1.5 \
  --out /tmp/col --no-plots --no-progress
# 7. (item 5, last: the one the command's 600 s may cut) one pier-deck world at blocks of 128, 512 and 1,024 threads
for bd in 128 512 1024; do
  step 40 python3 -m dem.cli run pier_deck --arch cuda --set pga_g=0.5 --t-end 0.3 --block-dim $bd \
    --out /tmp/pd$bd --no-plots --no-progress
done
