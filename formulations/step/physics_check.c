/* physics_check.c — formulation-independent physics checks of a step (physics_check.h; the common
 * criteria of ContactBench, Le Lidec et al. 2024, Sec. 4: penetration, Signorini, Coulomb cone, maximum
 * dissipation, energy).
 *
 * Tangential impulses. Formulations report normal impulses only (their recover hook), and their friction
 * unknowns have layouts of their own (pyramid directions, cone slacks, PEG's edge rows), so reading z would
 * make this code formulation-specific. Instead the friction is what the momentum balance leaves over:
 *   nu+ - nu_free - sum_i p_n,i M^-1 W_n,i - M^-1 g = sum_i M^-1 W_t,i lambda_t,i + M^-1 W_j lambda_j,
 * g the drives' impulse (support friction and motors, reported by the formulation as p_n is: left in the
 * fit, a 2.5D part's support friction and a jaw's motor would be read as the contacts' friction),
 * solved in the least-squares, minimum-weighted-norm sense (LAPACK dgelsd) with each contact's tangential
 * unknowns weighted by mu p_n,i + eps p_ref (min sum |lambda_t,i|^2 / w_i): among the distributions that
 * explain the motion (several when contacts are redundant, e.g. a box on four corners) the one closest to
 * every cone is taken, so a violation reported is one no distribution of the same motion avoids (up to that
 * L2 choice). Motion the contacts cannot explain stays in the residual (physics_step.fit). */
#include "physics_check.h"

#include "formulation.h"
#include "jacobian.h"
#include "world_detect.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const physics_check_names[PHYSICS_N_CHECKS] = {"penetration", "signorini", "coulomb",
                                                           "dissipation", "energy_gain"};

/* Weight of a contact without normal impulse, relative to the largest one: small, so friction lands on
 * contacts that push, yet nonzero so the least-squares problem keeps full column scale. */
static const double EPS_WEIGHT = 1e-9;
/* Singular values under RCOND times the largest are dropped: coplanar contacts (a face on a face) make
 * the tangential columns rank-deficient only up to round-off in the contact points, and fitting that
 * round-off would invent large self-cancelling friction. Columns of contacts without normal impulse sit
 * at sqrt(EPS_WEIGHT) ~ 3e-5 of the others, well above it. */
static const double RCOND = 1e-8;

/* Orthonormal tangents of n: 1 in 2D, 2 in 3D (the same deterministic basis as the formulations'). */
static int tangents(int dim, const double n[3], double t[2][3])
{
  double dirs[12];
  formulation_tangents(dim, n, dim == 2 ? 2 : 4, dirs); /* 3D: the first two of four are t1, t2 */
  memcpy(t[0], dirs, 3 * sizeof(double));
  memcpy(t[1], dirs + 3, 3 * sizeof(double));
  return dim == 2 ? 1 : 2;
}

/* Dense column (ndof) of the sparse M^-1 W column. */
static void dense_minv(const struct jcol *c, int ndof, double *out)
{
  memset(out, 0, (size_t)ndof * sizeof *out);
  jcol_axpy_minv(c, 1.0, out);
}

/* Recovers lambda_t (cs->n x 2 entries; the second zero in 2D) from the momentum balance; *fit gets the
 * relative residual. */
