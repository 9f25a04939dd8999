/* siconos_mcp.c — Siconos numerics 4.4's nonlinear MCP solvers beside ours, judged by our checker:
 * siconos_mcp_newton_fb (SICONOS_MCP_NEWTON_FB_FBLSA: Newton on the Fischer-Burmeister reformulation with
 * its line search, VFBLSA of Facchinei-Pang 2003, p. 834) and siconos_mcp_newton_minfb
 * (SICONOS_MCP_NEWTON_MIN_FBLSA: the Newton direction of the min reformulation, the same FB line search,
 * Facchinei-Pang p. 855). They take the mixed NCP of a geometrically implicit step (Chakraborty et al.,
 * eqs. 20-22, for the disc on a plane eqs. 41-47) directly: Siconos' MCP has n1 free unknowns first (rows
 * F = 0), then n2 with 0 <= z perp F(z) >= 0 (MixedComplementarityProblem.h; Debian ships these headers
 * but not the NCP ones). Linear kinds (LCP, mixed LCP) go through the same callbacks with F = Mz + q.
 * Our bounds are mapped per component: free rows move to the front (the permutation pairs each unknown
 * with its row, so it is a symmetric one), lo finite shifts (z = lo + y), only hi finite reflects
 * (z = hi - y, F -> -F); a row with both bounds finite has no MCP form here: not_applicable. A problem with
 * no complementarity row (every unknown free: the implicit disc in the air) gets one decoupled pair
 * 0 <= y perp y >= 0 appended (n2 = 1): Siconos' FB Jacobian (Jac_F_FB, FischerBurmeister.c) multiplies by
 * its n2 x n2 block with DGEMV and leading dimension n2, which BLAS rejects for n2 = 0 ("parameter number 6
 * had an illegal value"); the pair starts and stays at y = 0 (its FB value is 0, so its Newton step is 0)
 * and adds nothing to the merit or the error, so the free rows' iterates are Siconos' own.
 * Siconos' MCP error (mcp_compute_error) is absolute: ||z_c - max(0, z_c - F_c)||_2 + ||F_free||_2, which
 * bounds our natural-map residual and equality residual in the inf-norm; so its tolerance is ours times
 * the checker's scale, and its success implies ours, but only our checker decides. Siconos stops its
 * Newton on ||grad 1/2 ||Phi_FB||^2||_2 and reports info from that error: its own outcome, kept.
 * Timing: the mapping, the Siconos problem and options are built in setup, before the harness's clock;
 * the reported time is the mcp_driver call alone (call_seconds). Time limit: Siconos cannot be interrupted,
 * so with -cp_time_limit > 0 the call runs in a child forked per solve (the callbacks and their context
 * must be the parent's of this solve, so the LCP backend's persistent worker does not fit), killed at the
 * limit; y, w and Siconos' outputs come back through shared memory. A fresh child pays first-touch page
 * faults: an untimed one-iteration call takes most of them (15 ms -> ~0.15 ms on n = 11), the rest stays in
 * the timed call, so timings are taken in process (-cp_time_limit 0). */
/* MAP_ANONYMOUS (shared memory for the forked call) is not in XSI 7, which the build selects. */
#define _DEFAULT_SOURCE
#include "siconos_call.h"
#include "solver.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <numerics/MCP_cst.h>
#include <numerics/MixedComplementarityProblem.h>
#include <numerics/NonSmoothDrivers.h>
#include <numerics/NumericsMatrix.h>
#include <numerics/NumericsVerbose.h>
#include <numerics/SolverOptions.h>
#include <numerics/sn_error_handling.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a solve hands back (in shared memory when it runs in a child). */
struct smcp_out {
  int info, fatal, iterations, eval_fail;
  double residu, seconds;
  char fatal_msg[160];
  double yw[]; /* y, w, then scratch copies of both for the child's untimed first call (ns each) */
};

struct smcp_data {
  int solver_id;
  int show_stderr; /* -siconos_stderr (shared with the LCP backend) */
  /* Prepared by setup for one problem (outside the clock): */
  const struct cp_problem *prepared;
  int n, cap, n1;
  int ns; /* Siconos' size: n, plus the padding pair when there is no complementarity row */
  int applicable;
  char why[128];
  int *perm;            /* Siconos position k -> our unknown perm[k] */
  double *sign, *shift; /* z[perm[k]] = shift[k] + sign[k] y[k]; F side: G[k] = sign[k] F[perm[k]] */
  double *zo, *Fo, *Jo; /* our z, F(z), J(z) (row-major) for the callbacks */
  MixedComplementarityProblem *mcp;
  double tol_s;
  int eval_fail;        /* a callback could not evaluate F or J during the current solve */
  struct smcp_out *out; /* mmap'd (MAP_SHARED): seen by a forked child */
  size_t out_bytes;
};

