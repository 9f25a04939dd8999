/* siconos.c — the Siconos numerics 4.4 backend: its LCP solvers beside ours, judged by our checker.
 * siconos_lemke: lexicographic Lemke (Cottle-Pang-Stone 1992, Sec. 4.4; SICONOS_LCP_LEMKE);
 * siconos_pgs: projected Gauss-Seidel; siconos_newton_fb: semismooth Newton on Fischer-Burmeister
 * (SICONOS_LCP_NEWTON_FB_FBLSA); siconos_newton_minfb: Newton on min with FB line search
 * (SICONOS_LCP_NEWTON_MIN_FBLSA); siconos_enum: enumeration of the 2^n complementary bases.
 * LCP kind only (Siconos' LCP interface has no bounds or free rows). M goes over COLUMN-major.
 * Siconos' tolerance is relative to ||q||_2 (lcp_compute_error); we convert so that its success implies
 * ours, but only our checker decides. Fatal Siconos errors come back through its setjmp hook. */
#include "solver.h"

#include <fcntl.h>
#include <math.h>
#include <numerics/LCP_Solvers.h>
#include <numerics/LinearComplementarityProblem.h>
#include <numerics/NonSmoothDrivers.h>
#include <numerics/NumericsMatrix.h>
#include <numerics/NumericsVerbose.h>
#include <numerics/SolverOptions.h>
#include <numerics/lcp_cst.h>
#include <numerics/sn_error_handling.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct siconos_data {
  int solver_id;
  int enum_max_n;  /* -siconos_enum_max_n: enum refuses larger problems (default 20: 2^20 solves) */
  int show_stderr; /* -siconos_stderr: let Siconos' own stderr messages through (default false) */
};

/* One prefix for the family ("siconos_"): -siconos_stderr is shared, -siconos_enum_max_n is enum's. */
static const struct option_decl siconos_options[] = {
    {"stderr", OPT_BOOL, offsetof(struct siconos_data, show_stderr), "0", NULL,
     "let Siconos' own stderr messages through"},
};
static const struct option_decl siconos_enum_options[] = {
    {"stderr", OPT_BOOL, offsetof(struct siconos_data, show_stderr), "0", NULL,
     "let Siconos' own stderr messages through"},
    {"enum_max_n", OPT_INT, offsetof(struct siconos_data, enum_max_n), "20", "[1,30]",
     "siconos_enum refuses larger problems (2^n bases)"},
};

static int siconos_create_with(struct solver *s, int id)
{
  struct siconos_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->solver_id = id;
  d->enum_max_n = 20; /* siconos_enum's table overrides; the others never enumerate */
  s->data = d;
  numerics_set_verbose(0); /* Siconos prints to stdout when verbose */
  return 0;
}

static int siconos_lemke_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_LEMKE); }
static int siconos_pgs_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_PGS); }
static int siconos_nfb_create(struct solver *s)
{
  return siconos_create_with(s, SICONOS_LCP_NEWTON_FB_FBLSA);
}
static int siconos_nmfb_create(struct solver *s)
{
  return siconos_create_with(s, SICONOS_LCP_NEWTON_MIN_FBLSA);
}
static int siconos_enum_create(struct solver *s) { return siconos_create_with(s, SICONOS_LCP_ENUM); }

/* The driver call under Siconos' error hook: a fatal error longjmps back here instead of abort(). */
static int siconos_guarded(LinearComplementarityProblem *lcp, double *z, double *w, SolverOptions *o,
                           int *fatal)
{
  volatile int info = -1; /* volatile: read after a longjmp */
  *fatal = 0;
  if (setjmp(*sn_get_jmp_buf()) == 0) {
    info = linearComplementarity_driver(lcp, z, w, o);
    sn_release_jmp_buf();
  } else {
    sn_release_jmp_buf();
    *fatal = 1;
  }
  return info;
}

/* Siconos writes some diagnostics to stderr whatever its verbosity (NM_LU_factorize: one line per failed
 * factorization, thousands on a degenerate problem); unless asked, stderr goes to /dev/null meanwhile. */
