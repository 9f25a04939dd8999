/* NAME    bench_corpus — replay a problem corpus (the subproblems real runs produced, captured with
 *         -cp_capture FILE.h5 by any time-stepping driver) with every solver.
 * PURPOSE per (problem, solver): the harness's status (the independent checker of cp.c), iterations,
 *         residual and the median wall time of -repeats converged solves, as bench_solvers reports them,
 *         plus the problem's metadata (driver, formulation, kind, size, rows by kind, the status the run
 *         saw); summaries, success rates and performance profiles (Dolan & More 2002) come from the
 *         engine's results tools, the same as bench_solvers'.
 * USAGE   bench_corpus [-corpus results/corpus/corpus.h5] [-driver D] [-formulation F] [-kind
 * lcp|mlcp|box_mcp|fc]
 *         [-n_min A] [-n_max B] [-cp_solver ...] [-repeats R] [engine options: -out, -resume, ...]
 *         bench_corpus -info FILE.h5                       (contents by driver / formulation / kind / size)
 *         bench_corpus -merge OUT.h5 IN1.h5 IN2.h5 ...      (join per-rank files)
 *         bench_corpus -export_siconos DIR [-corpus FILE.h5] (each linear problem as a Siconos .dat)
 *         Runs without -out go to results/corpus_replay/ (results/corpus/ holds the committed corpus and
 *         its baseline).
 * PAPER   Acary et al. 2014 (FCLIB: a collection of discrete 3D frictional contact problems) for the idea;
 *         Dolan & More 2002 (performance profiles). Exit 2 on bad input: a missing, corrupt or truncated
 *         file, another schema version, a filter matching nothing. A problem that is corrupt in a file that
 *         reads is one row, corrupt_input (the first solver's task; the others' are not_applicable). */
#include "corpus.h"
#include "corpus_rebuild.h"
#include "engine/program.h"
#include "engine/sweep.h"
#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CORPUS_DEFAULT "results/corpus/corpus.h5"

struct corpus_ctx {
  char corpus[OPTION_STRING_MAX], driver_f[OPTION_STRING_MAX], formulation_f[OPTION_STRING_MAX];
  char kind_f[OPTION_STRING_MAX];
  int n_min, n_max, repeats;
  struct corpus *c;
  char *problems;         /* the problem axis's default: every problem the filters keep */
  char first_solver[128]; /* the solver axis's first value: a corrupt problem's one row is its task's */
};

static const struct sweep_column columns[] = {
    {"iterations", SWEEP_COST, "iterations (pivots for pivoting methods, sweeps for PGS) of the first solve",
     .count = 1, .per_step = 1},
    {"residual", SWEEP_METRIC, "the checker's natural residual / scale of the first solve", .per_step = 1},
    {"residual_eq", SWEEP_INFO, "equality residual of mixed LCPs (0 for other kinds)", .floor = 0},
    {"n", SWEEP_INFO, "unknowns", .floor = 0},
    {"solve_seconds", SWEEP_COST, "median wall time of the timed solves [s]", .floor = 0},
    {"solve_min_seconds", SWEEP_COST, "fastest timed solve [s]", .floor = 0},
    {"repeats", SWEEP_INFO, "timed solves (1 for a failure)", .floor = 0},
    {"message", SWEEP_INFO, "the solver's or the harness's message", .floor = 0},
    {"driver", SWEEP_INFO, "the experiment that produced the problem", .floor = 0},
    {"formulation", SWEEP_INFO, "its formulation", .floor = 0},
    {"kind", SWEEP_INFO, "lcp, mlcp, box_mcp, ncp, fc", .floor = 0},
    {"n_eq", SWEEP_INFO, "free (equality) unknowns of a mixed LCP", .floor = 0},
    {"rows_normal", SWEEP_INFO, "rows by constraint kind: normal", .floor = 0},
    {"rows_friction", SWEEP_INFO, "friction-direction rows", .floor = 0},
    {"rows_slack", SWEEP_INFO, "friction-cone rows", .floor = 0},
    {"h", SWEEP_INFO, "the run's time step [s]", .floor = 0},
    {"run_solver", SWEEP_INFO, "the solver of the run that produced it", .floor = 0},
    {"run_status", SWEEP_INFO, "the status that run's solve had", .floor = 0},
    {"rebuild_diff", SWEEP_INFO,
     "callback problems: max |F(z0) - the run's F(z0)| / max(1, |F|) of the rebuilt problem (inf: bounds "
     "differ)",
     .floor = 1e-16},
};

