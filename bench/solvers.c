/* NAME    bench_solvers — every registered complementarity solver on the classic problem classes.
 * PURPOSE per (problem, solver, seed): the harness's status (solver_solve: the independent checker of
 *         cp.c decides, never the solver), iterations (pivots for Lemke), residual, n, and the median wall
 *         time of -repeats R converged solves. Classes (bench/problems/problem_class.h): random SPD (n = 10,
 * 100, 1000), Stewart-Trinkle contact LCPs of boxes resting / sliding on a plane (Egan et al. eqs. 5-7, n =
 * 24, 120, 600), Murty (n = 10, 16), Egan et al. Fig. 3 (max and summation formulations), and every Siconos
 * numerics LCP / MLCP test file under -siconos_dir, and mixed NCPs given by callbacks (the disc on a plane of
 * Chakraborty et al. eqs. 41-47, a monotone mixed NCP, Kojima-Shindo, Siconos' MCP test); on request
 * (-problem siconos:fc3d/X.dat, preset solvers_fc3d) Siconos' frictional-contact problems. The Siconos
 * backends (siconos_*, siconos_mcp_*, siconos_fc_*) run in the same sweep, so their times are ratios on the
 * same machine and load. USAGE   bench_solvers [-options_file bench/experiments/solvers.opts] [-problem
 * a,b,...]
 * [-cp_solver ...]
 *         [-seeds N] [-repeats R] [-siconos_dir DIR] [-cp_tol T] [-cp_time_limit S] [engine options]
 * PAPER   Cottle-Pang-Stone (Lemke, PGS), De Luca-Facchinei-Kanzow 1996 (FB Newton), Egan et al. 2003
 *         (contact LCPs, Fig. 3), Murty 1978, Chakraborty-Berard-Akella-Trinkle (disc NCP, Sec. 6.1). Random
 * instances depend on (-seed, the seed axis, the class) only, never on the solver: every solver sees the same
 * instance. */
#include "engine/sweep.h"
#include "problem_class.h"
#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_DEFAULT_SICONOS_DIR "../shared/data/siconos"

static const char help[] =
    "-siconos_dir: the default problem list holds siconos:lcp/X.dat and siconos:mlcp/X.dat for each file\n"
    "there; give it on the command line (the default list is built before the options files are read).\n"
    "A file: path or siconos: file that is not there is refused before any task; when the data folder\n"
    "itself is absent, its siconos: problems give status not_applicable. -cp_tol, -cp_max_it, -cp_time_limit "
    "and every solver's own\n"
    "options apply to every task.\n";

struct bench_ctx {
  char siconos_dir[OPTION_STRING_MAX];
  int repeats;
  char *default_problems; /* the problem axis's default: the built-in list and -siconos_dir's files */
  /* problem sizes by class name, cached for the cost estimate */
  int n_cached;
  char **cached_name;
  int *cached_n;
  char title[400]; /* the run's title: the problem families it holds (bench_run_title) */
};

static const struct sweep_column columns[] = {
    {"iterations", SWEEP_COST, "iterations (pivots for pivoting methods, sweeps for PGS) of the first solve",
     .count = 1, .per_step = 1},
    {"residual", SWEEP_METRIC,
     "natural-map residual ||z - mid(lo, hi, z - F(z))||_inf of the checker (absolute)", .floor = 0,
     .per_step = 1},
    {"residual_eq", SWEEP_INFO, "equality residual of mixed LCPs (absolute; 0 for other kinds)", .floor = 0},
    {"n", SWEEP_INFO, "unknowns", .floor = 0},
    {"solve_seconds", SWEEP_COST,
     "wall time of one solve, solver only (the harness's timing), median of the -repeats timed solves [s]",
     .floor = 0},
    {"solve_min_seconds", SWEEP_COST,
     "wall time of one solve, solver only, the fastest of the -repeats timed solves [s]", .floor = 0},
    {"iteration_seconds", SWEEP_COST,
     "wall time per iteration (pivot, sweep or Newton step), solver only: solve_seconds / iterations [s]",
     .floor = 0},
    {"repeats", SWEEP_INFO, "timed solves (1 for a failure: its time is not repeated)", .floor = 0},
    {"message", SWEEP_INFO, "the solver's or the harness's message (failures)", .floor = 0},
};

/* The problem axis's default list is built in main (the data folder decides it). */
static const struct sweep_axis axes[] = {
    {"problem", NULL, SWEEP_STRING, NULL,
     "problem classes: spdN, restingN, slidingN (N a multiple of 24), murtyN, egan_max_a, egan_max_b, "
     "egan_sum_1, egan_sum_2, ncp_disc_roll, ncp_disc_slide, ncp_disc_rand, ncp_mixedN, ncp_kojima_shindo, "
     "mcp_siconos10, sparse_mlcpN, siconos:PATH, file:PATH (a problem file as given, e.g. a dumped failed "
     "step; default: "
     "the "
     "built-in list and every Siconos file)",
     0, SWEEP_INSTANCE, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "all", "solvers (all: every registered one)", 0, SWEEP_METHOD,
     NULL},
    {SWEEP_SEEDS_AXIS, NULL, SWEEP_INT, "1", "random instances per class (-seeds N: seeds 0..N-1)", 1,
     SWEEP_INSTANCE, NULL},
};

