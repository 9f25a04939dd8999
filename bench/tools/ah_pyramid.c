/* NAME    ah_pyramid — the nonconvex solution set of Anitescu-Hart Sec. 3 (hexagonal pyramid on a table).
 * PURPOSE Anitescu & Hart Sec. 4B, experiment 4: builds the mixed LCP (6)-(7) of the pyramid at
 *         rest (scene_hex_pyramid through anitescu_potra, ah_pyramid.h), checks the paper's two
 *         solutions and their average with the independent checker for each mu, convex combinations
 *         at mu = 0, and searches for further
 *         solutions with the milp solver (objectives none, min_sum, max_sum) on the full problem and with
 *         enum on the reduced problem (zero tangential impulse).
 * USAGE   ah_pyramid [-mu 0,0.001,0.01,0.1,0.5,1,2] [-h 0.05] [-friction_dirs 4] [-cp_tol 1e-8]
 *         [-milp_... -enum_... the searches' solver options]; -help lists them
 * OUTPUT  plain text on stdout; loads c_n in units of h m g, vertices numbered 1..6 as in the paper. */
#include "ah_pyramid.h"

#include "option_table.h"
#include "program.h"
#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>

struct pyramid_settings {
  double h;
  int friction_dirs;
};

/* The last row, -mu, is declared for -help and read whole (a list of any length) by read_mus. */
static const struct option_decl pyramid_options[] = {
    {"h", OPT_REAL, offsetof(struct pyramid_settings, h), "0.05", "(0,inf)", "time step [s]"},
    {"friction_dirs", OPT_INT, offsetof(struct pyramid_settings, friction_dirs), "4", "[3,16]",
     "friction directions per contact"},
    {"mu", OPT_STRING, 0, "0,0.001,0.01,0.1,0.5,1,2", NULL, "friction coefficients, a list (each >= 0)"},
};
#define N_PYRAMID_OPTIONS ((int)(sizeof pyramid_options / sizeof pyramid_options[0]))
static const char *const objectives[] = {"none", "min_sum", "max_sum"};
#define N_OBJECTIVES 3

/* The searches' solvers: milp once per objective, enum once. */
struct searches {
  struct solver *milp[N_OBJECTIVES], *enumerate;
};

static double residual(const struct cp_problem *p, const double *z)
{
  struct cp_check c;
  if (cp_check(p, z, NULL, &c)) return INFINITY;
  return c.nonfinite ? INFINITY : fmax(c.natural, c.equality) / c.scale;
}

static void print_point(const struct ah_pyramid *a, const double *z)
{
  double load[6], lam[6], beta[6], vmax = 0.0;
  ah_pyramid_loads(a, z, load, lam, beta);
  for (int k = 0; k < a->nd; k++)
    vmax = fmax(vmax, fabs(z[k]));
  printf("      c_n/hmg");
  for (int j = 0; j < 6; j++)
    printf(" %6.3f", load[j] / a->hmg);
  printf("   lambda");
  for (int j = 0; j < 6; j++)
    printf(" %7.3g", lam[j]);
  printf("\n      sum beta/hmg");
  for (int j = 0; j < 6; j++)
    printf(" %6.3f", beta[j] / a->hmg);
  printf("   |v|_inf %.1e   residual %.1e\n", vmax, residual(a->p, z));
}

/* The paper's points: both solutions pass, their average fails by min(1/2, mu hmg / 6). */
static void paper_points(const struct ah_pyramid *a, double mu)
{
  int n = a->p->n;
  double *z1 = malloc((size_t)n * sizeof *z1), *z2 = malloc((size_t)n * sizeof *z2),
         *zt = malloc((size_t)n * sizeof *zt);
  if (!z1 || !z2 || !zt) goto cleanup;
  ah_pyramid_paper_solution(a, 1, z1);
  ah_pyramid_paper_solution(a, 2, z2);
  printf("  mu %-6g solution 1: residual %.1e  solution 2: %.1e  combinations t z1 + (1-t) z2:", mu,
         residual(a->p, z1), residual(a->p, z2));
  for (int k = 1; k < 4; k++) {
    double t = 0.25 * k;
    for (int i = 0; i < n; i++)
      zt[i] = t * z1[i] + (1.0 - t) * z2[i];
    printf(" t=%.2f %.1e", t, residual(a->p, zt));
  }
  printf("  (average expected min(1/2, mu hmg/6) = %.1e)\n", fmin(0.5, mu * a->hmg / 6.0));
cleanup:
  free(z1);
  free(z2);
  free(zt);
}

static void milp_search(const struct ah_pyramid *a, const struct searches *se)
{
  double *z = calloc((size_t)a->p->n, sizeof *z);
  for (int o = 0; o < N_OBJECTIVES && z; o++) {
    struct solve_result r;
    for (int i = 0; i < a->p->n; i++)
      z[i] = 0.0;
    if (solver_solve(se->milp[o], a->p, z, &r) == 0) {
      printf("    milp -milp_objective %-7s %s (%d nodes)\n", objectives[o], solve_status_name(r.status),
             r.iterations);
      if (r.status == SOLVE_CONVERGED) print_point(a, z);
    }
  }
  free(z);
}

