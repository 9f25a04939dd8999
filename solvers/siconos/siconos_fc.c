/* siconos_fc.c — Siconos numerics 4.4's frictional-contact solvers beside ours (cp.h CP_FC), judged by our
 * checker: siconos_fc_nsgs (SICONOS_FRICTION_3D_NSGS, or 2D_NSGS for d = 2: Jean 1999's nonsmooth
 * Gauss-Seidel), siconos_fc_nsn_ac (3D_NSN_AC: semismooth Newton on Alart-Curnier, Alart & Curnier 1991),
 * siconos_fc_nsn_fb (3D_NSN_FB: on Fischer-Burmeister for second-order cones), siconos_fc_admm (3D_ADMM:
 * Acary, Brémond & Huber 2018), siconos_fc_vi_eg (3D_VI_EG: extra-gradient on the VI form); all through
 * fc3d_driver / fc2d_driver. A method with no 2D form is not_applicable on d = 2.
 * Tolerance: 4.4's fc3d_compute_error divides the absolute error (our residual: tests/solvers/siconos/
 * test_siconos_fc.c) by the largest of the norm its solver passes (||q||_2) and ||u||_2; Siconos' tolerance
 * is ours times the checker's scale over max(1, ||q||_2), so its success implies ours whenever
 * ||u||_2 <= max(1, ||q||_2) — otherwise our checker overrules a claim (numerical_failure, said so).
 * Timing: W (column-major dense), q, mu and the problem are built in setup, before the harness's clock; the
 * reported time is the driver call alone. Time limit: Siconos cannot be interrupted, so with
 * -cp_time_limit > 0 the call runs in a child forked per solve and killed at the limit (the reaction and
 * Siconos' outputs come back through shared memory); timings are taken in process (-cp_time_limit 0). */
/* MAP_ANONYMOUS (shared memory for the forked call) is not in XSI 7, which the build selects. */
#define _DEFAULT_SOURCE
#include "siconos_call.h"
#include "solver.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <numerics/FrictionContactProblem.h>
#include <numerics/Friction_cst.h>
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
struct sfc_out {
  int info, fatal, iterations;
  double residu, seconds;
  char fatal_msg[160];
  double rw[]; /* r, u (n each) */
};

struct sfc_data {
  int id3, id2;    /* Siconos solver ids for d = 3 and d = 2 (-1: none) */
  int show_stderr; /* -siconos_stderr (shared with the other backends) */
  const struct cp_problem *prepared;
  int n, cap;
  FrictionContactProblem *fp; /* W dense column-major, q, mu: Siconos' copies */
  double tol_s;
  struct sfc_out *out; /* mmap'd (MAP_SHARED): seen by a forked child */
  size_t out_bytes;
};

static const struct option_decl sfc_options[] = {
    {"stderr", OPT_BOOL, offsetof(struct sfc_data, show_stderr), "0", NULL,
     "let Siconos' own stderr messages through"},
};

static int sfc_create_with(struct solver *s, int id3, int id2)
{
  struct sfc_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->id3 = id3;
  d->id2 = id2;
  s->data = d;
  numerics_set_verbose(0);
  return 0;
}

static int sfc_nsgs_create(struct solver *s)
{
  return sfc_create_with(s, SICONOS_FRICTION_3D_NSGS, SICONOS_FRICTION_2D_NSGS);
}
static int sfc_ac_create(struct solver *s) { return sfc_create_with(s, SICONOS_FRICTION_3D_NSN_AC, -1); }
static int sfc_fb_create(struct solver *s) { return sfc_create_with(s, SICONOS_FRICTION_3D_NSN_FB, -1); }
static int sfc_admm_create(struct solver *s) { return sfc_create_with(s, SICONOS_FRICTION_3D_ADMM, -1); }
static int sfc_eg_create(struct solver *s) { return sfc_create_with(s, SICONOS_FRICTION_3D_VI_EG, -1); }

static void sfc_release(struct sfc_data *d)
{
  if (d->fp) frictionContactProblem_free(d->fp); /* frees its M, q, mu */
  d->fp = NULL;
  if (d->out) munmap(d->out, d->out_bytes);
  d->out = NULL;
  d->cap = 0;
  d->prepared = NULL;
}

