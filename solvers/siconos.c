/* siconos.c — the Siconos numerics 4.4 backend: its LCP solvers beside ours, judged by our checker.
 * siconos_lemke: lexicographic Lemke (Cottle-Pang-Stone 1992, Sec. 4.4; SICONOS_LCP_LEMKE);
 * siconos_pgs: projected Gauss-Seidel; siconos_newton_fb: semismooth Newton on Fischer-Burmeister
 * (SICONOS_LCP_NEWTON_FB_FBLSA); siconos_newton_minfb: Newton on min with FB line search
 * (SICONOS_LCP_NEWTON_MIN_FBLSA); siconos_enum: enumeration of the 2^n complementary bases.
 * LCP kind only (Siconos' LCP interface has no bounds or free rows). M goes over COLUMN-major.
 * Siconos' tolerance is relative to ||q||_2 (lcp_compute_error); we convert so that its success implies
 * ours, but only our checker decides. Fatal Siconos errors come back through its setjmp hook.
 * Timing: the conversion (M to column-major, q, the tolerance) is done in setup, before the harness starts
 * the clock, so the timed region holds the Siconos call only. Time limit: Siconos has no way to be
 * interrupted, so with -cp_time_limit > 0 the call runs in a forked child writing z, w and its outputs to
 * shared memory; the parent kills it at the limit (status time_limit, no answer). */
/* MAP_ANONYMOUS (shared memory for the forked call) is not in XSI 7, which the build selects. */
#define _DEFAULT_SOURCE
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
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the forked child hands back (shared memory), followed by z and w. */
struct siconos_shared {
  int info, fatal, iterations, done;
  double residu;
  double seconds; /* wall time of the Siconos call in the child */
  char fatal_msg[160];
  double zw[]; /* z then w, n each */
};

