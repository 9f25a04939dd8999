# contactbench — one non-recursive Makefile. Objects out of tree under $(BUILD)/, programs in $(BIN)/.
#   make deps      install the Debian packages the project needs (apt-get, as root) when missing
#   make           build the library, the drivers (bench/*.c -> bin/bench_*), the tools and the tests
#   make check     deps -> build -> every test; ends with "N passed, N failed"
#   make run       deps -> build -> the main job
#   make regress   the quick presets compared with results/baseline/ (make baseline rewrites it)
#   make asan      the tests under AddressSanitizer + UBSan
# Sources are found by folder, so adding a solver, formulation, driver or test needs no edit here.

BUILD ?= build
BIN ?= bin
CC = mpicc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Werror
LDFLAGS ?=

DEB_PACKAGES = build-essential pkg-config openmpi-bin libopenmpi-dev petsc-dev libgsl-dev gnuplot-nox \
  liblapacke-dev libopenblas-dev libglpk-dev libsiconos-numerics-dev libqhull-dev slurm-wlm munge \
  clang-format clang-tidy

PKG_CFLAGS := $(shell pkg-config --cflags PETSc gsl 2>/dev/null | sed -e 's/-I/-isystem /g')
# GSL's reference CBLAS is replaced by OpenBLAS (same cblas_* symbols, far faster).
PKG_LIBS := $(filter-out -lgslcblas,$(shell pkg-config --libs PETSc gsl 2>/dev/null))
SICONOS := $(wildcard /usr/include/siconos/numerics/LCP_Solvers.h)

ALL_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 $(CFLAGS) $(WARN) -MMD -MP -I. -Isolvers -Iformulations \
  -Ibench $(PKG_CFLAGS)
LIBS = $(PKG_LIBS) -lglpk -lqhull_r -llapacke -llapack -lopenblas -lm
ifneq ($(SICONOS),)
  ALL_CFLAGS += -DCB_HAVE_SICONOS -isystem /usr/include/siconos
  LIBS += -lsiconos_numerics
endif

LIB_SRC := $(wildcard solvers/*.c formulations/*.c bench/engine/*.c)
ifeq ($(SICONOS),)
  LIB_SRC := $(filter-out solvers/siconos%.c,$(LIB_SRC))
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libcontactbench.a

DRIVER_SRC := $(wildcard bench/*.c)
TOOL_SRC := $(wildcard bench/tools/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
DRIVERS := $(DRIVER_SRC:bench/%.c=$(BIN)/bench_%)
TOOLS := $(TOOL_SRC:bench/tools/%.c=$(BIN)/%)
TESTS := $(TEST_SRC:tests/%.c=$(BIN)/tests/%)
TEST_SUPPORT := $(BUILD)/tests/check.o

.SECONDARY:
.PHONY: all deps check test run regress baseline asan format format-check tidy clean bench-solvers bench-step
all: $(DRIVERS) $(TOOLS) $(TESTS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN)/bench_%: $(BUILD)/bench/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(LIB) $(LIBS) -o $@

$(BIN)/%: $(BUILD)/bench/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(LIB) $(LIBS) -o $@

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

# The quick presets against results/baseline/ (bin/bench_compare); exit 1 on a regression.
regress: all
	bench/regress

# Rewrites results/baseline/ from fresh quick runs (commit the result).
baseline: all
	bench/regress -baseline

bench-solvers: all
	$(BIN)/bench_solvers -options_file bench/experiments/solvers.opts

# Per-step cost (detection / assembly / solve) of the cannonball stacks and polygon piles -> results/step/
bench-step: all
	$(BIN)/bench_step -options_file bench/experiments/step.opts

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
# clang-tidy needs the MPI include path mpicc adds implicitly, and no dependency-file flags.
tidy:
	clang-tidy --quiet $(filter %.c,$(FORMAT_SRC)) -- $(filter-out -MMD -MP -Werror,$(ALL_CFLAGS)) \
	  $(shell mpicc --showme:compile 2>/dev/null)

clean:
	rm -rf build build-asan bin

-include $(LIB_OBJ:.o=.d) $(DRIVER_SRC:%.c=$(BUILD)/%.d) $(TOOL_SRC:%.c=$(BUILD)/%.d) $(TEST_SRC:%.c=$(BUILD)/%.d)
