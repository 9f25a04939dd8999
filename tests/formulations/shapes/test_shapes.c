/* test_shapes.c — the implicit shape library (formulations/shapes/shape.h; Chakraborty et al., geometrically
 * implicit time-stepping, Sec. 4.1 and 4.3): every inequality's gradient and Hessian against central finite
 * differences at random points (GSL RNG, fixed seed), in 2D and 3D, rotated and shifted; closed-form values
 * (a point on the unit disc, a square's corner); the refusals of non-convex / non-closed shapes with a
 * message naming the shape; unions of convex parts. */
#include "check.h"
#include "shape.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

/* Largest relative error of the gradient and of the Hessian of f at xi against central differences. */
static void fd_errors(const struct convex_fn *f, const double *xi, double *eg, double *eh)
{
  int dim = f->dim;
  double g[3], H[9];
  convex_fn_eval(f, xi, g, H);
  double step = 1e-5, gs = 1.0, hs = 1.0;
  for (int k = 0; k < dim; k++)
    gs = fmax(gs, fabs(g[k]));
  for (int k = 0; k < dim * dim; k++)
    hs = fmax(hs, fabs(H[k]));
  *eg = *eh = 0.0;
  for (int k = 0; k < dim; k++) {
    double xp[3], xm[3], gp[3], gm[3];
    memcpy(xp, xi, sizeof xp);
    memcpy(xm, xi, sizeof xm);
    xp[k] += step;
    xm[k] -= step;
    double fp = convex_fn_eval(f, xp, gp, NULL), fm = convex_fn_eval(f, xm, gm, NULL);
    *eg = fmax(*eg, fabs((fp - fm) / (2 * step) - g[k]) / gs);
    for (int l = 0; l < dim; l++)
      *eh = fmax(*eh, fabs((gp[l] - gm[l]) / (2 * step) - H[l * dim + k]) / hs);
  }
}

static void rotation(int dim, double angle, double R[9])
{
  double c = cos(angle), s = sin(angle);
  memset(R, 0, 9 * sizeof *R);
  if (dim == 2) {
    R[0] = c, R[1] = -s, R[3] = s, R[4] = c, R[8] = 1;
    return;
  }
  /* about the axis (1, 1, 1)/sqrt 3 (Rodrigues) */
  double u[3] = {1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0)};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      R[i * 3 + j] = (i == j ? c : 0.0) + (1 - c) * u[i] * u[j];
  R[1] -= s * u[2], R[2] += s * u[1], R[3] += s * u[2], R[5] -= s * u[0], R[6] -= s * u[1], R[7] += s * u[0];
}

static void test_derivatives(gsl_rng *rng)
{
  char msg[256];
  for (int dim = 2; dim <= 3; dim++) {
    struct convex_part parts[6];
    double c[3] = {0.3, -0.2, 0.5}, a[3] = {1.5, 0.7, 1.1}, n[3] = {0.2, 1.0, -0.4};
    int np = 0, rc = 0;
    rc |= convex_part_ball(&parts[np++], dim, c, 1.3, msg, sizeof msg);
    rc |= convex_part_ellipsoid(&parts[np++], dim, c, a, msg, sizeof msg);
    rc |= convex_part_superellipsoid(&parts[np++], dim, c, a, 4, 2, msg, sizeof msg);
    rc |= convex_part_superellipsoid(&parts[np++], dim, c, a, 6, 4, msg, sizeof msg);
    rc |= convex_part_halfspace(&parts[np++], dim, n, 0.4, msg, sizeof msg);
    if (dim == 2) {
      double cc[2] = {0.1, 0.2};
      rc |= convex_part_regular_polygon(&parts[np++], cc, 1.0, 7, 0.3, msg, sizeof msg);
    } else {
      double nn[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1}, dd[6] = {1, 1, 2, 2, 3, 3};
      rc |= convex_part_polytope(&parts[np++], 3, 6, nn, dd, msg, sizeof msg);
    }
    CHECK(rc == 0, "shapes %dD: every constructor accepts a valid shape (%s)", dim, rc ? msg : "");
    double R[9], t[3] = {-0.4, 0.9, 0.25};
    rotation(dim, 0.7, R);
    for (int i = 0; i < np; i++) {
      for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) convex_part_transform(&parts[i], R, t);
        double worst_g = 0.0, worst_h = 0.0;
        for (int trial = 0; trial < 50; trial++) {
          double xi[3];
          for (int k = 0; k < 3; k++)
            xi[k] = 4.0 * gsl_rng_uniform(rng) - 2.0;
          for (int j = 0; j < parts[i].m; j++) {
            double eg, eh;
            fd_errors(&parts[i].f[j], xi, &eg, &eh);
            worst_g = fmax(worst_g, eg);
            worst_h = fmax(worst_h, eh);
          }
        }
        CHECK(worst_g < 1e-7 && worst_h < 1e-6,
              "shapes %dD %s%s: gradient and Hessian = finite differences (rel err %.1e, %.1e)", dim,
              parts[i].name, pass ? " (rotated, shifted)" : "", worst_g, worst_h);
      }
    }
  }
}