struct siconos_data {
  int solver_id;
  int enum_max_n;  /* -siconos_enum_max_n: enum refuses larger problems (default 20: 2^20 solves) */
  int show_stderr; /* -siconos_stderr: let Siconos' own stderr messages through (default false) */
  /* Prepared by setup for one problem (outside the clock): */
  const struct cp_problem *prepared; /* the problem Mc and q hold (NULL: none) */
  int n, cap;                        /* size prepared, capacity of the buffers */
  double *Mc, *q, *w;                /* column-major M, q, w */
  double tol_s;                      /* Siconos' tolerance matching ours */
  struct siconos_shared *shared;     /* mmap'd for the forked call, 2 cap doubles */
  size_t shared_bytes;
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

/* Converts p for Siconos (column-major M, q, the tolerance) into buffers kept across solves; called by
 * the harness before the clock starts, and by solve if it was not (a caller that skipped solver_setup). */
static int siconos_setup(struct solver *s, const struct cp_problem *p)
{
  struct siconos_data *d = s->data;
  int n = p->n;
  d->prepared = NULL;
  if (!cp_is_linear(p) || n <= 0) return 0;
  if (n > d->cap) {
    free(d->Mc);
    free(d->q);
    free(d->w);
    if (d->shared) munmap(d->shared, d->shared_bytes);
    d->shared = NULL;
    d->cap = 0;
    d->Mc = malloc((size_t)n * n * sizeof *d->Mc);
    d->q = malloc((size_t)n * sizeof *d->q);
    d->w = malloc((size_t)n * sizeof *d->w);
    d->shared_bytes = sizeof(struct siconos_shared) + 2 * (size_t)n * sizeof(double);
    void *m = mmap(NULL, d->shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    d->shared = m == MAP_FAILED ? NULL : m;
    if (!d->Mc || !d->q || !d->w || !d->shared) return 1;
    d->cap = n;
  }
  for (int i = 0; i < n; i++) /* ours row-major, Siconos dense column-major */
    for (int j = 0; j < n; j++)
      d->Mc[(size_t)j * n + i] = p->M[(size_t)i * n + j];
  double qinf = 1.0, qmax = 0.0, q2 = 0.0;
  for (int i = 0; i < n; i++) {
    d->q[i] = p->q[i];
    qmax = fmax(qmax, fabs(d->q[i]));
  }
  for (int i = 0; i < n && qmax > 0.0; i++) /* ||q||_2 without overflow for ||q|| near DBL_MAX */
    q2 += (d->q[i] / qmax) * (d->q[i] / qmax);
  q2 = qmax * sqrt(q2);
  qinf = fmax(qinf, qmax);
  if (qinf > CP_SCALE_MAX) qinf = CP_SCALE_MAX; /* the checker's capped scale (cp.h) */
  /* Siconos stops at ||z - max(0, z - w)||_2 / ||q||_2 <= tol_s (absolute when ||q||_2 ~ 0); ours is
   * ||.||_inf <= tol scale. ||.||_inf <= ||.||_2, so this tol_s makes its stop imply ours. */
  d->tol_s = q2 > 1e-300 ? s->set.tol * qinf / q2 : s->set.tol;
  d->prepared = p;
  d->n = n;
  return 0;
}

/* The Siconos call in a forked child, killed at the time limit. Returns 0 when the child finished (its
 * outputs in d->shared, z and w copied), 1 at the time limit, 2 if the child could not run or died. */
static int siconos_call_forked(struct solver *s, LinearComplementarityProblem *lcp, double *z, double *w,
                               SolverOptions *o, int *status_out)
{
  struct siconos_data *d = s->data;
  struct siconos_shared *sh = d->shared;
  int n = lcp->size;
  memset(sh, 0, sizeof *sh);
  memcpy(sh->zw, z, (size_t)n * sizeof *z);
  fflush(NULL); /* the child must not inherit unwritten output */
  pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    int fatal = 0;
    double t0 = solver_wall_time();
    sh->info = siconos_call(lcp, sh->zw, sh->zw + n, o, !d->show_stderr, &fatal);
    sh->seconds = solver_wall_time() - t0;
    sh->fatal = fatal;
    if (fatal) snprintf(sh->fatal_msg, sizeof sh->fatal_msg, "%s", sn_fatal_error_msg());
    sh->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
    sh->residu = o->dparam[SICONOS_DPARAM_RESIDU];
    sh->done = 1;
    _exit(0); /* no atexit handlers: MPI and PETSc belong to the parent */
  }
  int wstatus = 0;
  long nap_ns = 10000; /* 10 us, doubling to 1 ms: short solves are not held up by the polling */
  for (;;) {
    pid_t got = waitpid(pid, &wstatus, WNOHANG);
    if (got == pid) break;
    if (got < 0) return 2;
    if (solver_out_of_time(s)) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      return 1;
    }
    struct timespec nap = {0, nap_ns}; /* at most 1 ms: the limit is honoured to within a millisecond */
    nanosleep(&nap, NULL);
    nap_ns = nap_ns < 500000 ? 2 * nap_ns : 1000000;
  }
  *status_out = wstatus;
  if (!WIFEXITED(wstatus) || !sh->done) return 2;
  memcpy(z, sh->zw, (size_t)n * sizeof *z);
  memcpy(w, sh->zw + n, (size_t)n * sizeof *w);
  return 0;
}