static int recover_tangential(const struct world *w0, const struct contact_set *cs, const double *pn,
                              const double *drive, const double *nu, double h, double *lt, double *fit)
{
  const int nd = w0->ndof, nc = cs->n, nt = w0->dim == 2 ? 1 : 2, nj = jacobian_joint_rows(w0);
  const int m = nc * nt + nj, ldb = nd > m ? nd : m;
  int rc = 1;
  *fit = 0.0;
  memset(lt, 0, 2 * (size_t)nc * sizeof *lt);
  if (nd == 0 || m == 0) return 0;
  double *A = calloc((size_t)nd * (size_t)m, sizeof *A), *b = calloc((size_t)ldb, sizeof *b);
  double *scale = calloc((size_t)m, sizeof *scale), *sv = malloc((size_t)(nd < m ? nd : m) * sizeof *sv);
  double *work = malloc((size_t)nd * sizeof *work);
  struct jcol *jc = nj ? malloc((size_t)nj * sizeof *jc) : NULL;
  double *phi = nj ? malloc((size_t)nj * sizeof *phi) : NULL;
  if (!A || !b || !scale || !sv || !work || (nj && (!jc || !phi))) goto cleanup;
  /* b = nu+ - nu_free - sum p_n M^-1 W_n */
  jacobian_free_velocity(w0, h, work, b);
  for (int k = 0; k < nd; k++)
    b[k] = nu[k] - work[k];
  if (drive) { /* the drives' impulse is the formulation's answer, not something to fit */
    world_apply_inverse_mass(w0, drive, work);
    for (int k = 0; k < nd; k++)
      b[k] -= work[k];
  }
  double b_norm = 0.0, p_ref = 0.0;
  for (int k = 0; k < nd; k++)
    b_norm += b[k] * b[k];
  b_norm = sqrt(b_norm);
  for (int i = 0; i < nc; i++) {
    struct jcol col;
    jcol_contact(w0, &cs->c[i], cs->c[i].n, &col);
    jcol_axpy_minv(&col, -pn[i], b);
    p_ref = fmax(p_ref, pn[i]);
  }
  if (!(p_ref > 0.0)) p_ref = 1.0;
  for (int i = 0; i < nc; i++) {
    double t[2][3];
    tangents(w0->dim, cs->c[i].n, t);
    for (int k = 0; k < nt; k++) {
      struct jcol col;
      int j = i * nt + k;
      jcol_contact(w0, &cs->c[i], t[k], &col);
      /* sqrt: the minimum of sum lambda^2 / s puts lambda_i in proportion to s_i (parallel columns, e.g.
       * two corners on one face, share friction at one cone ratio) */
      scale[j] = sqrt(cs->c[i].mu * fmax(pn[i], 0.0) + EPS_WEIGHT * p_ref);
      dense_minv(&col, nd, A + (size_t)j * nd);
    }
  }
  if (nj) jacobian_joint_columns(w0, jc, phi);
  for (int r = 0; r < nj; r++) {
    scale[nc * nt + r] = sqrt(p_ref);
    dense_minv(&jc[r], nd, A + (size_t)(nc * nt + r) * nd);
  }
  for (int j = 0; j < m; j++)
    for (int k = 0; k < nd; k++)
      A[(size_t)j * nd + k] *= scale[j];
  double *A0 = malloc((size_t)nd * (size_t)m * sizeof *A0), *b0 = malloc((size_t)nd * sizeof *b0);
  if (!A0 || !b0) {
    free(A0);
    free(b0);
    goto cleanup;
  }
  memcpy(A0, A, (size_t)nd * (size_t)m * sizeof *A);
  memcpy(b0, b, (size_t)nd * sizeof *b);
  lapack_int rank = 0;
  lapack_int info = LAPACKE_dgelsd(LAPACK_COL_MAJOR, nd, m, 1, A, nd, b, ldb, sv, RCOND, &rank);
  if (info == 0) {
    /* residual of the fit, relative to the velocity change to explain */
    double res = 0.0;
    for (int k = 0; k < nd; k++) {
      double s = -b0[k];
      for (int j = 0; j < m; j++)
        s += A0[(size_t)j * nd + k] * b[j];
      res += s * s;
    }
    *fit = b_norm > 1e-300 ? sqrt(res) / b_norm : 0.0;
    for (int i = 0; i < nc; i++)
      for (int k = 0; k < nt; k++)
        lt[2 * i + k] = scale[i * nt + k] * b[i * nt + k];
    rc = 0;
  }
  free(A0);
  free(b0);
cleanup:
  free(A);
  free(b);
  free(scale);
  free(sv);
  free(work);
  free(jc);
  free(phi);
  return rc;
}

/* Work of the applied forces and torques (kept in the bodies, beside gravity, which the potential energy
 * holds) over the step: the positions move by h nu+, so W = h sum_b (f . v+ + tau . omega+); and of the
 * drives' impulse g (a motor adds energy lawfully, support friction takes it out): g . nu+. */
static double applied_work(const struct world *w, const double *drive, const double *nu, double h)
{
  double W = 0.0, Wd = 0.0;
  for (int k = 0; drive && k < w->ndof; k++)
    Wd += drive[k] * nu[k];
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->dof < 0) continue;
    const double *v = nu + b->dof;
    if (w->dim == 2)
      W += b->f[0] * v[0] + b->f[1] * v[1] + b->tau[2] * v[2];
    else
      for (int k = 0; k < 3; k++)
        W += b->f[k] * v[k] + b->tau[k] * v[3 + k];
  }
  return h * W + Wd;
}

int physics_check_step(const struct world *w0, const struct world *w1, const struct contact_set *cs,
                       const double *pn, const double *drive, const double *nu, double h,
                       struct physics_step *out)
{
  memset(out, 0, sizeof *out);
  struct contact_set after = {0};
  if (world_detect(w1, 0.0, &after)) {
    char why[240];
    /* an unsupported pair of shapes is said where the check reports, never skipped silently */
    if (world_detect_explain(w1, why, sizeof why)) fprintf(stderr, "physics check: penetration: %s\n", why);
    contact_set_free(&after);
    return 1;
  }
  out->v[0] = contact_set_max_penetration(&after);
  contact_set_free(&after);
  out->v[4] = fmax(world_energy(w1) - world_energy(w0) - applied_work(w0, drive, nu, h), 0.0);
  if (cs->n == 0) return 0;
  double *lt = malloc(2 * (size_t)cs->n * sizeof *lt);
  if (!lt) return 1;
  if (recover_tangential(w0, cs, pn, drive, nu, h, lt, &out->fit)) {
    free(lt);
    return 1;
  }
  const int nt = w0->dim == 2 ? 1 : 2;
  for (int i = 0; i < cs->n; i++) {
    const struct contact *c = &cs->c[i];
    const double p = pn[i];
    struct jcol col;
    jcol_contact(w0, c, c->n, &col);
    const double vn = jcol_dot(&col, nu);
    double t[2][3], vt[2] = {0.0, 0.0}, lt_norm = 0.0, vt_norm = 0.0, power = 0.0;
    tangents(w0->dim, c->n, t);
    for (int k = 0; k < nt; k++) {
      jcol_contact(w0, c, t[k], &col);
      vt[k] = jcol_dot(&col, nu);
      lt_norm += lt[2 * i + k] * lt[2 * i + k];
      vt_norm += vt[k] * vt[k];
      power += lt[2 * i + k] * vt[k];
    }
    lt_norm = sqrt(lt_norm);
    vt_norm = sqrt(vt_norm);
    const double pp = fmax(p, 0.0);
    out->v[1] = fmax(out->v[1], pp * fmax(c->gap / h + vn, 0.0));
    out->v[2] = fmax(out->v[2], lt_norm - c->mu * pp);
    out->v[3] = fmax(out->v[3], power + c->mu * pp * vt_norm);
  }
  free(lt);
  return 0;
}