static const struct option_decl options[] = {
    {"repeats", OPT_INT, offsetof(struct bench_ctx, repeats), "3", "[1,1000]",
     "timed solves per converged task; solve_seconds is their median"},
    {"siconos_dir", OPT_STRING, offsetof(struct bench_ctx, siconos_dir), BENCH_DEFAULT_SICONOS_DIR, NULL,
     "folder of the Siconos numerics .dat files (lcp/, mlcp/)"},
};

static int bench_setup(void *vctx, PetscOptions run_options)
{
  (void)run_options;
  struct bench_ctx *c = vctx;
  c->default_problems = cp_class_default_list(c->siconos_dir);
  return c->default_problems ? 0 : 1;
}

static const char *bench_axis_default(void *vctx, const char *axis)
{
  const struct bench_ctx *c = vctx;
  return strcmp(axis, "problem") == 0 ? c->default_problems : NULL;
}

/* Class names and files are checked before any task runs: a typo or a missing file is bad input, not a
 * column of not_applicable rows. */
/* The family of a problem class, as the run's title names it. */
static const char *bench_family(const char *name)
{
  static const struct {
    const char *prefix, *family;
  } fam[] = {{"siconos:fc3d/", "Siconos' frictional-contact problems (the exact Coulomb cone)"},
             {"siconos:fc2d/", "Siconos' frictional-contact problems (the exact Coulomb cone)"},
             {"siconos:", "Siconos LCP and MLCP files"},
             {"file:", "problem files"},
             {"spd", "SPD LCPs"},
             {"resting", "contact LCPs"},
             {"sliding", "contact LCPs"},
             {"murty", "Murty's LCPs"},
             {"egan_", "Egan's LCPs"},
             {"sparse_mlcp", "sparse mixed LCPs"},
             {"ncp_", "mixed NCPs"},
             {"mcp_", "mixed NCPs"}};
  for (size_t k = 0; k < sizeof fam / sizeof fam[0]; k++)
    if (strncmp(name, fam[k].prefix, strlen(fam[k].prefix)) == 0) return fam[k].family;
  return "other problems";
}

/* Class names and files are checked before any task runs: a typo or a missing file is bad input, not a
 * column of not_applicable rows. The run's title is made here from the families of its problems, so a run
 * of Siconos' frictional-contact files is not titled as one of LCPs. */
static int bench_check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  struct bench_ctx *c = vctx;
  char err[512];
  size_t len = (size_t)snprintf(c->title, sizeof c->title, "complementarity solvers on ");
  const size_t head = len;
  for (int i = 0; i < n_values[0]; i++) {
    if (cp_class_check(values[0][i], c->siconos_dir, err, sizeof err)) {
      fprintf(stderr, "error: -problem: %s\n", err);
      return 1;
    }
    const char *f = bench_family(values[0][i]);
    if (!strstr(c->title + head, f) && len < sizeof c->title)
      len += (size_t)snprintf(c->title + len, sizeof c->title - len, "%s%s", len > head ? ", " : "", f);
  }
  return 0; /* the solvers' own options are checked by the engine (sweep_method.c) */
}

static const char *bench_run_title(void *vctx)
{
  const struct bench_ctx *c = vctx;
  return c->title[0] ? c->title : NULL;
}

static void bench_teardown(void *vctx)
{
  struct bench_ctx *c = vctx;
  if (!c) return;
  free(c->default_problems);
  for (int i = 0; i < c->n_cached; i++)
    free(c->cached_name[i]);
  free(c->cached_name);
  free(c->cached_n);
}

/* Problem size by class name, cached (files are read once). -1 when unknown. */
static int bench_size(struct bench_ctx *c, const char *name)
{
  for (int i = 0; i < c->n_cached; i++)
    if (strcmp(c->cached_name[i], name) == 0) return c->cached_n[i];
  int n = cp_class_size(name, c->siconos_dir);
  char **names = realloc(c->cached_name, (size_t)(c->n_cached + 1) * sizeof *names);
  if (names) c->cached_name = names;
  int *ns = names ? realloc(c->cached_n, (size_t)(c->n_cached + 1) * sizeof *ns) : NULL;
  if (ns) c->cached_n = ns;
  char *copy = ns ? strdup(name) : NULL;
  if (copy) {
    c->cached_name[c->n_cached] = copy;
    c->cached_n[c->n_cached++] = n;
  }
  return n;
}

/* Relative cost, from the sizes and the solvers' orders (measured ratios are in results/solvers/README.md):
 * dense direct and Newton methods ~ n^3, Murty's class 2^n pivots for the pivoting methods, enumeration
 * 2^n bases up to its limit (n = 20), the MILP up to its time limit on large n. Repeats multiply. */