static void test_values(void)
{
  char msg[256];
  struct convex_part disc, square, sq;
  double c[3] = {0, 0, 0};
  convex_part_ball(&disc, 2, c, 1.0, msg, sizeof msg);
  double p[2] = {cos(0.3), sin(0.3)}, g[2];
  CHECK_CLOSE(convex_fn_eval(&disc.f[0], p, g, NULL), 0.0, 1e-15, "disc: a point on the circle has f = 0");
  CHECK_CLOSE(g[0], 2 * p[0], 1e-15, "disc: grad f = 2 (x - q) (the paper's eq. 41 data)");
  double xy[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
  CHECK(convex_part_polygon(&square, 4, xy, msg, sizeof msg) == 0, "square accepted");
  double corner[2] = {1, 1}, inside[2] = {0.2, -0.3}, out[2] = {1.5, 0};
  int act;
  CHECK_CLOSE(convex_part_value(&square, corner, NULL), 0.0, 1e-15, "square: corner on the boundary");
  CHECK(convex_part_value(&square, inside, NULL) < 0, "square: interior point has max f_i < 0");
  CHECK_CLOSE(convex_part_value(&square, out, &act), 0.5, 1e-15, "square: outside value = distance to edge");
  CHECK(square.f[act].n[0] > 0.99, "square: the active inequality is the right edge");
  /* Barr's superellipse with p = 2 is the ellipse */
  double a[3] = {2, 1, 1};
  struct convex_part e;
  convex_part_ellipsoid(&e, 2, c, a, msg, sizeof msg);
  convex_part_superellipsoid(&sq, 2, c, a, 2, 2, msg, sizeof msg);
  double x[2] = {0.7, -0.4};
  CHECK_CLOSE(convex_fn_eval(&sq.f[0], x, NULL, NULL), convex_fn_eval(&e.f[0], x, NULL, NULL), 1e-15,
              "superellipse p = 2 equals the ellipse");
  /* union of two discs: inside either */
  struct implicit_body b = {0, NULL};
  struct convex_part d1, d2;
  double c1[3] = {-1, 0, 0}, c2[3] = {1, 0, 0};
  convex_part_ball(&d1, 2, c1, 0.6, msg, sizeof msg);
  convex_part_ball(&d2, 2, c2, 0.6, msg, sizeof msg);
  implicit_body_add(&b, &d1);
  implicit_body_add(&b, &d2);
  double left[2] = {-1.2, 0}, mid[2] = {0, 0};
  CHECK(b.nparts == 2 && implicit_body_value(&b, left) < 0 && implicit_body_value(&b, mid) > 0,
        "union of two discs: inside a part is inside, the gap between them is outside");
  implicit_body_free(&b);
}

static void test_refusals(void)
{
  char msg[256];
  struct convex_part p;
  double c[3] = {0, 0, 0}, a[3] = {1, 1, 1}, a0[3] = {1, 0, 1}, zero[3] = {0, 0, 0};
  msg[0] = 0;
  CHECK(convex_part_superellipsoid(&p, 2, c, a, 3, 2, msg, sizeof msg) == 1 && strstr(msg, "superellipse"),
        "odd exponent refused: %s", msg);
  CHECK(convex_part_superellipsoid(&p, 3, c, a, 4, 1, msg, sizeof msg) == 1 && strstr(msg, "superellipsoid"),
        "exponent 1 refused: %s", msg);
  CHECK(convex_part_ellipsoid(&p, 3, c, a0, msg, sizeof msg) == 1 && strstr(msg, "ellipsoid"),
        "zero semi-axis refused: %s", msg);
  CHECK(convex_part_ball(&p, 2, c, -1.0, msg, sizeof msg) == 1 && strstr(msg, "disc"),
        "negative radius refused: %s", msg);
  CHECK(convex_part_halfspace(&p, 3, zero, 1.0, msg, sizeof msg) == 1 && strstr(msg, "half-space"),
        "zero normal refused: %s", msg);
  double nn[6] = {1, 0, -1, 0, 0, 1}, dd[3] = {1, -1, 1}; /* x <= 1, x >= 1: no interior */
  CHECK(convex_part_polytope(&p, 2, 3, nn, dd, msg, sizeof msg) == 1 && strstr(msg, "no interior"),
        "polygon with no interior refused: %s", msg);
  double nu[6] = {1, 0, 0, 1, -1, 0}, du[3] = {1, 1, 1}; /* unbounded below in y */
  CHECK(convex_part_polytope(&p, 2, 3, nu, du, msg, sizeof msg) == 1 && strstr(msg, "unbounded"),
        "unbounded polygon refused: %s", msg);
  double dart[8] = {0, 0, 2, -1, 0.5, 0, 2, 1}; /* reflex vertex */
  CHECK(convex_part_polygon(&p, 4, dart, msg, sizeof msg) == 1 && strstr(msg, "polygon"),
        "non-convex polygon refused: %s", msg);
}

int main(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 15);
  test_derivatives(rng);
  test_values();
  test_refusals();
  gsl_rng_free(rng);
  return check_finish();
}