/* The problem axis's default: every problem matching the filters (axis_default, after setup). */
static const struct sweep_axis axes[] = {
    {"problem", NULL, SWEEP_STRING, NULL,
     "problems of the corpus by name (default: all matching the filters)", 0, SWEEP_INSTANCE, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "all", "solvers (all: every registered one)", 0, SWEEP_METHOD,
     NULL},
};

static const struct option_decl options[] = {
    {"corpus", OPT_STRING, offsetof(struct corpus_ctx, corpus), CORPUS_DEFAULT, NULL, "the HDF5 corpus"},
    {"driver", OPT_STRING, offsetof(struct corpus_ctx, driver_f), "", NULL, "only problems of this driver"},
    {"formulation", OPT_STRING, offsetof(struct corpus_ctx, formulation_f), "", NULL,
     "only problems of this formulation"},
    {"kind", OPT_STRING, offsetof(struct corpus_ctx, kind_f), "", NULL, "only problems of this kind"},
    {"n_min", OPT_INT, offsetof(struct corpus_ctx, n_min), "0", "[0,1000000]",
     "only problems with n >= this"},
    {"n_max", OPT_INT, offsetof(struct corpus_ctx, n_max), "1000000", "[0,1000000]",
     "only problems with n <= this"},
    {"repeats", OPT_INT, offsetof(struct corpus_ctx, repeats), "3", "[1,1000]",
     "timed solves per converged task; solve_seconds is their median"},
};

static int matches(const struct corpus_meta *m, const char *drv, const char *form, const char *kind,
                   int n_min, int n_max)
{
  return (!drv[0] || strcmp(m->driver, drv) == 0) && (!form[0] || strcmp(m->formulation, form) == 0) &&
         (!kind[0] || strcmp(m->kind, kind) == 0) && m->n >= n_min && m->n <= n_max;
}

/* Every problem of the corpus that the filters keep, comma-separated (NULL: out of memory). A corrupt
 * problem is kept (its row says so) unless its name cannot be a list item or is another's: then a note. */
static char *matching_problems(const struct corpus_ctx *c)
{
  size_t cap = 1, len = 0;
  for (int i = 0; i < corpus_count(c->c); i++)
    cap += strlen(corpus_meta_at(c->c, i)->name) + 1;
  char *list = calloc(cap, 1);
  for (int i = 0; list && i < corpus_count(c->c); i++) {
    const struct corpus_meta *m = corpus_meta_at(c->c, i);
    char bad[256];
    if (!matches(m, c->driver_f, c->formulation_f, c->kind_f, c->n_min, c->n_max)) continue;
    if (corpus_name_bad(m->name, bad, sizeof bad) || corpus_find(c->c, m->name) != i) {
      fprintf(stderr, "note: problem %d of %s left out of the replay: corrupt: %s\n", i, c->corpus,
              corpus_corrupt(c->c, i));
      continue;
    }
    len += (size_t)snprintf(list + len, cap - len, "%s%s", len ? "," : "", m->name);
  }
  return list;
}

/* -corpus, the filters and the problem list all come from the run's options, wherever they were given. */
static int setup(void *vctx, PetscOptions run_options)
{
  struct corpus_ctx *c = vctx;
  PetscBool warm = PETSC_FALSE;
  PetscOptionsHasName(run_options, NULL, "-cp_warm_start", &warm);
  if (warm) {
    fprintf(stderr,
            "error: -cp_warm_start: bench_corpus sets it per problem (a callback problem starts at the "
            "run's z0, a linear one at zero)\n");
    return 2;
  }
  char err[512];
  if (corpus_open(c->corpus, &c->c, err, sizeof err)) {
    fprintf(stderr, "error: -corpus: %s\n", err);
    return 2;
  }
  if (!(c->problems = matching_problems(c))) return 1;
  if (!c->problems[0]) {
    fprintf(stderr,
            "error: no problem of %s matches the filters (-driver '%s' -formulation '%s' -kind '%s' "
            "-n_min %d -n_max %d)\n",
            c->corpus, c->driver_f, c->formulation_f, c->kind_f, c->n_min, c->n_max);
    return 2;
  }
  return 0;
}

/* Remembers the solver axis's first value (axis 1): a corrupt problem's corrupt_input row is that task's. */
static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  struct corpus_ctx *c = vctx;
  snprintf(c->first_solver, sizeof c->first_solver, "%s", n_values[1] > 0 ? values[1][0] : "");
  return 0;
}

static const char *axis_default(void *vctx, const char *axis)
{
  const struct corpus_ctx *c = vctx;
  return strcmp(axis, "problem") == 0 ? c->problems : NULL;
}

