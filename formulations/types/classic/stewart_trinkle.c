/* stewart_trinkle.c — the Stewart-Trinkle (1996) LCP as written by Egan, Berard & Trinkle eqs. 5-7:
 *   z = [p_n; p_f; s],  M = [Wn'M^-1Wn  Wn'M^-1Wf  0; Wf'M^-1Wn  Wf'M^-1Wf  E; U  -E'  0],
 *   q = [Wn'(nu + M^-1 p_ext) + psi/h; Wf'(nu + M^-1 p_ext); 0],  p_ext = h k,
 * one normal row per current or potential contact (gap psi within the detection threshold; psi/h is the
 * constraint stabilisation), k friction directions per contact (2 in 2D: +t, -t; -friction_dirs in 3D)
 * spanning a polyhedral cone, and the slack s (~ sliding speed). Recovery: eq. 3,
 * nu+ = nu + M^-1 (Wn p_n + Wf p_f + h k).
 * -stewart_trinkle_penetration_correction beta in [0, 1] (default 1 = Egan's full psi/h): a penetrating
 * contact (psi < 0) uses beta psi / h. With beta = 0 every Delta >= 0, the case in which Anitescu-Potra
 * guarantee a solution (Lemke processes it); with beta > 0 overlapping piles can yield LCPs on which
 * Lemke ends on a ray even though their frictionless part is solvable.
 * -stewart_trinkle_detection closest|paper (default closest): the contacts, closest features within the
 * threshold (world_detect), or the PEG paper's experiments' standard model (stewart_trinkle_paper.c).
 * -stewart_trinkle_frictionless 1 (default 0): when every contact of the step has mu = 0, the friction and
 * slack unknowns are left out and the LCP is the frictionless standard model of Williams, Lu & Trinkle
 * eqs. 8-9 (one row per contact). With mu = 0 the cone row forces beta = 0, so the solution set is the
 * same; only the problem size changes, which is what a cost comparison with frictionless PEG needs. */
#include "stewart_trinkle.h"

#include "bounded_block.h"
#include "classic.h"
#include "formulation.h"
#include "jacobian.h"
#include "joint_block.h"
#include "world_detect.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct st_data {
  struct jcol *col; /* nc normal columns, then k friction columns per contact */
  int cap, nc, k;
  double *nu_free, *work;
  int ndof;
  double correction;
  int detection;              /* 0: closest features (world_detect), 1: the paper's experiments' model */
  double paper_eps;           /* the paper model's distance [m] */
  int frictionless;           /* 1: no friction/slack rows when every contact has mu = 0 */
  struct joint_block joints;  /* bilateral joints: the free block in front of the LCP (joint_block.h) */
  struct bounded_block drive; /* support friction and motors: friction groups of known bound */
  int ncol;                   /* velocity columns: contacts' and the groups' */
  const struct jcol **dir;    /* per LCP row / unknown: its column, NULL for the slack rows */
  int cap_dir;
};

static int st_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct st_data));
  return f->data ? 0 : 1;
}

/* Also corrective's (it assembles with this formulation's state). */
const struct option_decl stewart_trinkle_options[STEWART_TRINKLE_N_OPTIONS] = {
    {"stewart_trinkle_penetration_correction", OPT_REAL, offsetof(struct st_data, correction), "1", "[0,1]",
     "beta: a penetrating contact's row uses beta psi / h (1: Egan's full psi/h; 0: Anitescu-Potra's case)"},
    {"stewart_trinkle_detection", OPT_CHOICE, offsetof(struct st_data, detection), "closest", "closest|paper",
     "contacts: closest features within the threshold, or the PEG paper's standard model (every vertex "
     "against every edge / face near its line / plane)"},
    {"stewart_trinkle_paper_distance", OPT_REAL, offsetof(struct st_data, paper_eps), "0.07", "(0,inf)",
     "-stewart_trinkle_detection paper: |signed distance| to the line / plane and overshoot of the "
     "projection past the segment / face allowed [m]"},
    {"stewart_trinkle_frictionless", OPT_BOOL, offsetof(struct st_data, frictionless), "0", NULL,
     "when every contact has mu = 0, leave out the friction and slack rows (the frictionless standard "
     "model, eqs. 8-9 of the PEG paper)"},
};