/* ---- the run-loop observer ---- */

/* Each (half) step the stepper keeps is checked on its own (stepper_on_substep): its start state, contacts,
 * impulses and length belong together, where a halved step's whole state change and its last half's
 * impulses do not. A step's values: the worst of its halves for each check, the sum of their energy gains
 * (one (half) step for a step not halved: that step's). */
struct physics_ctx {
  struct run_physics_stats *out;
  const struct simulation *sim;
  double sum[PHYSICS_N_CHECKS];
  struct physics_step last; /* the step's values so far */
  int halves;               /* (half) steps checked in this step */
  int have_last;
};

enum { ENERGY_GAIN = 4 }; /* the index of energy_gain in physics_check_names */

static int phys_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)sim, (void)h, (void)steps;
  struct physics_ctx *c = vctx;
  memset(c->out, 0, sizeof *c->out);
  memset(c->sum, 0, sizeof c->sum);
  c->have_last = 0;
  return RUN_CONTINUE;
}

static int phys_substep(void *vctx, const struct body *start, int nb, double h, const struct step_record *rec)
{
  (void)rec;
  struct physics_ctx *c = vctx;
  if (!start) { /* the stepper takes the step again (its fallback solver): what it reported is not kept */
    c->halves = 0;
    return 0;
  }
  const struct simulation *sim = c->sim;
  struct world w0 = *sim->w;        /* the same shapes; the bodies as the (half) step found them */
  w0.bodies = (struct body *)start; /* read only: physics_check_step takes w0 const */
  w0.nb = nb;
  struct physics_step one;
  if (physics_check_step(&w0, sim->w, stepper_contacts(sim->st), stepper_impulses(sim->st),
                         stepper_drive_impulse(sim->st), stepper_velocity(sim->st), h, &one))
    return 1;
  for (int j = 0; j < PHYSICS_N_CHECKS; j++)
    c->last.v[j] = c->halves == 0     ? one.v[j]
                   : j == ENERGY_GAIN ? c->last.v[j] + one.v[j]
                                      : fmax(c->last.v[j], one.v[j]);
  c->last.fit = c->halves == 0 ? one.fit : fmax(c->last.fit, one.fit);
  c->halves++;
  return 0;
}

static int phys_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)k, (void)h;
  struct physics_ctx *c = vctx;
  c->sim = sim;
  c->halves = 0;
  stepper_on_substep(sim->st, phys_substep, c); /* for this step only: phys_after unhooks */
  return RUN_CONTINUE;
}

static int phys_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct physics_ctx *c = vctx;
  stepper_on_substep(sim->st, NULL, NULL);
  c->have_last = 0;
  if (!rec->advanced || c->halves == 0) return RUN_CONTINUE;
  c->have_last = 1;
  struct run_physics_stats *out = c->out;
  out->steps++;
  for (int j = 0; j < PHYSICS_N_CHECKS; j++) {
    out->max[j] = fmax(out->max[j], c->last.v[j]);
    c->sum[j] += c->last.v[j];
    out->mean[j] = c->sum[j] / (double)out->steps;
  }
  out->fit_max = fmax(out->fit_max, c->last.fit);
  return RUN_CONTINUE;
}

static void phys_values(void *vctx, double *v)
{
  const struct physics_ctx *c = vctx;
  for (int j = 0; j < PHYSICS_N_CHECKS; j++)
    v[j] = c->have_last ? c->last.v[j] : NAN;
}

static void phys_destroy(void *vctx) { free(vctx); }

int run_observer_physics(struct run_observer *o, struct run_physics_stats *out)
{
  memset(o, 0, sizeof *o);
  memset(out, 0, sizeof *out);
  struct physics_ctx *c = calloc(1, sizeof *c);
  if (!c) return 1;
  c->out = out;
  *o = (struct run_observer){.name = "physics",
                             .ctx = c,
                             .begin = phys_begin,
                             .before_step = phys_before,
                             .after_step = phys_after,
                             .destroy = phys_destroy,
                             .columns = PHYSICS_TRACE_COLUMNS,
                             .n_columns = PHYSICS_N_CHECKS,
                             .values = phys_values};
  return 0;
}
