/* NAME    cpsolve — solve one complementarity problem file with one, several or all registered solvers.
 * PURPOSE the command users reach for: load an LCP / mixed LCP (plain or Siconos .dat), run solvers, and
 *         report status, iterations, the harness's independent residual and time per solver.
 * USAGE   cpsolve -f FILE [-input_format auto|plain|siconos_lcp|siconos_mlcp] [-cp_solver a,b,...|all]
 *         [-cp_tol T] [-cp_max_it N] [-cp_time_limit S] [-format table|csv] [-print_solution] [-write OUT]
 * EXIT    0 if at least one solver converged, 1 if none did, 2 on bad input or usage. */
#include "cp_io.h"
#include "solver.h"

#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

#define CPSOLVE_MAX_SOLVERS 64

static const char help[] =
    "cpsolve -f FILE [options]: solve a complementarity problem with registered solvers.\n"
    "  -f FILE                 problem file (required)\n"
    "  -input_format F         auto (default: *.dat is Siconos, *mlcp*.dat its MLCP form), plain, "
    "siconos_lcp,\n"
    "                          siconos_mlcp\n"
    "  -cp_solver a,b,...|all  solvers to run (default all)\n"
    "  -cp_tol T               converged iff ||z - mid(lo, hi, z - F(z))||_inf <= T * max(1, ||q||_inf) and "
    "the\n"
    "                          equality residual of a mixed LCP obeys the same bound (default 1e-8)\n"
    "  -cp_max_it N            iteration / pivot limit (default: each solver's own)\n"
    "  -cp_time_limit S        wall-time limit per solve in seconds (default none)\n"
    "  -format table|csv       output format (default table)\n"
    "  -print_solution         print each solver's z\n"
    "  -write OUT              write the problem in the plain format to OUT\n"
    "Exit status: 0 if at least one solver converged, 1 if none did, 2 on bad input.\n";

static void print_usage_and_solvers(void)
{
  fputs(help, stdout);
  solver_registry_print(stdout);
}

/* Runs one solver; returns 1 if converged, 0 if not, -1 if the solver could not be set up. */
static int run_one(const char *name, const struct cp_problem *p, int csv, int print_solution)
{
  struct solver *s = NULL;
  if (solver_create(name, &s) != 0 || solver_set_from_options(s) != 0) {
    solver_destroy(&s);
    return -1;
  }
  double *z = calloc((size_t)p->n, sizeof *z);
  struct solve_result r;
  if (!z || solver_solve(s, p, z, &r) != 0) {
    fprintf(stderr, "error: %s: out of memory\n", name);
    free(z);
    solver_destroy(&s);
    return -1;
  }
  if (csv)
    printf("%s,%s,%d,%.6e,%.6e,%d\n", name, solve_status_name(r.status), r.iterations, r.residual, r.seconds,
           p->n);
  else
    printf("%-22s %-20s %10d %12.3e %12.3e %6d\n", name, solve_status_name(r.status), r.iterations,
           r.residual, r.seconds, p->n);
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
  solver_destroy(&s);
  return converged;
}

int main(int argc, char **argv)
{
  if (PetscInitialize(&argc, &argv, NULL, NULL) != 0) return 2;
  int rc = 2;
  struct cp_problem *p = NULL;
  char *names[CPSOLVE_MAX_SOLVERS] = {0};
  PetscInt n_names = CPSOLVE_MAX_SOLVERS;
  PetscBool set, has_help;
  char file[PETSC_MAX_PATH_LEN] = "", fmt_in[32] = "auto", fmt_out[32] = "table",
       out[PETSC_MAX_PATH_LEN] = "";
  PetscOptionsHasHelp(NULL, &has_help);
  if (has_help) {
    print_usage_and_solvers();
    rc = 0;
    goto done;
  }
  PetscOptionsGetString(NULL, NULL, "-f", file, sizeof file, &set);
  PetscOptionsGetString(NULL, NULL, "-input_format", fmt_in, sizeof fmt_in, NULL);
  PetscOptionsGetString(NULL, NULL, "-format", fmt_out, sizeof fmt_out, NULL);
  PetscOptionsGetString(NULL, NULL, "-write", out, sizeof out, NULL);
  PetscBool print_solution = PETSC_FALSE;
  PetscOptionsGetBool(NULL, NULL, "-print_solution", &print_solution, NULL);
  if (!file[0]) {
    fprintf(stderr, "error: no problem file given (-f FILE); see cpsolve -help\n");
    goto done;
  }
  int in_format = cp_file_format_parse(fmt_in);
  if (in_format < 0) {
    fprintf(stderr, "error: -input_format '%s' is not one of auto, plain, siconos_lcp, siconos_mlcp\n",
            fmt_in);
    goto done;
  }
  int csv = strcmp(fmt_out, "csv") == 0;
  if (!csv && strcmp(fmt_out, "table") != 0) {
    fprintf(stderr, "error: -format '%s' is not one of table, csv\n", fmt_out);
    goto done;
  }
  PetscOptionsGetStringArray(NULL, NULL, "-cp_solver", names, &n_names, &set);
  if (!set || n_names == 0 || (n_names == 1 && strcmp(names[0], "all") == 0)) {
    for (PetscInt i = 0; i < n_names; i++)
      PetscFree(names[i]);
    n_names = 0;
    for (int i = 0; solver_registry[i] && n_names < CPSOLVE_MAX_SOLVERS; i++)
      PetscStrallocpy(solver_registry[i]->name, &names[n_names++]);
  }
  for (PetscInt i = 0; i < n_names; i++)
    if (!solver_find(names[i])) {
      fprintf(stderr, "error: -cp_solver: unable to find requested solver type '%s'; valid: ", names[i]);
      solver_registry_names(stderr);
      fprintf(stderr, ", all\n");
      goto done;
    }
  char err[512];
  if (cp_read_file(file, (enum cp_file_format)in_format, &p, err, sizeof err) != 0) {
    fprintf(stderr, "error: %s\n", err);
    goto done;
  }
  if (out[0] && cp_write_plain(out, p, err, sizeof err) != 0) {
    fprintf(stderr, "error: %s\n", err);
    goto done;
  }
  if (csv)
    printf("solver,status,iterations,residual,seconds,n\n");
  else
    printf("# %s: %s, n = %d%s\n%-22s %-20s %10s %12s %12s %6s\n", p->name, cp_kind_name(p->kind), p->n,
           p->n_eq ? " (mixed: free unknowns first)" : "", "solver", "status", "iterations", "residual",
           "seconds", "n");
  int any = 0;
  for (PetscInt i = 0; i < n_names; i++) {
    int c = run_one(names[i], p, csv, print_solution);
    if (c < 0) goto done;
    any |= c;
  }
  rc = any ? 0 : 1;
done:
  for (PetscInt i = 0; i < n_names; i++)
    PetscFree(names[i]);
  cp_destroy(&p);
  PetscFinalize();
  return rc;
}
