/* shape.c — convex inequalities with value, gradient and Hessian, their intersections and unions (see
 * shape.h; Chakraborty et al., geometrically implicit time-stepping, Sec. 4.1 and 4.3). A polytope's
 * interior and boundedness are checked by linear programs (GLPK): the Chebyshev radius
 * max { t : n_i . x + t <= d_i } must be positive, and max / min of every coordinate finite. */
#include "shape.h"

#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_identity(double R[9])
{
  memset(R, 0, 9 * sizeof *R);
  R[0] = R[4] = R[8] = 1.0;
}

/* Integer power x^k, k >= 0 (exponents are small even integers: exact and cheaper than pow). */
static double ipow(double x, int k)
{
  double r = 1.0;
  for (int i = 0; i < k; i++)
    r *= x;
  return r;
}

/* g, its gradient and Hessian in the local frame (see shape.h for the formulas). */
static double local_eval(const struct convex_fn *f, const double *x, double *g, double *H)
{
  int dim = f->dim;
  if (f->kind == CONVEX_HALFSPACE) {
    double v = -f->d;
    for (int k = 0; k < dim; k++) {
      v += f->n[k] * x[k];
      g[k] = f->n[k];
    }
    memset(H, 0, (size_t)(dim * dim) * sizeof *H);
    return v;
  }
  memset(H, 0, (size_t)(dim * dim) * sizeof *H);
  if (f->kind == CONVEX_ELLIPSOID || dim == 2) {
    int p = f->kind == CONVEX_ELLIPSOID ? 2 : f->p1;
    double v = -1.0;
    for (int k = 0; k < dim; k++) {
      double u = x[k] / f->a[k];
      v += ipow(u, p);
      g[k] = p * ipow(u, p - 1) / f->a[k];
      H[k * dim + k] = p * (p - 1) * ipow(u, p - 2) / (f->a[k] * f->a[k]);
    }
    return v;
  }
  /* Barr's superellipsoid: S = (x/a)^p2 + (y/b)^p2, g = S^r + (z/c)^p1 - 1 with r = p1/p2. */
  int p1 = f->p1, p2 = f->p2;
  double r = (double)p1 / p2;
  double u[2] = {x[0] / f->a[0], x[1] / f->a[1]};
  double S = ipow(u[0], p2) + ipow(u[1], p2);
  double Sx[2], Sxx[2];
  for (int k = 0; k < 2; k++) {
    Sx[k] = p2 * ipow(u[k], p2 - 1) / f->a[k];
    Sxx[k] = p2 * (p2 - 1) * ipow(u[k], p2 - 2) / (f->a[k] * f->a[k]);
  }
  double w = x[2] / f->a[2];
  double v = (S > 0.0 ? pow(S, r) : 0.0) + ipow(w, p1) - 1.0;
  if (S > 0.0) {
    double s1 = r * pow(S, r - 1.0), s2 = r * (r - 1.0) * pow(S, r - 2.0);
    for (int k = 0; k < 2; k++) {
      g[k] = s1 * Sx[k];
      for (int l = 0; l < 2; l++)
        H[k * 3 + l] = s2 * Sx[k] * Sx[l] + (k == l ? s1 * Sxx[k] : 0.0);
    }
  } else {
    g[0] = g[1] = 0.0; /* the axis of the superellipsoid: interior, never a contact point */
  }
  g[2] = p1 * ipow(w, p1 - 1) / f->a[2];
  H[8] = p1 * (p1 - 1) * ipow(w, p1 - 2) / (f->a[2] * f->a[2]);
  return v;
}