/* Closest features through the shared detector (what the stepper does without a hook), or the paper's. */
static int st_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs)
{
  const struct st_data *d = f->data;
  (void)h;
  int rc = d->detection == 1 ? stewart_trinkle_paper_detect(w, d->paper_eps, cs)
                             : world_detect(w, f->threshold >= 0.0 ? f->threshold : w->threshold, cs);
  return rc ? formulation_fail(f, "contact detection failed (out of memory or an unsupported pair)") : 0;
}

static void st_destroy(struct formulation *f)
{
  struct st_data *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->dir);
  joint_block_free(&d->joints);
  bounded_block_free(&d->drive);
  free(d->nu_free);
  free(d->work);
  free(d);
  f->data = NULL;
}

int classic_reserve(struct classic_columns c, int ncol, int ndof)
{
  if (ncol > *c.cap) {
    struct jcol *col = realloc(*c.col, (size_t)ncol * sizeof *col);
    if (!col) return 1;
    *c.col = col;
    *c.cap = ncol;
  }
  if (ndof != *c.ndof || !*c.nu_free) {
    free(*c.nu_free);
    free(*c.work);
    *c.nu_free = malloc(((size_t)ndof + 1) * sizeof **c.nu_free);
    *c.work = malloc(((size_t)ndof + 1) * sizeof **c.work);
    if (!*c.nu_free || !*c.work) return 1;
    *c.ndof = ndof;
  }
  return 0;
}

static int st_reserve(struct st_data *d, int ncol, int ndof)
{
  return classic_reserve((struct classic_columns){&d->col, &d->cap, &d->nu_free, &d->work, &d->ndof}, ncol,
                         ndof);
}

/* Joints: the LCP's first ncol rows and unknowns are [p_n; p_f] along their own columns, the slack rows
 * have no velocity (joint_block.h). */
static int st_wrap_joints(struct st_data *d, const struct world *w, double h, int ncol, int m,
                          struct cp_problem **p)
{
  if (w->nj == 0) {
    d->joints.nj = 0;
    return 0;
  }
  if (m > d->cap_dir) {
    const struct jcol **dir = realloc(d->dir, (size_t)m * sizeof(const struct jcol *));
    if (!dir) {
      cp_destroy(p);
      return 1;
    }
    d->dir = dir;
    d->cap_dir = m;
  }
  for (int r = 0; r < m; r++)
    d->dir[r] = r < ncol ? &d->col[r] : NULL;
  const struct jcol *const *dir = d->dir;
  return joint_block_wrap(&d->joints, w, h, d->nu_free, dir, NULL, dir, p);
}

/* The LCP's rows over the velocity columns [p_n; p_f; beta_g] (W'M^-1W and W'nu_free), their couplings
 * to the slack rows (E) and the slack rows themselves: a contact's mu p_n - E'p_f, a group's B - sum beta. */
static void st_fill(const struct st_data *d, const struct contact_set *cs, double h, int frictionless,
                    struct cp_problem *p)
{
  const int nc = d->nc, k = d->k, ncolc = nc * (1 + k), ncol = d->ncol, n = p->n;
  const int group_row = ncol + (frictionless ? 0 : nc);
  for (int r = 0; r < ncol; r++) {
    double *row = p->M + (size_t)r * n;
    for (int c = 0; c < ncol; c++)
      row[c] = jcol_dot_minv(&d->col[r], &d->col[c]);
    p->q[r] = jcol_dot(&d->col[r], d->nu_free);
    if (r < nc)
      p->q[r] += (cs->c[r].gap < 0.0 ? d->correction : 1.0) * cs->c[r].gap / h;
    else if (r < ncolc)
      row[ncol + (r - nc) / k] = 1.0; /* E */
    else {
      p->q[r] += d->drive.offset[r - ncolc];
      row[group_row + d->drive.group[r - ncolc]] = 1.0;
    }
  }
  for (int i = 0; i < nc && !frictionless; i++) {
    double *row = p->M + (size_t)(ncol + i) * n;
    row[i] = cs->c[i].mu; /* U */
    for (int l = 0; l < k; l++)
      row[nc + i * k + l] = -1.0; /* -E' */
    p->q[ncol + i] = 0.0;
  }
  for (int c = 0; c < d->drive.ncol; c++)
    p->M[(size_t)(group_row + d->drive.group[c]) * n + ncolc + c] = -1.0;
  for (int g = 0; g < d->drive.ngroup; g++)
    p->q[group_row + g] = d->drive.bound[g];
}

