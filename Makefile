# contactbench — one non-recursive Makefile. Objects out of tree under $(BUILD)/, programs in $(BIN)/.
#   make deps      install the Debian packages the project needs (apt-get, as root) when missing
#   make           build the library, the drivers (bench/*.c -> bin/bench_*), the tools and the tests
#   make check     deps -> build -> every test; ends with "N passed, N failed, N skipped"
#   make run       deps -> build -> the main job
#   make regress   the quick presets compared with results/baseline/ (make baseline rewrites it)
#   make regress-solvers  every solver on the committed corpus results/corpus/ against its baseline
#   make asan      the tests under AddressSanitizer + UBSan
#   make fuzz-corpus  every byte of a small problem corpus flipped, each copy read every way (hours)
# Sources are found by folder, so adding a solver, formulation, driver or test needs no edit here.

BUILD ?= build
BIN ?= bin
CC ?= mpicc
ifeq ($(origin CC),default)
  CC = mpicc
endif
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Werror
LDFLAGS ?=

DEB_PACKAGES = build-essential pkg-config openmpi-bin libopenmpi-dev petsc-dev libgsl-dev gnuplot-nox \
  liblapacke-dev libopenblas-dev libglpk-dev libsiconos-numerics-dev libqhull-dev slurm-wlm munge \
  clang-format clang-tidy libhdf5-dev libsuitesparse-dev libgmp-dev libbullet-dev

# Dependencies. On Debian everything comes from `make deps`. On a cluster, point the build at module-provided
# libraries instead: PETSc by its own convention (PETSC_DIR and PETSC_ARCH, e.g. `make PETSC_DIR=$PETSC_DIR
# PETSC_ARCH=arch-opt`), or pkg-config (PKG_CONFIG_PATH holding PETSc.pc); the others through pkg-config or
# the overridable variables below (GSL_CFLAGS/GSL_LIBS, GLPK_LIBS, QHULL_LIBS, LAPACK_LIBS, SICONOS_DIR).
# CC is mpicc unless given (e.g. `make CC=cc` with a Cray wrapper that adds MPI itself).
ifneq ($(PETSC_DIR),)
  PETSC_PC := $(PETSC_DIR)/$(PETSC_ARCH)/lib/pkgconfig
  PETSC_CFLAGS ?= $(shell PKG_CONFIG_PATH=$(PETSC_PC) pkg-config --cflags PETSc)
  PETSC_LIBS ?= $(shell PKG_CONFIG_PATH=$(PETSC_PC) pkg-config --libs PETSc) -Wl,-rpath,$(PETSC_DIR)/$(PETSC_ARCH)/lib
else
  PETSC_CFLAGS ?= $(shell pkg-config --cflags PETSc 2>/dev/null)
  PETSC_LIBS ?= $(shell pkg-config --libs PETSc 2>/dev/null)
endif
GSL_CFLAGS ?= $(shell pkg-config --cflags gsl 2>/dev/null || gsl-config --cflags 2>/dev/null)
# GSL's reference CBLAS is replaced by OpenBLAS (same cblas_* symbols, far faster).
GSL_LIBS ?= $(filter-out -lgslcblas,$(shell pkg-config --libs gsl 2>/dev/null || gsl-config --libs 2>/dev/null))
GLPK_LIBS ?= -lglpk
QHULL_LIBS ?= $(shell pkg-config --libs qhull_r 2>/dev/null || echo -lqhull_r)
LAPACK_LIBS ?= $(shell pkg-config --libs lapacke 2>/dev/null || echo -llapacke) -llapack -lopenblas
SICONOS_DIR ?= /usr
# HDF5 (the problem corpus, bench/corpus/): the serial library; one file per rank, so no MPI-IO is needed.
HDF5_CFLAGS ?= $(shell pkg-config --cflags hdf5-serial 2>/dev/null || echo -I/usr/include/hdf5/serial)
HDF5_LIBS ?= $(shell pkg-config --libs hdf5-serial 2>/dev/null || echo -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5)
SICONOS := $(wildcard $(SICONOS_DIR)/include/siconos/numerics/LCP_Solvers.h)

# Bullet's MLCP solvers (solvers/bullet/, one C++ shim): built when the double-precision Bullet is found.
BULLET_DIR ?= /usr
BULLET := $(wildcard $(BULLET_DIR)/include/bullet/BulletDynamics/MLCPSolvers/btDantzigSolver.h)
CXX_MPI ?= mpicxx
CXXFLAGS_WARN = -Wall -Wextra -Wpedantic -Wshadow -Wmissing-declarations -Werror
BULLET_CXXFLAGS = -std=c++17 $(CFLAGS) $(CXXFLAGS_WARN) -MMD -MP -DBT_USE_DOUBLE_PRECISION \
  -isystem $(BULLET_DIR)/include/bullet
