# bench/baseline_kernels.sh — sourced by bench/regress and bench/regress_solvers: compare on the OpenBLAS
# kernels the committed baselines (results/baseline/, results/corpus/baseline/) were made with. Kernel sets
# round differently (the order of a dot product's terms), and the quick presets hold degenerate contact
# problems whose answers, and the trajectories after them, follow the rounding: on the SkylakeX kernels
# `make regress` flagged some forty groups (fb_newton's incline errors 8e-12 against 7e-15, the robot-arm
# grasp's corrective trajectories, Siconos' Newton iterations, one MILP step of the block in a hole) that all
# pass on the Haswell kernels the baselines were made with. Unless OPENBLAS_CORETYPE is set, the baselines'
# kernels are used when the CPU has them (AVX2 and FMA); the drivers record the kernels in meta.json
# (blas_core).
baseline_blas_core=Haswell
if [ -z "${OPENBLAS_CORETYPE+x}" ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=$baseline_blas_core
  echo "== OpenBLAS kernels: $baseline_blas_core, the baselines' (OPENBLAS_CORETYPE overrides)"
fi
