/* NAME    cpsolve — solve one complementarity problem file with one, several or all registered solvers.
 * PURPOSE the command users reach for: load an LCP / mixed LCP (plain or Siconos .dat), run solvers, and
 *         report status, iterations, the harness's independent residual and time per solver.
 * USAGE   cpsolve -f FILE [-input_format auto|plain|siconos_lcp|siconos_mlcp] [-cp_solver a,b,...|all]
 *         [-cp_tol T] [-cp_max_it N] [-cp_time_limit S] [-format table|csv] [-print_solution] [-write OUT]
 *         [-<solver>_... its declared options]; -help lists them all (-help petsc: PETSc's as well).
 * EXIT    0 if at least one solver converged, 1 if none did, 2 on bad input or usage, including any option
 *         that nothing in this run reads (a misspelt name, or an option of a solver the run does not use). */
#include "blas_core.h"
#include "cp_io.h"
#include "solver.h"

#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CPSOLVE_MAX_SOLVERS 64

struct cpsolve_options {
  char file[OPTION_STRING_MAX];
  int input_format; /* enum cp_file_format: the choice list below is in its order */
  int csv;
  int print_solution;
  char write[OPTION_STRING_MAX];
  char solvers[OPTION_STRING_MAX];
};

static const struct option_decl cpsolve_options[] = {
    {"f", OPT_STRING, offsetof(struct cpsolve_options, file), "", NULL, "problem file (required)"},
    {"input_format", OPT_CHOICE, offsetof(struct cpsolve_options, input_format), "auto",
     "auto|plain|siconos_lcp|siconos_mlcp", "auto: *.dat is Siconos, *mlcp*.dat its MLCP form"},
    {"cp_solver", OPT_STRING, offsetof(struct cpsolve_options, solvers), "all", NULL,
     "solvers to run: a,b,... ('all' takes every registered one; repeats run once)"},
    {"format", OPT_CHOICE, offsetof(struct cpsolve_options, csv), "table", "table|csv", "output format"},
    {"print_solution", OPT_BOOL, offsetof(struct cpsolve_options, print_solution), "0", NULL,
     "print each solver's z"},
    {"write", OPT_STRING, offsetof(struct cpsolve_options, write), "", NULL,
     "write the problem in the plain format to this file"},
};
static const int cpsolve_n_options = (int)(sizeof cpsolve_options / sizeof cpsolve_options[0]);

static void print_help(int n_names, const char *const *names)
{
  printf("cpsolve -f FILE [options]: solve a complementarity problem with registered solvers.\n");
  option_print(stdout, cpsolve_options, cpsolve_n_options, NULL);
  printf("Options of every solver (the harness):\n");
  solver_print_harness_options(stdout);
  solver_registry_print(stdout);
  for (int i = 0; i < n_names; i++) {
    printf("Options of %s:\n", names[i]);
    solver_print_options(stdout, solver_find(names[i]));
  }
  printf("Exit status: 0 if at least one solver converged, 1 if none did, 2 on bad input (also an option\n"
         "nothing in the run reads). -help petsc adds PETSc's own options.\n");
}

/* -cp_solver's list into names (registered, each once; "all" anywhere adds every registered solver).
 * 0 on success, else msg names the unknown entry. */
static int parse_solvers(const char *list, const char **names, int *n, char *msg, size_t len)
{
  char buf[OPTION_STRING_MAX];
  snprintf(buf, sizeof buf, "%s", list);
  *n = 0;
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int all = strcmp(tok, "all") == 0;
    if (!all && !solver_find(tok)) {
      size_t used =
          (size_t)snprintf(msg, len, "-cp_solver: unable to find requested solver type '%s'; valid: ", tok);
      for (int i = 0; solver_registry[i] && used < len; i++)
        used += (size_t)snprintf(msg + used, len - used, "%s,", solver_registry[i]->name);
      if (used < len) snprintf(msg + used, len - used, "all");
      return 1;
    }
    for (int i = 0; all ? solver_registry[i] != NULL : i < 1; i++) {
      const char *name = all ? solver_registry[i]->name : tok;
      int seen = 0;
      for (int k = 0; k < *n && !seen; k++)
        seen = strcmp(names[k], name) == 0;
      if (!seen && *n < CPSOLVE_MAX_SOLVERS) names[(*n)++] = solver_find(name)->name;
    }
  }
  if (*n == 0) {
    snprintf(msg, len, "-cp_solver: no solver named");
    return 1;
  }
  return 0;
}

/* Every option set that nothing read is an error of the run: name it and the nearest declared one. */
static int report_unused(void)
{
  char **names = NULL, **values = NULL;
  int n = option_unused(NULL, &names, &values), n_cand = 0;
  if (n <= 0) return n < 0;
  const char **solver_names = solver_option_names(&n_cand);
  const char **cand = malloc(((size_t)n_cand + (size_t)cpsolve_n_options) * sizeof *cand);
  char own[8][64];
  int k = 0;
  for (int i = 0; i < cpsolve_n_options && i < 8; i++) {
    snprintf(own[i], sizeof own[i], "-%s", cpsolve_options[i].name);
    if (cand) cand[k++] = own[i];
  }
  for (int i = 0; cand && solver_names && i < n_cand; i++)
    cand[k++] = solver_names[i];
  for (int i = 0; i < n; i++) {
    const struct solver_type *owner = solver_option_owner(names[i]);
    const char *near = cand ? option_nearest(names[i], cand, k) : NULL;
    if (owner)
      fprintf(stderr, "error: %s is an option of solver %s, which this run does not use (-cp_solver)\n",
              names[i], owner->name);
    else if (near)
      fprintf(stderr, "error: %s is not an option of this run (did you mean %s?)\n", names[i], near);
    else
      fprintf(stderr, "error: %s is not an option of this run (cpsolve -help lists them)\n", names[i]);
  }
  free(cand);
  free(solver_names);
  option_unused_free(n, names, values);
  return 1;
}