static const struct option_decl smcp_options[] = {
    {"stderr", OPT_BOOL, offsetof(struct smcp_data, show_stderr), "0", NULL,
     "let Siconos' own stderr messages through"},
};

static int smcp_create_with(struct solver *s, int id)
{
  struct smcp_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->solver_id = id;
  s->data = d;
  numerics_set_verbose(0);
  return 0;
}

static int smcp_fb_create(struct solver *s) { return smcp_create_with(s, SICONOS_MCP_NEWTON_FB_FBLSA); }
static int smcp_min_create(struct solver *s) { return smcp_create_with(s, SICONOS_MCP_NEWTON_MIN_FBLSA); }

/* y (Siconos' order and signs) -> our z in d->zo. */
static void smcp_to_ours(const struct smcp_data *d, const double *y)
{
  for (int k = 0; k < d->n; k++)
    d->zo[d->perm[k]] = d->shift[k] + d->sign[k] * y[k];
}

/* Siconos' callbacks return nothing: a point where ours fail gets F = NaN (its line search backs off or
 * stops), and the failure is remembered for the status. */
static void smcp_F(void *env, int n, double *y, double *G)
{
  struct smcp_data *d = env;
  const struct cp_problem *p = d->prepared;
  smcp_to_ours(d, y);
  if (cp_eval_F(p, d->zo, d->Fo) != 0) {
    d->eval_fail = 1;
    for (int k = 0; k < n; k++)
      G[k] = NAN;
    return;
  }
  for (int k = 0; k < d->n; k++)
    G[k] = d->sign[k] * d->Fo[d->perm[k]];
  if (n > d->n) G[d->n] = y[d->n]; /* the padding pair: F = y */
}

static void smcp_J(void *env, int n, double *y, NumericsMatrix *J)
{
  struct smcp_data *d = env;
  const struct cp_problem *p = d->prepared;
  double *a = J->matrix0; /* dense, column-major */
  smcp_to_ours(d, y);
  if (cp_eval_J(p, d->zo, d->Jo) != 0) {
    d->eval_fail = 1;
    for (size_t k = 0; k < (size_t)n * n; k++)
      a[k] = NAN;
    return;
  }
  const int m = d->n; /* ours; n = m + 1 with the padding pair: its row and column are e_m */
  for (int l = 0; l < n; l++)
    for (int k = 0; k < n; k++)
      a[k + (size_t)l * n] = k < m && l < m
                                 ? d->sign[k] * d->sign[l] * d->Jo[(size_t)d->perm[k] * m + d->perm[l]]
                                 : (double)(k == l);
}

static void smcp_free_problem(struct smcp_data *d)
{
  if (d->mcp) mixedComplementarityProblem_free(d->mcp); /* frees nabla_Fmcp too */
  d->mcp = NULL;
}

static void smcp_release(struct smcp_data *d)
{
  smcp_free_problem(d);
  free(d->perm);
  free(d->sign);
  free(d->shift);
  free(d->zo);
  free(d->Fo);
  free(d->Jo);
  d->perm = NULL;
  d->sign = d->shift = d->zo = d->Fo = d->Jo = NULL;
  if (d->out) munmap(d->out, d->out_bytes);
  d->out = NULL;
  d->cap = 0;
}

/* The mapping, the buffers, the Siconos problem (its Jacobian storage n x n) and the tolerance, outside
 * the clock. A problem with a two-sided box row is marked not applicable (solve says so). */