static int st_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       struct cp_problem **out)
{
  struct st_data *d = f->data;
  int nc = cs->n, k = w->dim == 2 ? 2 : f->friction_dirs;
  int frictionless = d->frictionless;
  for (int i = 0; i < nc && frictionless; i++)
    frictionless = cs->c[i].mu == 0.0;
  if (frictionless) k = 0;
  *out = NULL;
  if (bounded_block_build(&d->drive, w, h)) return formulation_fail(f, "out of memory assembling the motors");
  const int ncolc = nc * (1 + k), ncol = ncolc + d->drive.ncol;
  const int n = ncol + (frictionless ? 0 : nc) + d->drive.ngroup;
  if (st_reserve(d, ncol > 0 ? ncol : 1, w->ndof))
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  d->nc = nc;
  d->k = k;
  d->ncol = ncol;
  jacobian_free_velocity(w, h, d->nu_free, d->work);
  double dirs[3 * 16];
  if (k > 16) return formulation_fail(f, "%d friction directions (at most 16)", k);
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    jcol_contact(w, c, c->n, &d->col[i]);
    formulation_tangents(w->dim, c->n, k, dirs);
    for (int l = 0; l < k; l++)
      jcol_contact(w, c, dirs + 3 * l, &d->col[nc + i * k + l]);
  }
  if (d->drive.ncol) memcpy(d->col + ncolc, d->drive.col, (size_t)d->drive.ncol * sizeof *d->col);
  struct cp_problem *p = cp_lcp_create(n > 0 ? n : 1);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  if (n == 0) {
    /* No contacts: a trivial 1x1 LCP (z = 0) keeps the pipeline uniform. */
    p->M[0] = 1.0;
    p->q[0] = 0.0;
  }
  st_fill(d, cs, h, frictionless, p);
  snprintf(p->name, sizeof p->name, "stewart_trinkle nc=%d k=%d", nc, k);
  if (st_wrap_joints(d, w, h, ncol, p->n, &p))
    return formulation_fail(f, "out of memory assembling %d joints", w->nj);
  f->rows = (struct row_counts){.normal = nc,
                                .friction = nc * k + d->drive.ncol,
                                .slack = (frictionless ? 0 : nc) + d->drive.ngroup,
                                .joint = d->joints.nj,
                                .total = p->n};
  *out = p;
  return 0;
}

static int st_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z, double *nu, double *pn)
{
  const struct st_data *d = f->data;
  (void)h;
  int nc = cs->n, ncol = d->ncol, nj = d->joints.nj;
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->nu_free[i];
  joint_block_recover(&d->joints, z, nu);
  for (int c = 0; c < ncol; c++)
    jcol_axpy_minv(&d->col[c], z[nj + c], nu);
  for (int i = 0; i < nc; i++)
    pn[i] = z[nj + i];
  return 0;
}

/* The groups' columns come after the contacts' (st_assemble), each with its unknown beta_k. */
static void st_drive_impulse(struct formulation *f, const struct world *w, const double *z, double *g)
{
  const struct st_data *d = f->data;
  const int ncolc = d->ncol - d->drive.ncol, nj = d->joints.nj;
  memset(g, 0, (size_t)w->ndof * sizeof *g);
  for (int c = ncolc; c < d->ncol; c++)
    jcol_axpy(&d->col[c], z[nj + c], g);
}

static void st_view(const struct formulation *f, FILE *out)
{
  const struct st_data *d = f->data;
  fprintf(out, "  friction directions (3D) %d, penetration correction %g, detection %s%s", f->friction_dirs,
          d->correction, d->detection ? "paper" : "closest",
          d->frictionless ? ", frictionless when every mu = 0" : "");
  if (d->detection) fprintf(out, " (distance %g m)", d->paper_eps);
  fprintf(out, "\n");
}

const struct formulation_type formulation_type_stewart_trinkle = {
    .name = "stewart_trinkle",
    .summary = "velocity-level LCP with polyhedral friction cone; any contact mix; joints as a mixed LCP",
    .paper = "Stewart & Trinkle 1996 as in Egan, Berard & Trinkle eqs. 3-7",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .drives = FORMULATION_2D | FORMULATION_3D,
    .options = stewart_trinkle_options,
    .n_options = STEWART_TRINKLE_N_OPTIONS,
    .create = st_create,
    .assemble = st_assemble,
    .recover = st_recover,
    .drive_impulse = st_drive_impulse,
    .detect = st_detect,
    .destroy = st_destroy,
    .view = st_view,
};