BULLET_LIBS ?= -lBulletDynamics-float64 -lLinearMath-float64 -lstdc++

PKG_CFLAGS := $(patsubst -I%,-isystem %,$(PETSC_CFLAGS) $(GSL_CFLAGS) $(HDF5_CFLAGS))
BASE_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 $(CFLAGS) $(WARN) -MMD -MP $(PKG_CFLAGS)
# KLU (SuiteSparse): the sparse LU of fb_newton_sparse
KLU_CFLAGS ?= -isystem /usr/include/suitesparse
KLU_LIBS ?= -lklu
# GMP: the exact rational end game of Lemke (solvers/lemke/lemke_exact.c)
GMP_LIBS ?= -lgmp
BASE_CFLAGS += $(KLU_CFLAGS)
LIBS = $(PETSC_LIBS) $(GSL_LIBS) $(GLPK_LIBS) $(QHULL_LIBS) $(LAPACK_LIBS) $(HDF5_LIBS) $(KLU_LIBS) $(GMP_LIBS) -lm
ifneq ($(SICONOS),)
  BASE_CFLAGS += -DCB_HAVE_SICONOS -isystem $(SICONOS_DIR)/include/siconos
  LIBS += -L$(SICONOS_DIR)/lib -lsiconos_numerics
endif
ifneq ($(BULLET),)
  BASE_CFLAGS += -DCB_HAVE_BULLET
  LIBS += $(BULLET_LIBS)
endif

# Layers (design.md): solvers <- formulations <- bench. Each layer is one archive, compiled with the include
# paths of itself and the layers below only, so an include that reaches up fails to compile. The solvers
# layer's families (solvers/FAMILY/) see each other's headers; the layers above see its core only (problems,
# the checker, the solver type and registry, declared options).
SOLVER_FAMILIES = core lemke newton petsc siconos splitting enumeration cone pivoting bullet select
SOLVERS_INC = -Isolvers/core
SOLVERS_OWN_INC = $(SOLVER_FAMILIES:%=-Isolvers/%)
# The model layer is a ladder of rooms, lowest first: each room is compiled with the include paths of
# itself and the rooms below (and solvers/core from the formulations up), so an include that reaches up a
# rung does not compile either. math: vectors, quaternions, 2D polygon arrays; shapes: convex parts,
# polygons, polyhedra; world: bodies, joints, state; geometry: detection, contacts, Jacobians, overlap;
# types: the formulations, in families (types/FAMILY/: core, classic LCPs, nonconvex, PEG, implicit); scenes: world builders; step: the stepper, the run loop and its observers.
FORMULATIONS_ROOMS = math shapes world geometry types scenes step
MATH_INC = -Iformulations/math
SHAPES_INC = $(MATH_INC) -Iformulations/shapes
WORLD_INC = $(SHAPES_INC) -Iformulations/world
GEOMETRY_INC = $(WORLD_INC) -Iformulations/geometry
FORMULATION_FAMILIES = core classic nonconvex peg implicit
TYPES_INC = $(SOLVERS_INC) $(GEOMETRY_INC) $(FORMULATION_FAMILIES:%=-Iformulations/types/%)
SCENES_INC = $(TYPES_INC) -Iformulations/scenes
STEP_INC = $(SCENES_INC) -Iformulations/step
FORMULATIONS_INC = $(STEP_INC)
BENCH_INC = $(FORMULATIONS_INC) -Ibench -Ibench/engine -Ibench/results -Ibench/problems -Ibench/corpus

SOLVERS_SRC := $(wildcard solvers/*/*.c)
ifeq ($(SICONOS),)
  SOLVERS_SRC := $(filter-out solvers/siconos/%,$(SOLVERS_SRC))
endif
SOLVERS_CXX_SRC := $(wildcard solvers/*/*.cpp)
ifeq ($(BULLET),)
  SOLVERS_SRC := $(filter-out solvers/bullet/%,$(SOLVERS_SRC))
  SOLVERS_CXX_SRC := $(filter-out solvers/bullet/%,$(SOLVERS_CXX_SRC))