static int siconos_call(LinearComplementarityProblem *lcp, double *z, double *w, SolverOptions *o, int quiet,
                        int *fatal)
{
  int saved = -1;
  if (quiet) {
    fflush(stderr);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      saved = dup(STDERR_FILENO);
      if (saved >= 0) dup2(devnull, STDERR_FILENO);
      close(devnull);
    }
  }
  int info = siconos_guarded(lcp, z, w, o, fatal);
  if (saved >= 0) {
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
  }
  return info;
}

static int siconos_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct siconos_data *d = s->data;
  int n = p->n;
  if (d->solver_id == SICONOS_LCP_ENUM && n > d->enum_max_n) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "siconos_enum: n = %d above -siconos_enum_max_n %d", n,
             d->enum_max_n);
    return 0;
  }
  if (n == 0) {
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  double *Mc = malloc((size_t)n * n * sizeof *Mc), *q = malloc((size_t)n * sizeof *q);
  double *w = calloc((size_t)n, sizeof *w);
  NumericsMatrix *M = NULL;
  SolverOptions *o = NULL;
  int err = 1;
  if (!Mc || !q || !w) goto cleanup;
  for (int i = 0; i < n; i++) /* ours row-major, Siconos dense column-major */
    for (int j = 0; j < n; j++)
      Mc[(size_t)j * n + i] = p->M[(size_t)i * n + j];
  double qinf = 1.0, q2 = 0.0;
  for (int i = 0; i < n; i++) {
    q[i] = p->q[i];
    q2 += q[i] * q[i];
    if (fabs(q[i]) > qinf) qinf = fabs(q[i]);
  }
  q2 = sqrt(q2);
  M = NM_create_from_data(NM_DENSE, n, n, Mc);
  o = solver_options_create(d->solver_id);
  if (!M || !o) goto cleanup;
  /* Siconos stops at ||z - max(0, z - w)||_2 / ||q||_2 <= tol_s (absolute when ||q||_2 ~ 0); ours is
   * ||.||_inf <= tol max(1, ||q||_inf). ||.||_inf <= ||.||_2, so this tol_s makes its stop imply ours. */
  o->dparam[SICONOS_DPARAM_TOL] = q2 > 1e-300 ? s->set.tol * qinf / q2 : s->set.tol;
  /* Siconos' recheck after the solve (lcp_compute_error) turns a claim it cannot confirm into info 1.
   * Lemke needs it: 4.4's lcp_lexicolemke reports success (info 0) when it stops on a ray. Elsewhere it
   * would blur the solver's own verdict (enum: a wrong claim would read as "no solution"), and our
   * harness rechecks every answer anyway. */
  o->filterOn = d->solver_id == SICONOS_LCP_LEMKE;
  if (s->set.max_it > 0)
    o->iparam[SICONOS_IPARAM_MAX_ITER] = s->set.max_it;
  else if (d->solver_id == SICONOS_LCP_LEMKE && o->iparam[SICONOS_IPARAM_MAX_ITER] < 10 * n)
    o->iparam[SICONOS_IPARAM_MAX_ITER] = 10 * n; /* a pivoting method needs O(n) pivots */
  LinearComplementarityProblem lcp = {.size = n, .M = M, .q = q};
  if (d->solver_id == SICONOS_LCP_ENUM) lcp_enum_init(&lcp, o, 1);
  if (s->set.warm_start == 0)
    for (int i = 0; i < n; i++)
      z[i] = 0.0;
  int fatal;
  int info = siconos_call(&lcp, z, w, o, !d->show_stderr, &fatal);
  if (d->solver_id == SICONOS_LCP_ENUM) lcp_enum_reset(&lcp, o, 1);
  r->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
  if (fatal) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "Siconos fatal error: %s", sn_fatal_error_msg());
  } else if (info == 0) {
    r->status = SOLVE_CONVERGED; /* a claim: the harness checks it */
  } else if (d->solver_id == SICONOS_LCP_LEMKE) {
    /* info 1 is the pivot limit or, through the recheck above, a ray: tell them apart by the count */
    r->status =
        r->iterations >= o->iparam[SICONOS_IPARAM_MAX_ITER] ? SOLVE_MAX_ITERATIONS : SOLVE_RAY_TERMINATION;
  } else if (d->solver_id == SICONOS_LCP_ENUM) {
    /* every basis tried without a solution; singular bases are skipped, so this proves nothing */
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message,
             "siconos_enum: no basis gave a solution (singular bases skipped: not a proof of infeasibility)");
  } else if (info == 1) {
    r->status = SOLVE_MAX_ITERATIONS;
  } else if (d->solver_id == SICONOS_LCP_PGS && info == 2) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "siconos_pgs: a diagonal entry of M vanishes");
  } else {
    r->status = SOLVE_NUMERICAL_FAILURE;
  }
  if (r->status != SOLVE_CONVERGED && r->status != SOLVE_NOT_APPLICABLE && solver_out_of_time(s))
    r->status = SOLVE_TIME_LIMIT; /* Siconos cannot be interrupted; we can only report it afterwards */
  /* pivoting and enumeration leave no approximate answer when they stop short (solver.h) */
  if (r->status != SOLVE_CONVERGED && (d->solver_id == SICONOS_LCP_LEMKE || d->solver_id == SICONOS_LCP_ENUM))
    r->no_answer = 1;
  if (!r->message[0] && r->status != SOLVE_CONVERGED)
    snprintf(r->message, sizeof r->message, "Siconos info %d after %d iterations", info, r->iterations);
  err = 0;
