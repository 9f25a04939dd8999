/* NAME    cpsolve — solve complementarity problem files with one, several or all registered solvers.
 * PURPOSE the command users reach for: load an LCP / mixed LCP (plain or Siconos .dat), run solvers, and
 *         report status, iterations, the harness's independent residual and time per solver.
 * USAGE   cpsolve -f FILE [FILE ...] [-input_format auto|plain|siconos_lcp|siconos_mlcp|siconos_fc]
 *         [-cp_solver a,b,...|all] [-cp_tol T] [-cp_max_it N] [-cp_time_limit S] [-format table|csv]
 *         [-print_solution] [-write OUT (one file only)] [-<solver>_... its declared options]; each file is
 *         solved in turn; -help lists the options (-help petsc: PETSc's as well).
 * EXIT    0 if every file had at least one solver converge, 1 if some file had none, 2 on bad input or
 *         usage (a file that cannot be read is named and the others are still solved; any option that
 *         nothing in this run reads: a misspelt name, or an option of a solver the run does not use). */
#include "blas_core.h"
#include "cp_io.h"
#include "program.h"
#include "solver.h"

#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CPSOLVE_MAX_SOLVERS 64

struct cpsolve_options {
  int input_format; /* enum cp_file_format: the choice list below is in its order */
  int csv;
  int print_solution;
  char write[OPTION_STRING_MAX];
  char solvers[OPTION_STRING_MAX];
};