double convex_fn_eval(const struct convex_fn *f, const double *xi, double *grad, double *hess)
{
  int dim = f->dim;
  if (f->kind == CONVEX_HALFSPACE) { /* stored in the body frame directly */
    double v = -f->d;
    for (int k = 0; k < dim; k++) {
      v += f->n[k] * xi[k];
      if (grad) grad[k] = f->n[k];
    }
    if (hess) memset(hess, 0, (size_t)(dim * dim) * sizeof *hess);
    return v;
  }
  /* x = R^T (xi - c); grad = R g; hess = R H R^T (R's dim x dim block). */
  double x[3] = {0, 0, 0}, g[3], H[9];
  for (int k = 0; k < dim; k++)
    for (int l = 0; l < dim; l++)
      x[k] += f->R[l * 3 + k] * (xi[l] - f->c[l]);
  double v = local_eval(f, x, g, H);
  if (grad)
    for (int k = 0; k < dim; k++) {
      grad[k] = 0.0;
      for (int l = 0; l < dim; l++)
        grad[k] += f->R[k * 3 + l] * g[l];
    }
  if (hess)
    for (int k = 0; k < dim; k++)
      for (int l = 0; l < dim; l++) {
        double s = 0.0;
        for (int i = 0; i < dim; i++)
          for (int j = 0; j < dim; j++)
            s += f->R[k * 3 + i] * H[i * dim + j] * f->R[l * 3 + j];
        hess[k * dim + l] = s;
      }
  return v;
}

double convex_part_value(const struct convex_part *p, const double *xi, int *active)
{
  double best = -INFINITY;
  int arg = 0;
  for (int i = 0; i < p->m; i++) {
    double v = convex_fn_eval(&p->f[i], xi, NULL, NULL);
    if (v > best) {
      best = v;
      arg = i;
    }
  }
  if (active) *active = arg;
  return best;
}

static int refuse(char *msg, size_t len, const char *fmt, const char *name, double value)
{
  if (msg && len) snprintf(msg, len, fmt, name, value);
  return 1;
}

static int check_dim(int dim, const char *name, char *msg, size_t len)
{
  if (dim == 2 || dim == 3) return 0;
  return refuse(msg, len, "%s: dimension %g is neither 2 nor 3", name, dim);
}

static void part_init(struct convex_part *p, int dim, int m, const char *name)
{
  memset(p, 0, sizeof *p);
  p->dim = dim;
  p->m = m;
  p->bounded = 1;
  snprintf(p->name, sizeof p->name, "%s", name);
}

static int quadric(struct convex_part *p, int dim, const double c[3], const double a[3], int p1, int p2,
                   enum convex_fn_kind kind, const char *name, char *msg, size_t len)
{
  if (check_dim(dim, name, msg, len)) return 1;
  for (int k = 0; k < dim; k++)
    if (!(a[k] > 0.0) || !isfinite(a[k]))
      return refuse(msg, len, "%s: semi-axis %g is not positive and finite (the body would not be closed)",
                    name, a[k]);
  if (kind == CONVEX_SUPERELLIPSOID) {
    int ps[2] = {p1, p2};
    for (int k = 0; k < (dim == 3 ? 2 : 1); k++)
      if (ps[k] < 2 || ps[k] % 2)
        return refuse(msg, len, "%s: exponent %g is not an even integer >= 2 (not convex or not C^2)", name,
                      ps[k]);
  }
  part_init(p, dim, 1, name);
  struct convex_fn *f = &p->f[0];
  f->kind = kind;
  f->dim = dim;
  for (int k = 0; k < dim; k++) {
    f->c[k] = c[k];
    f->a[k] = a[k];
  }
  f->p1 = p1;
  f->p2 = dim == 3 ? p2 : p1;
  set_identity(f->R);
  return 0;
}

int convex_part_ellipsoid(struct convex_part *p, int dim, const double c[3], const double a[3], char *msg,
                          size_t len)
{
  return quadric(p, dim, c, a, 2, 2, CONVEX_ELLIPSOID, dim == 2 ? "ellipse" : "ellipsoid", msg, len);
}

int convex_part_ball(struct convex_part *p, int dim, const double c[3], double radius, char *msg, size_t len)
{
  double a[3] = {radius, radius, radius};
  return quadric(p, dim, c, a, 2, 2, CONVEX_ELLIPSOID, dim == 2 ? "disc" : "sphere", msg, len);
}

int convex_part_superellipsoid(struct convex_part *p, int dim, const double c[3], const double a[3], int p1,
                               int p2, char *msg, size_t len)
{
  return quadric(p, dim, c, a, p1, p2, CONVEX_SUPERELLIPSOID, dim == 2 ? "superellipse" : "superellipsoid",
                 msg, len);
}

