/* anitescu_potra.c — the mixed LCP of Anitescu-Hart eq. 6 (Anitescu & Potra 1997): unknowns
 *   [v; c_nu | c_n; beta; lambda], the first block free (velocities and bilateral joint impulses):
 *   M v - nu~ c_nu - n~ c_n - D~ beta - (M v_l + h k) = 0
 *   nu~' v + Phi/h                                  = 0     (joints; Phi/h: drift stabilisation)
 *   n~' v + Delta   >= 0  perp c_n >= 0                     (Delta = psi / h)
 *   D~' v + E lambda >= 0  perp beta >= 0
 *   mu c_n - E' beta >= 0  perp lambda >= 0.
 * Joints: revolute (2D, 2 rows) and ball (3D, 3 rows) pins of two anchor points. Friction directions as
 * stewart_trinkle (2 in 2D, -friction_dirs in 3D). The paper's eq. 6 has no Phi/h; we add it so that
 * joint drift stays bounded over long runs, as the contact rows do with Delta. */
#include "classic.h"
#include "formulation.h"
#include "jacobian.h"

#include <stdlib.h>

struct ap_data {
  struct jcol *col;
  int cap;
  double *v, *k;
  int ndof;
};

static int ap_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct ap_data));
  return f->data ? 0 : 1;
}

static void ap_destroy(struct formulation *f)
{
  struct ap_data *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->v);
  free(d->k);
  free(d);
  f->data = NULL;
}

static int ap_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       struct cp_problem **out)
{
  struct ap_data *d = f->data;
  int nd = w->ndof, nc = cs->n, kf = w->dim == 2 ? 2 : f->friction_dirs, nj = jacobian_joint_rows(w);
  int ncol = nj + nc * (1 + kf), n_eq = nd + nj, m = nc * (kf + 2), n = n_eq + m;
  *out = NULL;
  if (kf > 16) return formulation_fail(f, "%d friction directions (at most 16)", kf);
  if (ncol > d->cap) {
    struct jcol *c = realloc(d->col, (size_t)ncol * sizeof *c);
    if (!c) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
    d->col = c;
    d->cap = ncol;
  }
  if (nd != d->ndof || !d->v) {
    free(d->v);
    free(d->k);
    d->v = malloc(((size_t)nd + 1) * sizeof *d->v);
    d->k = malloc(((size_t)nd + 1) * sizeof *d->k);
    if (!d->v || !d->k) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
    d->ndof = nd;
  }
  struct cp_problem *p = cp_mlcp_create(n_eq, m);
  double *phi = malloc(((size_t)nj + 1) * sizeof *phi);
  if (!p || !phi) {
    cp_destroy(&p);
    free(phi);
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  }
  /* Column order = unknown order after v: joints, normals, then k friction directions per contact. */
  jacobian_joint_columns(w, d->col, phi);
  double dirs[3 * 16];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    jcol_contact(w, c, c->n, &d->col[nj + i]);
    formulation_tangents(w->dim, c->n, kf, dirs);
    for (int l = 0; l < kf; l++)
      jcol_contact(w, c, dirs + 3 * l, &d->col[nj + nc + i * kf + l]);
  }
  /* Dynamics rows: M v - [nu~ n~ D~] [c_nu; c_n; beta] = M v_l + h k. */
  double *Md = malloc(((size_t)nd * nd + 1) * sizeof *Md);
  if (!Md) {
    cp_destroy(&p);
    free(phi);
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  }
  world_mass_matrix(w, Md);
  world_get_velocity(w, d->v);
  world_external_force(w, d->k);
  for (int r = 0; r < nd; r++) {
    double *row = p->M + (size_t)r * n, mv = 0.0;
    for (int c = 0; c < nd; c++) {
      row[c] = Md[(size_t)r * nd + c];
      mv += row[c] * d->v[c];
    }
    p->q[r] = -mv - h * d->k[r];
  }
  free(Md);
  for (int c = 0; c < ncol; c++) {
    const struct jcol *jc = &d->col[c];
    int col = nd + c; /* the unknown this column multiplies; its own row is the constraint row */
    for (int b = 0; b < 2; b++) {
      if (jc->dof[b] < 0) continue;
      for (int e = 0; e < jc->bs; e++) {
        p->M[(size_t)(jc->dof[b] + e) * n + col] -= jc->v[b][e];
        p->M[(size_t)col * n + jc->dof[b] + e] += jc->v[b][e];
      }
    }
    if (c < nj)
      p->q[col] = phi[c] / h;
    else if (c < nj + nc)
      p->q[col] = cs->c[c - nj].gap / h;
  }
  /* E lambda in the friction rows, mu c_n - E' beta in the lambda rows. */
  int off_n = n_eq, off_f = n_eq + nc, off_l = n_eq + nc + nc * kf;
  for (int i = 0; i < nc; i++) {
    for (int l = 0; l < kf; l++) {
      p->M[(size_t)(off_f + i * kf + l) * n + off_l + i] = 1.0;
      p->M[(size_t)(off_l + i) * n + off_f + i * kf + l] = -1.0;
    }
    p->M[(size_t)(off_l + i) * n + off_n + i] = cs->c[i].mu;
  }
  free(phi);
  snprintf(p->name, sizeof p->name, "anitescu_potra ndof=%d joints=%d nc=%d k=%d", nd, nj, nc, kf);
  f->rows = (struct row_counts){
      .velocity = nd, .joint = nj, .normal = nc, .friction = nc * kf, .slack = nc, .total = n};
  *out = p;
  return 0;
}

static int ap_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z, double *nu, double *pn)
{
  (void)f;
  (void)h;
  int nd = w->ndof, nj = jacobian_joint_rows(w);
  for (int i = 0; i < nd; i++)
    nu[i] = z[i];
  for (int i = 0; i < cs->n; i++)
    pn[i] = z[nd + nj + i];
  return 0;
}

static void ap_view(const struct formulation *f, FILE *out)
{
  fprintf(out, "  friction directions (3D) %d\n", f->friction_dirs);
}

const struct formulation_type formulation_type_anitescu_potra = {
    .name = "anitescu_potra",
    .summary = "mixed LCP in velocities and impulses; contacts with friction plus revolute/ball joints",
    .paper = "Anitescu & Potra 1997 as in Anitescu & Hart eq. 6",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .create = ap_create,
    .assemble = ap_assemble,
    .recover = ap_recover,
    .destroy = ap_destroy,
    .view = ap_view,
};