/* Siconos' copy of p: its own W (dense, column-major), q and mu, freed with the problem. */
static FrictionContactProblem *sfc_problem(const struct cp_problem *p)
{
  int n = p->n, nc = n / p->fc_dim;
  FrictionContactProblem *fp = frictionContactProblem_new();
  if (!fp) return NULL;
  fp->dimension = p->fc_dim;
  fp->numberOfContacts = nc;
  fp->M = NM_create(NM_DENSE, n, n); /* the problem owns these: frictionContactProblem_free frees them */
  fp->q = malloc((size_t)n * sizeof *fp->q);
  fp->mu = malloc((size_t)nc * sizeof *fp->mu);
  if (!fp->M || !fp->q || !fp->mu) {
    frictionContactProblem_free(fp);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      fp->M->matrix0[i + (size_t)j * n] = p->M[(size_t)i * n + j];
  memcpy(fp->q, p->q, (size_t)n * sizeof *fp->q);
  memcpy(fp->mu, p->mu, (size_t)nc * sizeof *fp->mu);
  return fp;
}

static int sfc_setup(struct solver *s, const struct cp_problem *p)
{
  struct sfc_data *d = s->data;
  int n = p->n;
  sfc_release(d);
  if (p->kind != CP_FC || n <= 0) return 0;
  d->out_bytes = sizeof(struct sfc_out) + 2 * (size_t)n * sizeof(double);
  void *m = mmap(NULL, d->out_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  d->out = m == MAP_FAILED ? NULL : m;
  d->fp = sfc_problem(p);
  if (!d->out || !d->fp) {
    sfc_release(d);
    return 1;
  }
  double q2 = 0.0;
  for (int i = 0; i < n; i++)
    q2 += p->q[i] * p->q[i];
  d->tol_s = s->set.tol * cp_scale(p, NULL) / fmax(1.0, sqrt(q2));
  d->n = n;
  d->cap = n;
  d->prepared = p;
  return 0;
}

static SolverOptions *sfc_options_make(const struct sfc_data *d, int id, int max_it)
{
  return siconos_options_make(id, d->tol_s, max_it);
}

struct sfc_args {
  FrictionContactProblem *fp;
  double *r, *u;
  SolverOptions *o;
};

static int sfc_call(void *args)
{
  struct sfc_args *a = args;
  return a->fp->dimension == 3 ? fc3d_driver(a->fp, a->r, a->u, a->o) : fc2d_driver(a->fp, a->r, a->u, a->o);
}

/* One Siconos solve from r (in d->out->rw) into d->out. */
static void sfc_run(struct sfc_data *d, int id, int max_it)
{
  struct sfc_out *out = d->out;
  SolverOptions *o = sfc_options_make(d, id, max_it);
  out->fatal = 0;
  out->fatal_msg[0] = '\0';
  if (!o) {
    out->fatal = 1;
    snprintf(out->fatal_msg, sizeof out->fatal_msg, "out of memory creating the Siconos options");
    return;
  }
  int fatal = 0;
  double t0 = solver_wall_time();
  struct sfc_args args = {d->fp, out->rw, out->rw + d->n, o};
  out->info = siconos_guarded_call(sfc_call, &args, !d->show_stderr, &fatal);
  out->seconds = solver_wall_time() - t0;
  out->fatal = fatal;
  if (fatal) snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", sn_fatal_error_msg());
  out->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
  out->residu = o->dparam[SICONOS_DPARAM_RESIDU];
  siconos_options_free(o);
}

struct sfc_work {
  struct sfc_data *d;
  int id, max_it;
};

static void sfc_work(void *arg)
{
  const struct sfc_work *w = arg;
  sfc_run(w->d, w->id, w->max_it);
}

/* The status of a finished call; a claim of convergence is the harness's to check. */
static void sfc_status(const struct solver *s, int id, struct solve_result *r)
{
  const struct sfc_data *d = s->data;
  const struct sfc_out *out = d->out;
  if (out->fatal) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "Siconos fatal error: %.130s", out->fatal_msg);
    return;
  }
  if (out->info == 0) {
    r->status = SOLVE_CONVERGED;
    return;
  }
  int max_it = s->set.max_it;
  if (max_it <= 0) {
    SolverOptions *o = sfc_options_make(d, id, 0);
    max_it = o ? o->iparam[SICONOS_IPARAM_MAX_ITER] : -1;
    siconos_options_free(o);
  }
  r->status = out->iterations >= max_it ? SOLVE_MAX_ITERATIONS : SOLVE_NUMERICAL_FAILURE;
  snprintf(r->message, sizeof r->message, "Siconos info %d after %d of %d iterations, its error %.3g > %.3g",
           out->info, out->iterations, max_it, out->residu, d->tol_s);
}