/* Runs one solver; returns 1 if converged, 0 if not, -1 on allocation failure. */
static int run_one(struct solver *s, const struct cp_problem *p, int csv, int print_solution)
{
  const char *name = s->type->name;
  double *z = calloc((size_t)p->n, sizeof *z);
  struct solve_result r;
  if (!z || solver_solve(s, p, z, &r) != 0) {
    fprintf(stderr, "error: %s: out of memory\n", name);
    free(z);
    return -1;
  }
  /* the residual relative to the scale the tolerance multiplies (README: capped for badly scaled data) */
  double scaled = r.scale > 0.0 ? r.residual / r.scale : r.residual;
  if (csv)
    printf("%s,%s,%d,%.6e,%.6e,%d,%.6e,%.6e\n", name, solve_status_name(r.status), r.iterations, r.residual,
           r.seconds, p->n, r.scale, scaled);
  else
    printf("%-22s %-20s %10d %12.3e %12.3e %6d %12.3e %12.3e\n", name, solve_status_name(r.status),
           r.iterations, r.residual, r.seconds, p->n, r.scale, scaled);
  if (r.message[0]) printf("# %s: %s\n", name, r.message);
  if (r.n_solutions > 1) printf("# %s: %d solutions found\n", name, r.n_solutions);
  if (print_solution && r.status != SOLVE_NOT_APPLICABLE) {
    printf("# %s z =", name);
    for (int i = 0; i < p->n; i++)
      printf(" %.17g", z[i]);
    printf("\n");
    for (int k = 1; k < r.n_solutions; k++) {
      printf("# %s z[%d] =", name, k);
      for (int i = 0; i < p->n; i++)
        printf(" %.17g", r.solutions[(size_t)k * p->n + i]);
      printf("\n");
    }
  }
  int converged = r.status == SOLVE_CONVERGED;
  free(z);
  return converged;
}

/* -help is taken out of argv before PetscInitialize, so that PETSc does not print its generic block and
 * the solvers' PETSc objects do not print theirs; "-help petsc" is left to PETSc. Returns 1 if taken. */
static int take_help(int *argc, char **argv)
{
  int taken = 0, k = 1;
  for (int i = 1; i < *argc; i++) {
    int is_help = strcmp(argv[i], "-help") == 0 || strcmp(argv[i], "--help") == 0;
    if (is_help && i + 1 < *argc && strcmp(argv[i + 1], "petsc") == 0) return 0;
    if (is_help)
      taken = 1;
    else
      argv[k++] = argv[i];
  }
  *argc = k;
  argv[k] = NULL;
  return taken;
}

int main(int argc, char **argv)
{
  int want_help = take_help(&argc, argv);
  blas_core_select(); /* solve times with the kernels the CPU can run (bench/engine/blas_core.c) */
  if (PetscInitialize(&argc, &argv, NULL, NULL) != 0) return 2;
  int rc = 2, n_names = 0;
  struct cp_problem *p = NULL;
  struct solver *solvers[CPSOLVE_MAX_SOLVERS] = {0};
  const char *names[CPSOLVE_MAX_SOLVERS] = {0};
  struct cpsolve_options o;
  char msg[1024];
  PetscBool has_help = PETSC_FALSE;
  PetscOptionsHasHelp(NULL, &has_help);
  want_help |= has_help == PETSC_TRUE;
  if (option_read(cpsolve_options, cpsolve_n_options, NULL, NULL, &o, msg, sizeof msg) ||
      parse_solvers(o.solvers, names, &n_names, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    goto done;
  }
  if (want_help) {
    print_help(n_names, names);
    rc = 0;
    goto done;
  }
  /* Every solver reads its options before anything runs, so that a bad or unused one stops the run. */
  for (int i = 0; i < n_names; i++)
    if (solver_create(names[i], &solvers[i], msg, sizeof msg) != 0 ||
        solver_set_from_options(solvers[i], NULL, msg, sizeof msg) != 0) {
      fprintf(stderr, "error: %s\n", msg);
      goto done;
    }
  if (report_unused()) goto done;
  if (!o.file[0]) {
    fprintf(stderr, "error: no problem file given (-f FILE); see cpsolve -help\n");
    goto done;
  }
  char err[512];
  if (cp_read_file(o.file, (enum cp_file_format)o.input_format, &p, err, sizeof err) != 0) {
    fprintf(stderr, "error: %s\n", err);
    goto done;
  }
  if (o.write[0] && cp_write_plain(o.write, p, err, sizeof err) != 0) {
    fprintf(stderr, "error: %s\n", err);
    goto done;
  }
  if (o.csv)
    printf("solver,status,iterations,residual,seconds,n,scale,scaled_residual\n");
  else
    printf("# %s: %s, n = %d%s\n%-22s %-20s %10s %12s %12s %6s %12s %12s\n", p->name, cp_kind_name(p->kind),
           p->n, p->n_eq ? " (mixed: free unknowns first)" : "", "solver", "status", "iterations", "residual",
           "seconds", "n", "scale", "scaled_res");
  int any = 0;
  for (int i = 0; i < n_names; i++) {
    int c = run_one(solvers[i], p, o.csv, o.print_solution);
    if (c < 0) goto done;
    any |= c;
  }
  rc = any ? 0 : 1;
done:
  for (int i = 0; i < n_names; i++)
    solver_destroy(&solvers[i]);
  cp_destroy(&p);
  PetscFinalize();
  return rc;
}