cleanup:
  if (o) {
    solver_options_delete(o); /* 4.4 frees the members only (its free(op) is commented out) */
    free(o);
  }
  if (M) {
    M->matrix0 = NULL; /* Mc is ours */
    NM_free(M);
  }
  free(Mc);
  free(q);
  free(w);
  return err;
}

static void siconos_destroy(struct solver *s)
{
  free(s->data);
  s->data = NULL;
}

static void siconos_view(const struct solver *s, FILE *out)
{
  const struct siconos_data *d = s->data;
  fprintf(out, "  Siconos numerics solver id %d (%s)", d->solver_id, solver_options_id_to_name(d->solver_id));
  if (d->solver_id == SICONOS_LCP_ENUM) fprintf(out, ", enum_max_n %d", d->enum_max_n);
  fprintf(out, "\n");
}

#define SICONOS_TYPE(NAME, CREATE, OPTIONS, SUMMARY)                                                         \
  const struct solver_type solver_type_##NAME = {                                                            \
      .name = #NAME,                                                                                         \
      .summary = (SUMMARY),                                                                                  \
      .kinds = CP_LCP,                                                                                       \
      .options = (OPTIONS),                                                                                  \
      .n_options = (int)(sizeof(OPTIONS) / sizeof(OPTIONS)[0]),                                              \
      .option_prefix = "siconos_",                                                                           \
      .create = (CREATE),                                                                                    \
      .solve = siconos_solve,                                                                                \
      .destroy = siconos_destroy,                                                                            \
      .view = siconos_view,                                                                                  \
  }

SICONOS_TYPE(siconos_lemke, siconos_lemke_create, siconos_options, "Siconos lexicographic Lemke");
SICONOS_TYPE(siconos_pgs, siconos_pgs_create, siconos_options, "Siconos projected Gauss-Seidel");
SICONOS_TYPE(siconos_newton_fb, siconos_nfb_create, siconos_options,
             "Siconos Newton on Fischer-Burmeister, line search");
SICONOS_TYPE(siconos_newton_minfb, siconos_nmfb_create, siconos_options,
             "Siconos Newton on min, FB line search");
SICONOS_TYPE(siconos_enum, siconos_enum_create, siconos_enum_options,
             "Siconos enumeration (-siconos_enum_max_n 20)");