/* Normalises n into f (a half-space row); 1 if n is zero or not finite. */
static int halfspace_row(struct convex_fn *f, int dim, const double *n, double d)
{
  double s = 0.0;
  for (int k = 0; k < dim; k++)
    s += n[k] * n[k];
  s = sqrt(s);
  if (!(s > 0.0) || !isfinite(s) || !isfinite(d)) return 1;
  memset(f, 0, sizeof *f);
  f->kind = CONVEX_HALFSPACE;
  f->dim = dim;
  for (int k = 0; k < dim; k++)
    f->n[k] = n[k] / s;
  f->d = d / s;
  set_identity(f->R);
  return 0;
}

int convex_part_halfspace(struct convex_part *p, int dim, const double n[3], double d, char *msg, size_t len)
{
  const char *name = dim == 2 ? "half-plane" : "half-space";
  if (check_dim(dim, name, msg, len)) return 1;
  part_init(p, dim, 1, name);
  p->bounded = 0;
  if (halfspace_row(&p->f[0], dim, n, d))
    return refuse(msg, len, "%s: the normal is zero (offset %g)", name, d);
  return 0;
}

/* max (sign * x_k) or the Chebyshev radius (k = dim) over { n_i . x (+ t) <= d_i }; *unbounded set when the
 * LP is unbounded. Returns the optimum (-inf if infeasible). */