static void enum_search(const struct ah_pyramid *a, struct solver *s)
{
  struct cp_problem *red = ah_pyramid_reduced(a);
  double *zr = red ? calloc((size_t)red->n, sizeof *zr) : NULL, *z = calloc((size_t)a->p->n, sizeof *z);
  struct solve_result r;
  if (!red || !zr || !z || solver_solve(s, red, zr, &r)) {
    printf("    enum: set-up failed\n");
    goto cleanup;
  }
  printf("    enum on the reduced problem (n = %d): %s, %d distinct basic solutions\n", red->n,
         solve_status_name(r.status), r.n_solutions);
  for (int k = 0; k < r.n_solutions; k++) {
    ah_pyramid_lift(a, r.solutions + (size_t)k * red->n, z);
    print_point(a, z);
  }
cleanup:
  cp_destroy(&red);
  free(zr);
  free(z);
}

/* The searches' solvers read the run's options (-cp_tol, -milp_..., -enum_...) once, before any work, so
 * that a bad or unused option stops the run; milp's objective is each search's own. 0, or 2 with a
 * message. */
static int searches_create(const struct program *prog, struct searches *se)
{
  char msg[512] = "";
  int bad = solver_create("enum", &se->enumerate, msg, sizeof msg) ||
            solver_set_from_options(se->enumerate, prog->options, msg, sizeof msg);
  for (int o = 0; o < N_OBJECTIVES && !bad; o++) {
    /* the objective goes into the run's object for the read, and out again: the search sets it */
    bad = solver_create("milp", &se->milp[o], msg, sizeof msg) ||
          PetscOptionsSetValue(prog->options, "-milp_objective", objectives[o]) ||
          solver_set_from_options(se->milp[o], prog->options, msg, sizeof msg);
    PetscOptionsClearValue(prog->options, "-milp_objective");
  }
  if (bad) fprintf(stderr, "error: %s\n", msg[0] ? msg : "cannot create the search solvers");
  return bad ? 2 : 0;
}

static void searches_destroy(struct searches *se)
{
  for (int o = 0; o < N_OBJECTIVES; o++)
    solver_destroy(&se->milp[o]);
  solver_destroy(&se->enumerate);
}

/* For program_report_unused: an option of a solver the searches do not use is named with its solver. */
static int explain_unused(const char *name, char *msg, size_t len)
{
  const struct solver_type *owner = solver_option_owner(name);
  if (owner)
    snprintf(msg, len, "%s is an option of solver %s, which ah_pyramid does not use", name, owner->name);
  return owner != NULL;
}

/* -mu: a list of friction coefficients, each >= 0. 0, or 2 with a message. */
static int read_mus(const struct program *prog, double **mus, int *n)
{
  const char *text = program_value(prog, "-mu");
  char **items = program_split_list(text ? text : pyramid_options[N_PYRAMID_OPTIONS - 1].def, n);
  *mus = items ? malloc((size_t)*n * sizeof **mus) : NULL;
  int bad = !*mus;
  for (int i = 0; !bad && i < *n; i++)
    if (option_parse_real(items[i], &(*mus)[i]) || !((*mus)[i] >= 0.0)) {
      fprintf(stderr, "error: -mu: '%s' is not a friction coefficient (a number >= 0)\n", items[i]);
      bad = 1;
    }
  free(items);
  return bad ? 2 : 0;
}

static int pyramid(const struct program *prog)
{
  struct pyramid_settings set;
  struct searches se = {{NULL}, NULL};
  double *mus = NULL;
  int n_mu = 0, n_names = 0, rc = 2;
  char msg[512];
  if (prog->help) {
    printf("ah_pyramid: Anitescu-Hart Sec. 3, the hexagonal pyramid's nonconvex solution set.\n");
    option_print(stdout, pyramid_options, N_PYRAMID_OPTIONS, NULL);
    printf(
        "The searches' solvers (milp, its -milp_objective set by each search; enum) take their options:\n");
    solver_print_harness_options(stdout);
    solver_print_options(stdout, solver_find("milp"));
    solver_print_options(stdout, solver_find("enum"));
    return 0;
  }
  if (option_read(pyramid_options, N_PYRAMID_OPTIONS - 1, prog->options, NULL, &set, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    return 2;
  }
  const char **names = solver_option_names(&n_names);
  int unused = names ? 0 : 1;
  if ((rc = read_mus(prog, &mus, &n_mu)) || (rc = searches_create(prog, &se)) ||
      (unused =
           program_report_unused(prog, pyramid_options, N_PYRAMID_OPTIONS, names, n_names, explain_unused)))
    goto cleanup;
  printf("Anitescu-Hart Sec. 3: hexagonal pyramid (radius 1, height 1.5, mass 1) at rest, h = %g, k = %d\n",
         set.h, set.friction_dirs);
  printf("residual = checker's max(natural, equality) / scale; a solution has residual <= -cp_tol\n");
  for (int i = 0; i < n_mu; i++) {
    struct ah_pyramid *a = NULL;
    if (ah_pyramid_create(mus[i], set.h, set.friction_dirs, &a)) {
      fprintf(stderr, "error: could not build the pyramid problem (mu %g, k %d)\n", mus[i],
              set.friction_dirs);
      rc = 1;
      break;
    }
    paper_points(a, mus[i]);
    if (mus[i] == 0.0 || mus[i] == 0.1 || mus[i] == 1.0) {
      milp_search(a, &se);
      enum_search(a, se.enumerate);
    }
    ah_pyramid_destroy(&a);
  }
cleanup:
  if (unused) rc = 2;
  searches_destroy(&se);
  free(names);
  free(mus);
  return rc;
}

int main(int argc, char **argv)
{
  static const struct program_spec spec = {.name = "ah_pyramid",
                                           .usage = "[-mu a,b,...] [-h H] [-friction_dirs K] [options]",
                                           .h_is_time_step = 1};
  return program_main(&spec, argc, argv, pyramid);
}