static int sfc_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct sfc_data *d = s->data;
  int n = p->n, id = p->fc_dim == 3 ? d->id3 : d->id2;
  if (p->fc_relaxed) { /* Siconos' SOCLCP (soclcp_driver) is this problem, but 4.4's packages do not install
                        * its header: no backend here */
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message,
             "%s solves Coulomb's law (De Saxce's term), not the cone complementarity relaxation",
             s->type->name);
    return 0;
  }
  if (id < 0) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "%s: Siconos 4.4 has no %dD form of this method", s->type->name,
             p->fc_dim);
    return 0;
  }
  if (n == 0) {
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  if ((d->prepared != p || d->n != n) && sfc_setup(s, p) != 0) return 1;
  if (!d->out || !d->fp) return 1;
  memcpy(d->out->rw, z, (size_t)n * sizeof *z); /* the harness's initial point (cold: 0) */
  memset(d->out->rw + n, 0, (size_t)n * sizeof *z);
  int wstatus = 0, rc = 0;
  struct sfc_work w = {d, id, s->set.max_it};
  if (s->set.time_limit > 0.0)
    rc = siconos_run_forked(s, sfc_work, &w, &wstatus);
  else
    sfc_run(d, id, s->set.max_it);
  if (rc == 1) {
    r->status = SOLVE_TIME_LIMIT;
    snprintf(r->message, sizeof r->message, "Siconos call killed at the time limit %g s (-cp_time_limit)",
             s->set.time_limit);
    return 0; /* z stays the initial point: the last iterate is not known */
  }
  if (rc == 2) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (WIFSIGNALED(wstatus))
      snprintf(r->message, sizeof r->message, "Siconos died on signal %d", WTERMSIG(wstatus));
    else
      snprintf(r->message, sizeof r->message, "Siconos could not be run in a child process");
    return 0;
  }
  r->call_seconds = d->out->seconds;
  r->iterations = d->out->iterations;
  memcpy(z, d->out->rw, (size_t)n * sizeof *z); /* the last iterate, whatever the outcome */
  sfc_status(s, id, r);
  return 0;
}

static void sfc_destroy(struct solver *s)
{
  struct sfc_data *d = s->data;
  if (d) sfc_release(d);
  free(s->data);
  s->data = NULL;
}

static void sfc_view(const struct solver *s, FILE *out)
{
  const struct sfc_data *d = s->data;
  fprintf(out, "  Siconos numerics solver id %d (%s)", d->id3, solver_options_id_to_name(d->id3));
  if (d->id2 >= 0) fprintf(out, ", 2D: %d (%s)", d->id2, solver_options_id_to_name(d->id2));
  fprintf(out, "\n");
}

#define SFC_TYPE(NAME, CREATE, SUMMARY)                                                                      \
  const struct solver_type solver_type_##NAME = {                                                            \
      .name = #NAME,                                                                                         \
      .summary = (SUMMARY),                                                                                  \
      .kinds = CP_FC,                                                                                        \
      .options = sfc_options,                                                                                \
      .n_options = (int)(sizeof sfc_options / sizeof sfc_options[0]),                                        \
      .option_prefix = "siconos_",                                                                           \
      .create = (CREATE),                                                                                    \
      .setup = sfc_setup,                                                                                    \
      .solve = sfc_solve,                                                                                    \
      .destroy = sfc_destroy,                                                                                \
      .view = sfc_view,                                                                                      \
  }

SFC_TYPE(siconos_fc_nsgs, sfc_nsgs_create, "Siconos nonsmooth Gauss-Seidel on the Coulomb cones (3D, 2D)");
SFC_TYPE(siconos_fc_nsn_ac, sfc_ac_create, "Siconos semismooth Newton on Alart-Curnier (3D)");
SFC_TYPE(siconos_fc_nsn_fb, sfc_fb_create, "Siconos semismooth Newton on Fischer-Burmeister for SOC (3D)");
SFC_TYPE(siconos_fc_admm, sfc_admm_create, "Siconos ADMM on the Coulomb cones (3D)");
SFC_TYPE(siconos_fc_vi_eg, sfc_eg_create, "Siconos extra-gradient on the VI form (3D)");