static const struct option_decl cpsolve_options[] = {
    {"input_format", OPT_CHOICE, offsetof(struct cpsolve_options, input_format), "auto",
     "auto|plain|siconos_lcp|siconos_mlcp|siconos_fc",
     "auto: *.dat is Siconos, *mlcp*.dat its MLCP form, fc3d/ or fc2d/ files its frictional contact"},
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
  printf("cpsolve -f FILE [FILE ...] [options]: solve complementarity problems with registered solvers.\n"
         "  %-34s %s\n",
         "-f FILE [FILE ...]", "problem files (required), each solved in turn (csv: a column 'file' first)");
  option_print(stdout, cpsolve_options, cpsolve_n_options, NULL);
  printf("Options of every solver (the harness):\n");
  solver_print_harness_options(stdout);
  solver_registry_print(stdout);
  for (int i = 0; i < n_names; i++) {
    printf("Options of %s:\n", names[i]);
    solver_print_options(stdout, solver_find(names[i]));
  }
  printf(
      "Exit status: 0 if every file had at least one solver converge, 1 if some file had none, 2 on bad\n"
      "input (a file that cannot be read: the others are still solved; an option nothing in the run reads).\n"
      "-help petsc adds PETSc's own options.\n");
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

/* For program_report_unused: an option of a solver this run does not use is named with its solver. */
static int explain_unused(const char *name, char *msg, size_t len)
{
  const struct solver_type *owner = solver_option_owner(name);
  if (owner)
    snprintf(msg, len, "%s is an option of solver %s, which this run does not use (-cp_solver)", name,
             owner->name);
  return owner != NULL;
}

/* Every option set that nothing read is an error of the run: named with the nearest declared one. */
static int report_unused(const struct program *prog)
{
  int n_cand = 0;
  const char **solver_names = solver_option_names(&n_cand);
  const char **more = malloc(((size_t)n_cand + 2) * sizeof *more);
  if (!solver_names || !more) {
    free(solver_names);
    free(more);
    return 1;
  }
  more[0] = "-f";
  for (int i = 0; i < n_cand; i++)
    more[i + 1] = solver_names[i];
  int n = program_report_unused(prog, cpsolve_options, cpsolve_n_options, more, n_cand + 1, explain_unused);
  free(more);
  free(solver_names);
  return n != 0;
}

/* Runs one solver and prints its row (csv: after the file's name when file is not NULL); returns 1 if
 * converged, 0 if not, -1 on allocation failure. */
static int run_one(struct solver *s, const struct cp_problem *p, int csv, int print_solution,
                   const char *file)
{
  const char *name = s->type->name;
  double *z = calloc((size_t)p->n, sizeof *z);
  struct solve_result r;
  if (!z || solver_solve(s, p, z, &r) != 0) {
    fprintf(stderr, "error: %s: out of memory\n", name);
    free(z);
    return -1;
  }
  /* the residual relative to the scale the tolerance multiplies (docs/solving.md: capped for badly scaled
   * data) */
  double scaled = r.scale > 0.0 ? r.residual / r.scale : r.residual;
  if (csv)
    printf("%s%s%s,%s,%d,%.6e,%.6e,%d,%.6e,%.6e\n", file ? file : "", file ? "," : "", name,
           solve_status_name(r.status), r.iterations, r.residual, r.seconds, p->n, r.scale, scaled);
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

/* One file with every solver: a table block (its own header line and column names, a blank line before
 * every block but the first) or csv rows (one header for all files; a first column 'file' when there are
 * several). 0 a solver converged, 1 none did, 2 the file cannot be read or written, -1 out of memory. */
static int solve_file(const char *file, const struct cpsolve_options *o, struct solver **solvers, int n,
                      int several, int *blocks)
{
  struct cp_problem *p = NULL;
  char err[512];
  int any = 0;
  if (cp_read_file(file, (enum cp_file_format)o->input_format, &p, err, sizeof err) != 0 ||
      (o->write[0] && cp_write_plain(o->write, p, err, sizeof err) != 0)) {
    fprintf(stderr, "error: %s\n", err);
    cp_destroy(&p);
    return 2;
  }
  if (o->csv && !*blocks)
    printf("%ssolver,status,iterations,residual,seconds,n,scale,scaled_residual\n", several ? "file," : "");
  else if (!o->csv)
    printf("%s# %s: %s, n = %d%s\n%-22s %-20s %10s %12s %12s %6s %12s %12s\n", *blocks ? "\n" : "", p->name,
           cp_kind_name(p->kind), p->n, p->n_eq ? " (mixed: free unknowns first)" : "", "solver", "status",
           "iterations", "residual", "seconds", "n", "scale", "scaled_res");
  (*blocks)++;
  for (int i = 0; i < n && any >= 0; i++) {
    int c = run_one(solvers[i], p, o->csv, o->print_solution, o->csv && several ? file : NULL);
    any = c < 0 ? -1 : any | c;
  }
  cp_destroy(&p);
  return any < 0 ? -1 : !any;
}

static int cpsolve(const struct program *prog)
{
  int rc = 2, n_names = 0, n_files = 0, blocks = 0;
  struct solver *solvers[CPSOLVE_MAX_SOLVERS] = {0};
  const char *names[CPSOLVE_MAX_SOLVERS] = {0};
  struct cpsolve_options o;
  char msg[1024];
  char **files = program_list(prog, "-f", &n_files);
  int bad = option_read(cpsolve_options, cpsolve_n_options, prog->options, NULL, &o, msg, sizeof msg) ||
            parse_solvers(o.solvers, names, &n_names, msg, sizeof msg);
  if (prog->help) { /* the selected solvers' options too, when -cp_solver names them */
    print_help(bad ? 0 : n_names, names);
    rc = 0;
    goto cleanup;
  }
  if (bad) {
    fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  /* Every solver reads its options before anything runs, so that a bad or unused one stops the run. */
  for (int i = 0; i < n_names; i++)
    if (solver_create(names[i], &solvers[i], msg, sizeof msg) != 0 ||
        solver_set_from_options(solvers[i], prog->options, msg, sizeof msg) != 0) {
      fprintf(stderr, "error: %s\n", msg);
      goto cleanup;
    }
  if (report_unused(prog)) goto cleanup;
  if (n_files == 0) {
    fprintf(stderr, "error: no problem file given (-f FILE); see cpsolve -help\n");
    goto cleanup;
  }
  if (o.write[0] && n_files > 1) {
    fprintf(stderr, "error: -write takes one problem file, -f gives %d\n", n_files);
    goto cleanup;
  }
  rc = 0;
  for (int f = 0; f < n_files; f++) { /* a file that cannot be read is named; the others are solved */
    int c = solve_file(files[f], &o, solvers, n_names, n_files > 1, &blocks);
    rc = c < 0 ? 2 : (c > rc ? c : rc);
    if (c < 0) break;
  }
cleanup:
  for (int i = 0; i < n_names; i++)
    solver_destroy(&solvers[i]);
  return rc;
}

int main(int argc, char **argv)
{
  static const char *const lists[] = {"-f", NULL};
  static const struct program_spec spec = {
      .name = "cpsolve", .usage = "-f FILE [FILE ...] [options]", .lists = lists};
  blas_core_select(); /* solve times with the kernels the CPU can run (bench/engine/blas_core.c) */
  return program_main(&spec, argc, argv, cpsolve);
}