static int smcp_setup(struct solver *s, const struct cp_problem *p)
{
  struct smcp_data *d = s->data;
  int n = p->n;
  d->prepared = NULL;
  d->applicable = 1;
  d->why[0] = '\0';
  if (n <= 0) return 0;
  for (int i = 0; i < n; i++)
    if (isfinite(p->lo[i]) && isfinite(p->hi[i])) {
      d->applicable = 0;
      snprintf(d->why, sizeof d->why,
               "unknown %d has two finite bounds [%g, %g]: Siconos' MCP has no box rows", i, p->lo[i],
               p->hi[i]);
      return 0;
    }
  if (n > d->cap) {
    smcp_release(d);
    size_t nn = (size_t)n;
    d->perm = calloc(nn, sizeof *d->perm);
    d->sign = calloc(nn, sizeof *d->sign);
    d->shift = calloc(nn, sizeof *d->shift);
    d->zo = malloc(nn * sizeof *d->zo);
    d->Fo = malloc(nn * sizeof *d->Fo);
    d->Jo = malloc(nn * nn * sizeof *d->Jo);
    d->out_bytes = sizeof(struct smcp_out) + 4 * (nn + 1) * sizeof(double); /* + the padding pair */
    void *m = mmap(NULL, d->out_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    d->out = m == MAP_FAILED ? NULL : m;
    if (!d->perm || !d->sign || !d->shift || !d->zo || !d->Fo || !d->Jo || !d->out) {
      smcp_release(d);
      return 1;
    }
    d->cap = n;
  }
  int k = 0;
  for (int i = 0; i < n; i++) /* free rows first: Siconos' n1 equalities */
    if (!isfinite(p->lo[i]) && !isfinite(p->hi[i])) {
      d->perm[k] = i;
      d->sign[k] = 1.0;
      d->shift[k++] = 0.0;
    }
  d->n1 = k;
  int ns = n + (k == n); /* no complementarity row: the padding pair (file header) */
  for (int i = 0; i < n; i++) {
    if (!isfinite(p->lo[i]) && !isfinite(p->hi[i])) continue;
    d->perm[k] = i;
    d->sign[k] = isfinite(p->lo[i]) ? 1.0 : -1.0;
    d->shift[k++] = isfinite(p->lo[i]) ? p->lo[i] : p->hi[i];
  }
  if (!d->mcp || d->ns != ns) {
    smcp_free_problem(d);
    d->mcp = mixedComplementarityProblem_new();
    if (!d->mcp) return 1;
    d->mcp->nabla_Fmcp = NM_create(NM_DENSE, ns, ns);
    if (!d->mcp->nabla_Fmcp) return 1;
  }
  d->mcp->n1 = d->n1;
  d->mcp->n2 = ns - d->n1;
  d->mcp->compute_Fmcp = smcp_F;
  d->mcp->compute_nabla_Fmcp = smcp_J;
  d->mcp->env = d;
  d->n = n;
  d->ns = ns;
  /* the checker's scale (capped, cp.h), without evaluating F: callback problems declare it */
  double scale = cp_scale(p, NULL);
  d->tol_s = s->set.tol * scale;
  d->prepared = p;
  return 0;
}

static SolverOptions *smcp_options_make(const struct smcp_data *d, int max_it)
{
  return siconos_options_make(d->solver_id, d->tol_s, max_it);
}

struct smcp_args {
  MixedComplementarityProblem *mcp;
  double *y, *w;
  SolverOptions *o;
};

static int smcp_call(void *args)
{
  struct smcp_args *a = args;
  return mcp_driver(a->mcp, a->y, a->w, a->o);
}

/* mcp_driver guarded (siconos_call.h; its LU prints a line per failed factorization). */
static int smcp_guarded(struct smcp_data *d, double *y, double *w, SolverOptions *o, int *fatal)
{
  struct smcp_args args = {d->mcp, y, w, o};
  return siconos_guarded_call(smcp_call, &args, !d->show_stderr, fatal);
}

/* One Siconos solve from y (in d->out->yw) into d->out. */
static void smcp_run(struct smcp_data *d, int max_it)
{
  struct smcp_out *out = d->out;
  double *y = out->yw, *w = out->yw + d->ns;
  SolverOptions *o = smcp_options_make(d, max_it);
  out->fatal = 0;
  out->fatal_msg[0] = '\0';
  d->eval_fail = 0;
  if (!o) {
    out->fatal = 1;
    snprintf(out->fatal_msg, sizeof out->fatal_msg, "out of memory creating the Siconos options");
    return;
  }
  int fatal = 0;
  double t0 = solver_wall_time();
  out->info = smcp_guarded(d, y, w, o, &fatal);
  out->seconds = solver_wall_time() - t0;
  out->fatal = fatal;
  if (fatal) snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", sn_fatal_error_msg());
  out->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
  out->residu = o->dparam[SICONOS_DPARAM_RESIDU];
  out->eval_fail = d->eval_fail;
  siconos_options_free(o);
}

/* The forked child's work: a warm-up call, then the solve. */
static void smcp_work(void *arg)
{
  struct solver *s = arg;
  struct smcp_data *d = s->data;
  /* A fresh child's first writes fault on copy-on-write pages (Siconos' work arrays, the callbacks'
   * data): measured at ~15 ms per solve on problems it solves in ~20 us in process. One untimed call
   * of a single iteration from a copy of y takes those faults first; its outputs are discarded. */
  int n = d->ns;
  memcpy(d->out->yw + 2 * n, d->out->yw, (size_t)n * sizeof(double));
  SolverOptions *o = smcp_options_make(d, 1);
  if (o) {
    int fatal;
    smcp_guarded(d, d->out->yw + 2 * n, d->out->yw + 3 * n, o, &fatal);
    siconos_options_free(o);
  }
  smcp_run(d, s->set.max_it);
}

static int smcp_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct smcp_data *d = s->data;
  int n = p->n;
  if (n == 0) {
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  if ((d->prepared != p || d->n != n) && smcp_setup(s, p) != 0) return 1;
  if (!d->applicable) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "%s: %s", s->type->name, d->why);
    return 0;
  }
  struct smcp_out *out = d->out;
  double *y = out->yw, *w = out->yw + d->ns;
  for (int k = 0; k < d->ns; k++) { /* the harness's initial point (cold: projected 0), in Siconos' terms */
    y[k] = k < n ? (z[d->perm[k]] - d->shift[k]) * d->sign[k] : 0.0; /* the padding pair at its answer */
    w[k] = 0.0;
  }
  int killed = 0, died = 0, wstatus = 0;
  if (s->set.time_limit > 0.0) {
    int rc = siconos_run_forked(s, smcp_work, s, &wstatus);
    killed = rc == 1;
    died = rc == 2;
  } else {
    smcp_run(d, s->set.max_it);
  }
  if (killed) {
    r->status = SOLVE_TIME_LIMIT;
    snprintf(r->message, sizeof r->message, "Siconos call killed at the time limit %g s (-cp_time_limit)",
             s->set.time_limit);
    return 0; /* z stays the initial point: an iterative method's last iterate is not known */
  }
  if (died) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (WIFSIGNALED(wstatus))
      snprintf(r->message, sizeof r->message, "Siconos died on signal %d", WTERMSIG(wstatus));
    else
      snprintf(r->message, sizeof r->message, "Siconos could not be run in a child process");
    return 0;
  }
  r->call_seconds = out->seconds;
  r->iterations = out->iterations;
  smcp_to_ours(d, y); /* the last iterate, whatever the outcome: the harness judges it */
  memcpy(z, d->zo, (size_t)n * sizeof *z);
  if (out->fatal) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "Siconos fatal error: %.130s", out->fatal_msg);
  } else if (out->info == 0) {
    r->status = SOLVE_CONVERGED; /* a claim: the harness checks it */
  } else if (out->eval_fail) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message,
             "Siconos info %d after %d iterations; F or J could not be evaluated at some iterate", out->info,
             out->iterations);
  } else {
    /* info 1: after its Newton stopped (iteration limit or a stationary point of the FB merit) the MCP
     * error is above the tolerance */
    int max_it = s->set.max_it;
    if (max_it <= 0) {
      SolverOptions *o = smcp_options_make(d, 0);
      max_it = o ? o->iparam[SICONOS_IPARAM_MAX_ITER] : -1;
      siconos_options_free(o);
    }
    r->status = out->iterations >= max_it ? SOLVE_MAX_ITERATIONS : SOLVE_LINE_SEARCH_FAILURE;
    snprintf(r->message, sizeof r->message,
             "Siconos info %d after %d of %d iterations, its MCP error %.3g > %.3g", out->info,
             out->iterations, max_it, out->residu, d->tol_s);
  }
  return 0;
}