static int siconos_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct siconos_data *d = s->data;
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
  if ((d->prepared != p || d->n != n) && siconos_setup(s, p) != 0) return 1;
  NumericsMatrix *M = NM_create_from_data(NM_DENSE, n, n, d->Mc);
  SolverOptions *o = solver_options_create(d->solver_id);
  double *w = d->w;
  int err = 1;
  if (!M || !o) goto cleanup;
  o->dparam[SICONOS_DPARAM_TOL] = d->tol_s;
  /* Siconos' recheck after the solve (lcp_compute_error) turns a claim it cannot confirm into info 1 and
   * leaves its error in dparam[SICONOS_DPARAM_RESIDU]. Lemke needs it: 4.4's lcp_lexicolemke returns info 0
   * also when it stops on a ray. Elsewhere it would blur the solver's own verdict (enum: a wrong claim
   * would read as "no solution"), and our harness rechecks every answer anyway. */
  o->filterOn = d->solver_id == SICONOS_LCP_LEMKE;
  if (s->set.max_it > 0)
    o->iparam[SICONOS_IPARAM_MAX_ITER] = s->set.max_it;
  else if (d->solver_id == SICONOS_LCP_LEMKE && o->iparam[SICONOS_IPARAM_MAX_ITER] < 10 * n)
    o->iparam[SICONOS_IPARAM_MAX_ITER] = 10 * n; /* a pivoting method needs O(n) pivots */
  int max_it = o->iparam[SICONOS_IPARAM_MAX_ITER];
  LinearComplementarityProblem lcp = {.size = n, .M = M, .q = d->q};
  if (d->solver_id == SICONOS_LCP_ENUM) lcp_enum_init(&lcp, o, 1);
  if (s->set.warm_start == 0)
    for (int i = 0; i < n; i++)
      z[i] = 0.0;
  int fatal = 0, info = -1, iterations = 0, killed = 0, died = 0, wstatus = 0;
  double residu = NAN;
  if (s->set.time_limit > 0.0) {
    int rc = siconos_call_forked(s, &lcp, z, w, o, &wstatus);
    killed = rc == 1;
    died = rc == 2;
    if (rc == 0) {
      info = d->shared->info;
      fatal = d->shared->fatal;
      iterations = d->shared->iterations;
      residu = d->shared->residu;
      r->call_seconds = d->shared->seconds; /* the call alone, as in-process (not the fork) */
    }
  } else {
    info = siconos_call(&lcp, z, w, o, !d->show_stderr, &fatal);
    iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
    residu = o->dparam[SICONOS_DPARAM_RESIDU];
  }
  if (d->solver_id == SICONOS_LCP_ENUM) lcp_enum_reset(&lcp, o, 1);
  r->iterations = iterations;
  if (killed) {
    r->status = SOLVE_TIME_LIMIT;
    snprintf(r->message, sizeof r->message, "Siconos call killed at the time limit %g s (-cp_time_limit)",
             s->set.time_limit);
  } else if (died) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (WIFSIGNALED(wstatus))
      snprintf(r->message, sizeof r->message, "Siconos died on signal %d", WTERMSIG(wstatus));
    else
      snprintf(r->message, sizeof r->message, "Siconos could not be run in a child process");
  } else if (fatal) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "Siconos fatal error: %.130s",
             s->set.time_limit > 0.0 ? d->shared->fatal_msg : sn_fatal_error_msg());
  } else if (info == 0) {
    r->status = SOLVE_CONVERGED; /* a claim: the harness checks it */
  } else if (d->solver_id == SICONOS_LCP_LEMKE) {
    /* With filterOn, info 1 is either lcp_lexicolemke's pivot limit (iter = itermax, its documented info
     * 1) or its own error check rejecting where it stopped: lexicolemke leaves the pivot loop before the
     * limit only on success or on a ray (pivot column nonpositive), and 4.4 reports both as info 0. What
     * it returns tells them apart: at a complementary basis z and w are nonnegative (Siconos' error is
     * then only inaccuracy); at a ray 4.4 hands back a point that is not (e.g. w = q < 0). */
    double scale = 1.0, most_negative = 0.0;
    for (int i = 0; i < n; i++) {
      scale = fmax(scale, fabs(d->q[i]));
      most_negative = fmin(most_negative, fmin(z[i], w[i]));
    }
    scale = fmin(scale, CP_SCALE_MAX);
    if (iterations >= max_it) {
      r->status = SOLVE_MAX_ITERATIONS;
      snprintf(r->message, sizeof r->message, "Siconos: pivot limit %d reached (info 1)", max_it);
    } else if (most_negative < -1e-8 * scale) {
      r->status = SOLVE_RAY_TERMINATION;
      snprintf(
          r->message, sizeof r->message,
          "Siconos stopped after %d of %d pivots without a complementary basis (min(z, w) = %.3g): a ray",
          iterations, max_it, most_negative);
    } else {
      r->status = SOLVE_NUMERICAL_FAILURE;
      snprintf(
          r->message, sizeof r->message,
          "Siconos reached a complementary basis after %d pivots, but its own error check failed: %.3g > "
          "tol %.3g",
          iterations, residu, d->tol_s);
    }
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
  /* pivoting and enumeration leave no approximate answer when they stop short (solver.h) */
  if (killed || died ||
      (r->status != SOLVE_CONVERGED &&
       (d->solver_id == SICONOS_LCP_LEMKE || d->solver_id == SICONOS_LCP_ENUM)))
    r->no_answer = 1;
  if (!r->message[0] && r->status != SOLVE_CONVERGED)
    snprintf(r->message, sizeof r->message, "Siconos info %d after %d iterations (its error %.3g)", info,
             r->iterations, residu);
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
  return err;
}

static void siconos_destroy(struct solver *s)
{
  struct siconos_data *d = s->data;
  if (d) {
    free(d->Mc);
    free(d->q);
    free(d->w);
    if (d->shared) munmap(d->shared, d->shared_bytes);
  }
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
      .setup = siconos_setup,                                                                                \
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