static void teardown(void *vctx)
{
  struct corpus_ctx *c = vctx;
  if (!c) return;
  corpus_close(&c->c);
  free(c->problems);
}

static double cost(const struct sweep_task *t, void *vctx)
{
  struct corpus_ctx *c = vctx;
  int i = corpus_find(c->c, sweep_task_string(t, "problem"));
  double n = i >= 0 && !corpus_corrupt(c->c, i) ? corpus_meta_at(c->c, i)->n : 1.0;
  return n * n * n + 100.0 * n * n;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void put_meta(struct sweep_row *row, const struct corpus_meta *m)
{
  sweep_row_set_text(row, "driver", m->driver);
  sweep_row_set_text(row, "formulation", m->formulation);
  sweep_row_set_text(row, "kind", m->kind);
  sweep_row_set_int(row, "n", m->n);
  sweep_row_set_int(row, "n_eq", m->n_eq);
  sweep_row_set_int(row, "rows_normal", m->rows[0]);
  sweep_row_set_int(row, "rows_friction", m->rows[1]);
  sweep_row_set_int(row, "rows_slack", m->rows[2]);
  sweep_row_set(row, "h", m->h);
  sweep_row_set_text(row, "run_solver", m->solver);
  sweep_row_set_text(row, "run_status", m->status);
}

/* A corrupt problem: one row for the problem, corrupt_input with the reason, in the first solver's task (no
 * solver failed on it: the status is left out of success rates); the other solvers' are not_applicable. */
static void corrupt_row(const struct corpus_ctx *c, const char *solver, const char *why,
                        struct sweep_row *row)
{
  char msg[512];
  if (strcmp(solver, c->first_solver) == 0) {
    sweep_row_status(row, "corrupt_input");
    sweep_row_set_text(row, "message", why);
    return;
  }
  snprintf(msg, sizeof msg, "corrupt input: recorded once, in the row of solver %s", c->first_solver);
  sweep_row_status(row, "not_applicable");
  sweep_row_set_text(row, "message", msg);
}

/* Recipe (bench_solvers'): read the problem -> first solve (judged by the harness) -> repeat converged
 * solves for the median time -> row. A problem that cannot be read is a row (not_captured / unreadable /
 * corrupt_input). */
static int run(const struct sweep_task *t, void *vctx, struct sweep_row *row)
{
  struct corpus_ctx *c = vctx;
  const char *name = sweep_task_string(t, "problem"), *solver_name = sweep_task_string(t, "solver");
  int i = corpus_find(c->c, name), status = 1;
  struct cp_problem *p = NULL, *read = NULL;
  struct corpus_rebuilt *rb = NULL;
  struct solver *s = NULL;
  double *z = NULL, *times = NULL;
  char err[512] = "";
  if (i < 0) {
    sweep_row_status(row, "not_applicable");
    sweep_row_set_text(row, "message", "no such problem in the corpus");
    return 0;
  }
  const struct corpus_meta *m = corpus_meta_at(c->c, i);
  if (corpus_corrupt(c->c, i)) {
    corrupt_row(c, solver_name, corpus_corrupt(c->c, i), row);
    return 0;
  }
  put_meta(row, m);
  if (m->captured == 2) {
    /* a callback problem: assembled again through its formulation (corpus_rebuild.h) */
    if (corpus_rebuild(c->c, i, &rb, err, sizeof err)) {
      sweep_row_status(row, "not_rebuildable");
      sweep_row_set_text(row, "message", err);
      return 0;
    }
    p = rb->p;
    sweep_row_set(row, "rebuild_diff", corpus_rebuilt_difference(rb));
  } else if (corpus_read(c->c, i, &read, err, sizeof err)) {
    sweep_row_status(row, m->captured ? "unreadable" : "not_captured");
    sweep_row_set_text(row, "message", err);
    return 0;
  } else {
    p = read;
  }
  char msg[512] = "";
  if (solver_create(solver_name, &s, msg, sizeof msg) ||
      solver_set_from_options(s, t->options, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  /* a rebuilt callback problem starts where the run's solve started (z0); a linear one from zero (setup
   * refuses -cp_warm_start) */
  s->set.warm_start = rb != NULL;
  z = calloc((size_t)p->n, sizeof *z);
  times = malloc((size_t)c->repeats * sizeof *times);
  if (!z || !times) goto cleanup;
  struct solve_result first, r;
  double t0 = solver_wall_time();
  if (rb) memcpy(z, rb->cb.z0, (size_t)p->n * sizeof *z);
  if (solver_solve(s, p, z, &first)) goto cleanup;
  times[0] = first.seconds;
  int k = 1;
  while (first.status == SOLVE_CONVERGED && k < c->repeats) {
    if (t->time_limit > 0.0 && solver_wall_time() - t0 + 2.0 * times[k - 1] > 0.8 * t->time_limit) break;
    if (rb) memcpy(z, rb->cb.z0, (size_t)p->n * sizeof *z);
    if (solver_solve(s, p, z, &r)) goto cleanup;
    times[k++] = r.seconds;
  }
  double tmin = times[0];
  for (int j = 1; j < k; j++)
    tmin = fmin(tmin, times[j]);
  qsort(times, (size_t)k, sizeof *times, cmp_double);
  double tmed = k % 2 ? times[k / 2] : 0.5 * (times[k / 2 - 1] + times[k / 2]);
  sweep_row_status(row, solve_status_name(first.status));
  if (first.status != SOLVE_NOT_APPLICABLE) {
    sweep_row_set_int(row, "iterations", first.iterations);
    sweep_row_set(row, "residual", first.residual);
    sweep_row_set(row, "residual_eq", first.residual_eq);
    sweep_row_set(row, "solve_seconds", tmed);
    sweep_row_set(row, "solve_min_seconds", tmin);
    sweep_row_set_int(row, "repeats", k);
  }
  if (first.message[0]) sweep_row_set_text(row, "message", first.message);
  status = 0;
cleanup:
  free(z);
  free(times);
  solver_destroy(&s);
  cp_destroy(&read);
  corpus_rebuilt_free(&rb);
  return status;
}

static const struct sweep_driver driver = {
    .experiment = "corpus",
    .title = "complementarity solvers on the problems real runs produced (a captured corpus)",
    .help =
        "Status: the harness's solve status; not_captured: a callback (nonlinear) problem, recorded\n"
        "without its data; not_rebuildable: a callback problem whose world, formulation or options could\n"
        "not be assembled again (message says why); unreadable: its data could not be read;\n"
        "corrupt_input: the problem's row or data is damaged (message says what), one row per problem (the\n"
        "first solver's task; the other solvers' are not_applicable), no solver's failure. -cp_tol,\n"
        "-cp_max_it, -cp_time_limit and every solver's own options apply to every task. Runs without -out\n"
        "go to results/corpus_replay/ (results/corpus/ holds the committed corpus and its baseline).\n"
        "Other modes: bench_corpus -info FILE.h5 (the contents by driver, formulation, kind and size, and\n"
        "the corrupt problems); bench_corpus -merge OUT.h5 IN.h5 ... (join per-rank files: all or\n"
        "nothing, a file given twice refused); bench_corpus -export_siconos DIR [-corpus FILE.h5] (each\n"
        "linear problem as a Siconos numerics .dat in DIR, new or empty, all or nothing).\n",
    .options = options,
    .n_options = (int)(sizeof options / sizeof options[0]),
    .settings_size = sizeof(struct corpus_ctx),
    .axes = axes,
    .n_axes = (int)(sizeof axes / sizeof axes[0]),
    .columns = columns,
    .n_columns = (int)(sizeof columns / sizeof columns[0]),
    .plot_x = "problem",
    .series = "solver",
    /* enumeration up to n = 18 (2^18 bases, ~0.3 s): at n = 20 it ran into the 2 s cap of the replay and
     * stopped after a clock-dependent number of bases, which made its iteration count differ from run to
     * run. A default, not a preset line, so that a replay of a few solvers without enum is not refused. */
    .option_defaults = "-enum_max_n 18",
    .setup = setup,
    .check_axes = check_axes,
    .axis_default = axis_default,
    .cost = cost,
    .run = run,
    .teardown = teardown,
    .results_dir = "corpus_replay",
};

/* ---- the modes outside the sweep ---- */

/* The corrupt problems of c, one line each (by index: a corrupt name may not be printable); their number. */
static int list_corrupt(const struct corpus *c)
{
  int k = 0;
  for (int i = 0; i < corpus_count(c); i++)
    if (corpus_corrupt(c, i)) printf("corrupt: problem %d: %s\n", i, corpus_corrupt(c, i)), k++;
  return k;
}

static int info(const char *path)
{
  struct corpus *c = NULL;
  char err[1024];
  if (corpus_open(path, &c, err, sizeof err)) {
    fprintf(stderr, "error: %s\n", err);
    return 2;
  }
  const int n = corpus_count(c);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += corpus_corrupt(c, i) != NULL;
  printf("%s: %d problems (schema version %d)", path, n, corpus_schema(c));
  if (bad) printf(", %d of them corrupt (listed below)", bad);
  if (corpus_uncommitted(c))
    printf("; %ld table rows past the committed ones left out", corpus_uncommitted(c));
  printf("\n%-16s %-22s %-8s %6s %6s %6s %8s %s\n", "driver", "formulation", "kind", "count", "n_min",
         "n_max", "n_mean", "run statuses other than converged");
  char *seen = calloc((size_t)n + 1, 1);
  for (int i = 0; seen && i < n; i++) {
    if (seen[i] || corpus_corrupt(c, i)) continue;
    const struct corpus_meta *a = corpus_meta_at(c, i);
    int count = 0, lo = a->n, hi = a->n, other = 0;
    double sum = 0.0;
    for (int j = i; j < n; j++) {
      const struct corpus_meta *b = corpus_meta_at(c, j);
      if (seen[j] || corpus_corrupt(c, j) || strcmp(a->driver, b->driver) != 0 ||
          strcmp(a->formulation, b->formulation) != 0 || strcmp(a->kind, b->kind) != 0)
        continue;
      seen[j] = 1;
      count++;
      sum += b->n;
      lo = b->n < lo ? b->n : lo;
      hi = b->n > hi ? b->n : hi;
      other += strcmp(b->status, "converged") != 0;
    }
    printf("%-16s %-22s %-8s %6d %6d %6d %8.1f %d\n", a->driver, a->formulation, a->kind, count, lo, hi,
           sum / count, other);
  }
  free(seen);
  list_corrupt(c);
  corpus_close(&c);
  return 0;
}

static int export_siconos(const char *path, const char *dir)
{
  struct corpus *c = NULL;
  char err[1024];
  if (corpus_open(path, &c, err, sizeof err)) {
    fprintf(stderr, "error: %s\n", err);
    return 2;
  }
  int written = 0, left_out = 0, rc = corpus_export_siconos(c, dir, &written, &left_out, err, sizeof err);
  if (rc)
    fprintf(stderr, "error: -export_siconos: %s; nothing exported\n", err);
  else
    printf("%d problems written to %s, %d left out (callback, box-constrained or corrupt)\n", written, dir,
           left_out);
  corpus_close(&c);
  return rc;
}

/* -export_siconos DIR [-corpus FILE]: its options read as every program's are (program.h), wherever given. */
static int export_main(int argc, char **argv)
{
  static const struct program_spec spec = {.name = "bench_corpus -export_siconos",
                                           .usage = "-export_siconos DIR [-corpus FILE.h5]"};
  static const struct option_decl none[] = {
      {"export_siconos", OPT_STRING, 0, "", NULL, "folder to write"},
      {"corpus", OPT_STRING, 0, CORPUS_DEFAULT, NULL, "the HDF5 corpus"}};
  struct program p;
  int rc = program_start(&spec, argc, argv, &p);
  if (!rc && p.help) {
    printf("usage: bench_corpus %s\n  each linear problem of the corpus as a Siconos numerics .dat in DIR "
           "(new or\n"
           "  empty; written all or nothing: exit 1 naming the file when a write fails)\n",
           spec.usage);
  } else if (!rc) {
    const char *dir = program_value(&p, "-export_siconos"), *path = program_value(&p, "-corpus");
    rc = program_report_unused(&p, none, 2, NULL, 0, NULL) ? 2 : 0;
    if (!rc && (!dir || !dir[0])) fprintf(stderr, "error: -export_siconos needs a folder\n"), rc = 2;
    if (!rc) rc = export_siconos(path && path[0] ? path : CORPUS_DEFAULT, dir);
  }
  return program_end(&p, rc);
}

int main(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "-info") == 0) {
    if (argc != 3) return fprintf(stderr, "usage: bench_corpus -info FILE.h5\n"), 2;
    return info(argv[2]);
  }
  if (argc >= 2 && strcmp(argv[1], "-merge") == 0) {
    if (argc < 4) return fprintf(stderr, "usage: bench_corpus -merge OUT.h5 IN.h5 [IN.h5 ...]\n"), 2;
    char err[1024];
    int rc = corpus_merge(argv[2], (const char *const *)argv + 3, argc - 3, err, sizeof err);
    if (rc) fprintf(stderr, "error: -merge: %s\n", err);
    return rc;
  }
  /* the modes are chosen on the command line; their options come from every source */
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "-export_siconos") == 0) return export_main(argc, argv);
  return sweep_main(&driver, argc, argv);
}