static void smcp_destroy(struct solver *s)
{
  struct smcp_data *d = s->data;
  if (d) smcp_release(d);
  free(s->data);
  s->data = NULL;
}

static void smcp_view(const struct solver *s, FILE *out)
{
  const struct smcp_data *d = s->data;
  fprintf(out, "  Siconos numerics MCP solver id %d (%s)\n", d->solver_id,
          solver_options_id_to_name(d->solver_id));
}

#define SMCP_TYPE(NAME, CREATE, SUMMARY)                                                                     \
  const struct solver_type solver_type_##NAME = {                                                            \
      .name = #NAME,                                                                                         \
      .summary = (SUMMARY),                                                                                  \
      .kinds = CP_LCP | CP_MLCP | CP_NCP,                                                                    \
      .options = smcp_options,                                                                               \
      .n_options = (int)(sizeof smcp_options / sizeof smcp_options[0]),                                      \
      .option_prefix = "siconos_",                                                                           \
      .create = (CREATE),                                                                                    \
      .setup = smcp_setup,                                                                                   \
      .solve = smcp_solve,                                                                                   \
      .destroy = smcp_destroy,                                                                               \
      .view = smcp_view,                                                                                     \
  }

SMCP_TYPE(siconos_mcp_newton_fb, smcp_fb_create, "Siconos MCP Newton on Fischer-Burmeister, FB line search");
SMCP_TYPE(siconos_mcp_newton_minfb, smcp_min_create, "Siconos MCP Newton on min, FB line search");