endif
FORMULATIONS_SRC := $(foreach r,$(FORMULATIONS_ROOMS),$(wildcard formulations/$(r)/*.c formulations/$(r)/*/*.c))
BENCH_LIB_SRC := $(wildcard bench/engine/*.c bench/results/*.c bench/problems/*.c bench/corpus/*.c)
LIB_SRC := $(SOLVERS_SRC) $(FORMULATIONS_SRC) $(BENCH_LIB_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
SOLVERS_LIB := $(BUILD)/libcb_solvers.a
FORMULATIONS_LIB := $(BUILD)/libcb_formulations.a
BENCH_LIB := $(BUILD)/libcb_bench.a
LIB := $(BENCH_LIB) $(FORMULATIONS_LIB) $(SOLVERS_LIB)

DRIVER_SRC := $(wildcard bench/*.c)
TOOL_SRC := $(wildcard bench/tools/*.c)
# Tests mirror the code's folders (tests/solvers/lemke/, tests/formulations/types/implicit/, tests/bench/engine/,
# ...): tests/DIR/test_X.c -> $(BIN)/tests/DIR/test_X; the support files (check.c, fd_jacobian.c,
# solver_fixture.c) stay in tests/ itself.
TEST_SRC := $(sort $(shell find tests -name 'test_*.c'))
DRIVERS := $(DRIVER_SRC:bench/%.c=$(BIN)/bench_%)
TOOLS := $(TOOL_SRC:bench/tools/%.c=$(BIN)/%)
TESTS := $(TEST_SRC:tests/%.c=$(BIN)/tests/%)
TEST_SUPPORT := $(BUILD)/tests/check.o $(BUILD)/tests/fd_jacobian.o $(BUILD)/tests/solver_fixture.o \
  $(BUILD)/tests/drive_fixture.o $(BUILD)/tests/build_info_stub.o

.SECONDARY:
.PHONY: FORCE all deps check test run regress regress-solvers baseline-solvers baseline asan format format-check tidy clean bench-solvers bench-step bench-sparse bench-lemke bench-lemke-small bench-engine bench-peers fuzz fuzz-corpus
all: $(DRIVERS) $(TOOLS) $(TESTS)

$(BUILD)/solvers/%.o: solvers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(SOLVERS_OWN_INC) -c $< -o $@

# the one C++ file (solvers/bullet/bullet_shim.cpp), with C++ flags as strict as the C ones
$(BUILD)/solvers/%.o: solvers/%.cpp
	@mkdir -p $(dir $@)
	$(CXX_MPI) $(BULLET_CXXFLAGS) $(SOLVERS_OWN_INC) -c $< -o $@

define ROOM_RULE
$$(BUILD)/formulations/$(1)/%.o: formulations/$(1)/%.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(BASE_CFLAGS) $$($(2)_INC) -c $$< -o $$@
endef
$(eval $(call ROOM_RULE,math,MATH))
$(eval $(call ROOM_RULE,shapes,SHAPES))
$(eval $(call ROOM_RULE,world,WORLD))
$(eval $(call ROOM_RULE,geometry,GEOMETRY))
$(eval $(call ROOM_RULE,types,TYPES))
$(eval $(call ROOM_RULE,scenes,SCENES))
$(eval $(call ROOM_RULE,step,STEP))

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(BENCH_INC) -c $< -o $@

# The results tools (tables, summaries, plots, compare) read run directories only: no engine, no physics.
$(BUILD)/bench/results/%.o: bench/results/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -Ibench/results -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(BENCH_INC) $(SOLVERS_OWN_INC) -Itests -c $< -o $@

# The build's provenance (bench/engine/build_info.h): the commit and whether tracked files other than results/
# differ from it, checked at every make and rewritten only when they change, so that an unchanged tree
# relinks nothing and a binary's meta.json names the code it was built from, wherever it runs. Only the
# drivers and tools link it (a commit relinks those); the tests link tests/build_info_stub.c.
$(BUILD)/build_info.c: FORCE
	@mkdir -p $(dir $@)
	@sha=$$(git rev-parse HEAD 2>/dev/null); \
	dirty=$$(git status --porcelain --untracked-files=no -- . ':(exclude)results' 2>/dev/null | head -n 1 | wc -l); \
	printf '/* generated by the Makefile: see bench/engine/build_info.h */\n#include "build_info.h"\n%s\n%s\n' \
	  "const char build_git_sha[] = \"$$sha\";" "const int build_git_dirty = $$dirty;" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
$(BUILD)/build_info.o: $(BUILD)/build_info.c
	$(CC) $(BASE_CFLAGS) -Ibench/engine -c $< -o $@

$(SOLVERS_LIB): $(SOLVERS_SRC:%.c=$(BUILD)/%.o) $(SOLVERS_CXX_SRC:%.cpp=$(BUILD)/%.o)
$(FORMULATIONS_LIB): $(FORMULATIONS_SRC:%.c=$(BUILD)/%.o)
$(BENCH_LIB): $(BENCH_LIB_SRC:%.c=$(BUILD)/%.o)
$(BUILD)/libcb_%.a:
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN)/bench_%: $(BUILD)/bench/%.o $(LIB) $(BUILD)/build_info.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(BUILD)/build_info.o $(LIB) $(LIBS) -o $@

$(BIN)/%: $(BUILD)/bench/tools/%.o $(LIB) $(BUILD)/build_info.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(BUILD)/build_info.o $(LIB) $(LIBS) -o $@