static double polytope_lp(const struct convex_part *p, int k, double sign, int *unbounded)
{
  int dim = p->dim, m = p->m, nc = dim + 1;
  glp_prob *lp = glp_create_prob();
  glp_add_cols(lp, nc);
  glp_add_rows(lp, m);
  for (int j = 0; j < dim; j++)
    glp_set_col_bnds(lp, j + 1, GLP_FR, 0.0, 0.0);
  /* t in [0, 1] for the radius LP; fixed at 0 otherwise. */
  glp_set_col_bnds(lp, dim + 1, k == dim ? GLP_DB : GLP_FX, 0.0, k == dim ? 1.0 : 0.0);
  glp_set_obj_coef(lp, k + 1, k == dim ? 1.0 : sign);
  glp_set_obj_dir(lp, GLP_MAX);
  int ia[1 + CONVEX_PART_MAX * 4], ja[1 + CONVEX_PART_MAX * 4];
  double ar[1 + CONVEX_PART_MAX * 4];
  int nz = 0;
  for (int i = 0; i < m; i++) {
    glp_set_row_bnds(lp, i + 1, GLP_UP, 0.0, p->f[i].d);
    for (int j = 0; j < nc; j++) {
      ++nz;
      ia[nz] = i + 1;
      ja[nz] = j + 1;
      ar[nz] = j < dim ? p->f[i].n[j] : 1.0;
    }
  }
  glp_load_matrix(lp, nz, ia, ja, ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  int ret = glp_simplex(lp, &parm);
  int st = glp_get_status(lp);
  double val = -INFINITY;
  *unbounded = 0;
  if (ret == 0 && st == GLP_OPT) val = glp_get_obj_val(lp);
  if (st == GLP_UNBND || ret == GLP_ENODFS) *unbounded = 1;
  glp_delete_prob(lp);
  return val;
}

int convex_part_polytope(struct convex_part *p, int dim, int m, const double *normals, const double *d,
                         char *msg, size_t len)
{
  char name[48];
  snprintf(name, sizeof name, "%s(%d)", dim == 2 ? "polygon" : "polyhedron", m);
  if (check_dim(dim, name, msg, len)) return 1;
  if (m < dim + 1 || m > CONVEX_PART_MAX)
    return refuse(msg, len, "%s: %g half-spaces (a bounded polytope needs dim + 1 .. 64)", name, m);
  part_init(p, dim, m, name);
  for (int i = 0; i < m; i++)
    if (halfspace_row(&p->f[i], dim, normals + (size_t)i * dim, d[i]))
      return refuse(msg, len, "%s: the normal of half-space %g is zero", name, i);
  int unb;
  double radius = polytope_lp(p, dim, 1.0, &unb);
  if (!(radius > 1e-12)) return refuse(msg, len, "%s: no interior (Chebyshev radius %g)", name, radius);
  for (int k = 0; k < dim; k++)
    for (int s = -1; s <= 1; s += 2) {
      double v = polytope_lp(p, k, s, &unb);
      if (unb || !isfinite(v)) return refuse(msg, len, "%s: unbounded along axis %g (not closed)", name, k);
    }
  return 0;
}

int convex_part_polygon(struct convex_part *p, int nv, const double *xy, char *msg, size_t len)
{
  char name[48];
  snprintf(name, sizeof name, "polygon(%d)", nv);
  if (nv < 3 || nv > CONVEX_PART_MAX) return refuse(msg, len, "%s: %g vertices (3 .. 64)", name, nv);
  double normals[2 * CONVEX_PART_MAX], d[CONVEX_PART_MAX];
  for (int i = 0; i < nv; i++) {
    const double *a = xy + 2 * i, *b = xy + 2 * ((i + 1) % nv), *c = xy + 2 * ((i + 2) % nv);
    double ex = b[0] - a[0], ey = b[1] - a[1];
    double turn = ex * (c[1] - b[1]) - ey * (c[0] - b[0]);
    if (!(turn > 0.0))
      return refuse(msg, len, "%s: not strictly convex counter-clockwise at vertex %g", name, (i + 1) % nv);
    normals[2 * i] = ey; /* outward for a counter-clockwise polygon */
    normals[2 * i + 1] = -ex;
    d[i] = ey * a[0] - ex * a[1];
  }
  int rc = convex_part_polytope(p, 2, nv, normals, d, msg, len);
  if (!rc) snprintf(p->name, sizeof p->name, "%s", name);
  return rc;
}

int convex_part_regular_polygon(struct convex_part *p, const double c[2], double radius, int nsides,
                                double phase, char *msg, size_t len)
{
  if (!(radius > 0.0)) return refuse(msg, len, "%s: radius %g is not positive", "regular polygon", radius);
  if (nsides < 3 || nsides > CONVEX_PART_MAX)
    return refuse(msg, len, "%s: %g sides (3 .. 64)", "regular polygon", nsides);
  double xy[2 * CONVEX_PART_MAX];
  for (int i = 0; i < nsides; i++) {
    double t = phase + 2.0 * M_PI * i / nsides;
    xy[2 * i] = c[0] + radius * cos(t);
    xy[2 * i + 1] = c[1] + radius * sin(t);
  }
  return convex_part_polygon(p, nsides, xy, msg, len);
}

void convex_part_transform(struct convex_part *p, const double R[9], const double t[3])
{
  int dim = p->dim;
  for (int i = 0; i < p->m; i++) {
    struct convex_fn *f = &p->f[i];
    if (f->kind == CONVEX_HALFSPACE) { /* n' = R n, d' = d + n' . t */
      double n[3] = {0, 0, 0};
      for (int k = 0; k < dim; k++)
        for (int l = 0; l < dim; l++)
          n[k] += R[k * 3 + l] * f->n[l];
      for (int k = 0; k < dim; k++) {
        f->n[k] = n[k];
        f->d += n[k] * t[k];
      }
      continue;
    }
    double c[3] = {0, 0, 0}, Rn[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
    for (int k = 0; k < dim; k++) {
      for (int l = 0; l < dim; l++) {
        c[k] += R[k * 3 + l] * f->c[l];
        double s = 0.0;
        for (int j = 0; j < dim; j++)
          s += R[k * 3 + j] * f->R[j * 3 + l];
        Rn[k * 3 + l] = s;
      }
      c[k] += t[k];
    }
    memcpy(f->c, c, sizeof c);
    memcpy(f->R, Rn, sizeof Rn);
  }
}

int implicit_body_add(struct implicit_body *b, const struct convex_part *part)
{
  struct convex_part *np = realloc(b->parts, (size_t)(b->nparts + 1) * sizeof *np);
  if (!np) return 1;
  b->parts = np;
  b->parts[b->nparts++] = *part;
  return 0;
}

void implicit_body_free(struct implicit_body *b)
{
  free(b->parts);
  b->parts = NULL;
  b->nparts = 0;
}

double implicit_body_value(const struct implicit_body *b, const double *xi)
{
  double best = INFINITY;
  for (int i = 0; i < b->nparts; i++) {
    double v = convex_part_value(&b->parts[i], xi, NULL);
    if (v < best) best = v;
  }
  return best;
}