static double bench_cost(const struct sweep_task *t, void *vctx)
{
  struct bench_ctx *c = vctx;
  const char *problem = sweep_task_string(t, "problem"), *solver = sweep_task_string(t, "solver");
  double n = bench_size(c, problem);
  if (n <= 0) return 1.0;
  double cost = n * n * n + 100.0 * n * n;
  if (strstr(solver, "lemke") && strncmp(problem, "murty", 5) == 0) cost += ldexp(n * n, (int)n);
  if (strstr(solver, "enum") && n <= 20) cost += ldexp(n * n * n, (int)n);
  if (strcmp(solver, "milp") == 0 || strncmp(solver, "tao_", 4) == 0 || strncmp(solver, "snes_", 5) == 0)
    cost *= 10.0;
  return cost * c->repeats;
}

static int bench_compare_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double bench_median(double *v, int k)
{
  qsort(v, (size_t)k, sizeof *v, bench_compare_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* Recipe: build the instance -> first solve (judged by the harness) -> repeat converged solves for the
 * median time (each from the same cold start, stopping early rather than run into the task's time limit)
 * -> row. */
static int bench_run(const struct sweep_task *t, void *vctx, struct sweep_row *row)
{
  struct bench_ctx *c = vctx;
  const char *problem = sweep_task_string(t, "problem"), *solver_name = sweep_task_string(t, "solver");
  struct cp_problem *p = NULL;
  struct solver *s = NULL;
  double *z = NULL, *times = NULL;
  char err[512];
  int status = 1;
  enum cp_class_status cs = cp_class_create(problem, t->instance_seed, c->siconos_dir, &p, err, sizeof err);
  if (cs == CP_CLASS_MISSING) { /* no data folder: the row says so and counts nowhere */
    sweep_row_status(row, "not_applicable");
    sweep_row_set_text(row, "message", err);
    status = 0;
    goto cleanup;
  }
  if (cs != CP_CLASS_OK) {
    fprintf(stderr, "bench_solvers: %s\n", err);
    goto cleanup;
  }
  char msg[512] = "";
  if (solver_create(solver_name, &s, msg, sizeof msg) != 0 ||
      solver_set_from_options(s, t->options, msg, sizeof msg) != 0) {
    fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  z = calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *z);
  times = malloc((size_t)c->repeats * sizeof *times);
  if (!z || !times) goto cleanup;
  struct solve_result first, r;
  double t0 = solver_wall_time();
  if (solver_solve(s, p, z, &first) != 0) goto cleanup;
  times[0] = first.seconds;
  int k = 1;
  char note[160] = "";
  while (first.status == SOLVE_CONVERGED && k < c->repeats) {
    double spent = solver_wall_time() - t0;
    if (t->time_limit > 0.0 && spent + 2.0 * times[k - 1] > 0.8 * t->time_limit) break;
    if (solver_solve(s, p, z, &r) != 0) goto cleanup;
    if (r.status != first.status || r.iterations != first.iterations)
      snprintf(note, sizeof note, "repeat %d: %s after %d iterations", k + 1, solve_status_name(r.status),
               r.iterations);
    times[k++] = r.seconds;
  }
  double tmin = times[0];
  for (int i = 1; i < k; i++)
    tmin = fmin(tmin, times[i]);
  double tmed = bench_median(times, k);
  sweep_row_status(row, solve_status_name(first.status));
  sweep_row_set_int(row, "n", p->n);
  if (first.status != SOLVE_NOT_APPLICABLE) {
    sweep_row_set_int(row, "iterations", first.iterations);
    sweep_row_set(row, "residual", first.residual);
    sweep_row_set(row, "residual_eq", first.residual_eq);
    sweep_row_set(row, "solve_seconds", tmed);
    sweep_row_set(row, "solve_min_seconds", tmin);
    if (first.iterations > 0) sweep_row_set(row, "iteration_seconds", tmed / first.iterations);
    sweep_row_set_int(row, "repeats", k);
  }
  if (note[0] || first.message[0]) sweep_row_set_text(row, "message", note[0] ? note : first.message);
  status = 0;
cleanup:
  free(z);
  free(times);
  solver_destroy(&s);
  cp_destroy(&p);
  return status;
}

static const struct sweep_driver driver = {
    .experiment = "solvers",
    .title = "complementarity solvers on SPD, contact, Murty, Egan and Siconos LCPs and mixed NCPs",
    .help = help,
    .options = options,
    .n_options = (int)(sizeof options / sizeof options[0]),
    .settings_size = sizeof(struct bench_ctx),
    .axes = axes,
    .n_axes = (int)(sizeof axes / sizeof axes[0]),
    .columns = columns,
    .n_columns = (int)(sizeof columns / sizeof columns[0]),
    .plot_x = "problem",
    .series = "solver",
    .option_fixed = "-cp_warm_start 0", /* every timed solve starts cold, from the same point */
    .setup = bench_setup,
    .axis_default = bench_axis_default,
    .check_axes = bench_check_axes,
    .run_title = bench_run_title,
    .cost = bench_cost,
    .run = bench_run,
    .teardown = bench_teardown,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