$(BIN)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(TEST_SUPPORT) $(LIB) $(LIBS) -o $@

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "make deps: missing Debian packages:$$missing (run 'make deps' as root)" >&2; exit 1; fi; \
	  echo "make deps: installing$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

check:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@tests/run.sh $(BIN)

test: all
	@tests/run.sh $(BIN)

run:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	bench/run-default

# Every solver on the committed problem corpus (results/corpus/) against its baseline (bench/regress_solvers:
# 0 pass, 1 regression, 2 could not compare; make reports any failure as 2).
regress-solvers: all
	bench/regress_solvers
baseline-solvers: all
	bench/regress_solvers -baseline

# The quick presets against results/baseline/ (bin/bench_compare). bench/regress exits 0 pass, 1 regression,
# 2 could not compare; make turns any failing recipe into its own status 2, so the recipe prints the
# script's code (also in results/regress/latest/exit_code) before failing with it. Scripts that need the
# code call bench/regress directly.
regress: all
	@bench/regress; rc=$$?; \
	echo "make regress: bench/regress exited $$rc (0 pass, 1 regression, 2 could not compare);" \
	  "make reports any failure as 2: run bench/regress for the code itself"; \
	exit $$rc

# Rewrites results/baseline/ from fresh quick runs (commit the result).
baseline: all
	bench/regress -baseline

bench-solvers: all
	$(BIN)/bench_solvers -options_file bench/experiments/solvers.opts

# fb_newton_sparse vs fb_newton vs lemke on the cannonball piles' mixed LCPs and sparse_mlcpN -> results/sparse/
bench-sparse: all
	bench/sparse_crossover

# lemke vs siconos_lemke on SPD n = 1000 (1 and 2 BLAS threads, ratios per round) and n = 4000 -> results/lemke_speed/
bench-lemke: all
	bench/lemke_speed

# Lemke's small-problem path: plain loops against BLAS calls on n = 6 ... 32 and the corpus' small contact
# LCPs, interleaved -> results/lemke_small/ (the reference run: results/reference/lemke_small/)
bench-lemke-small: all
	bench/lemke_small

# The sweep engine's own cost per task (dispatch, ledger, merge, summary, bench_merge, bench_compare) and max RSS
# at 1e4, 1e5 and 1e6 empty tasks -> results/engine/ (the committed table: results/reference/engine/)
bench-engine: all
	bench/engine_speed

# our solvers beside Siconos' and Bullet's on SPD n = 10 ... 1000, the contact classes and a corpus sample,
# interleaved rounds -> results/peers/ (the reference run: results/reference/peers/)
bench-peers: all
	nice -n 10 bench/peers

# Every byte of a small corpus flipped in turn, each copy opened, read, rebuilt, listed, merged and exported in a
# process of its own (bench/fuzz_corpus, bin/corpus_fuzz): fails on any crash, hang or bloat -> results/fuzz_corpus/
fuzz-corpus: all
	bench/fuzz_corpus

# Per-step cost (detection / assembly / solve) of the cannonball stacks and polygon piles -> results/step/
bench-step: all
	$(BIN)/bench_step -options_file bench/experiments/step.opts

# The readers of untrusted text (problem files, world text, the engine's CSV files) on 100,000 damaged
# copies each (tests/fuzz/test_fuzz_readers.c; the test suite runs 4,000); `make asan` runs the test under the
# sanitizers.
fuzz: all
	FUZZ_RUNS=100000 $(BIN)/tests/fuzz/test_fuzz_readers

asan:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/bin \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" all
	@ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh build-asan/bin

FORMAT_SRC = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRC)
format-check:
	clang-format --dry-run --Werror $(FORMAT_SRC)
# clang-tidy needs the MPI include path mpicc adds implicitly, and no dependency-file flags. Files run in
# parallel (4 per clang-tidy, one clang-tidy per core); any finding is an error, so the target fails on it.
TIDY_FLAGS = $(filter-out -MMD -MP -Werror,$(BASE_CFLAGS)) $(BENCH_INC) $(SOLVERS_OWN_INC) -Itests $(shell mpicc --showme:compile 2>/dev/null)
tidy:
	@printf '%s\n' $(filter %.c,$(FORMAT_SRC)) | xargs -P $$(nproc) -n 4 \
	  sh -c 'clang-tidy --quiet --warnings-as-errors="*" "$$@" -- $(TIDY_FLAGS)' clang-tidy

clean:
	rm -rf build build-asan bin

-include $(LIB_OBJ:.o=.d) $(SOLVERS_CXX_SRC:%.cpp=$(BUILD)/%.d) $(DRIVER_SRC:%.c=$(BUILD)/%.d) $(TOOL_SRC:%.c=$(BUILD)/%.d) $(TEST_SRC:%.c=$(BUILD)/%.d) \
  $(TEST_SUPPORT:.o=.d)
