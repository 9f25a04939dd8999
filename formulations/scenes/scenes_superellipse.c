/* scenes_superellipse.c — a superellipse (Barr, |x/a|^p + |y/b|^p <= 1; p = 2 the ellipse) rolling on the
 * ground, as the smooth shape itself (Chakraborty, Berard, Akella & Trinkle, Sec. 4.1: one convex function)
 * or as the N-gon inscribed in it (the vertices at equally spaced parameters t of (a c|cos t|^(2/p),
 * b s|sin t|^(2/p)), vertex 0 at the bottom): the extension of their Sec. 6.1 rolling disc to a body whose
 * centre rises and falls as it rolls. Uniform mass: the smooth shape's inertia by the Beta-function closed
 * form (world_superellipse.c), the polygon's by its own. */
#include "geom2d.h"
#include "scenes.h"

#include <math.h>
#include <stdlib.h>

static struct world *start(struct world *w, int b, double y, const double nu0[3])
{
  struct body *bd = &w->bodies[b];
  bd->x[1] = y;
  bd->v[0] = nu0[0];
  bd->v[1] = nu0[1];
  bd->w[2] = nu0[2];
  if (world_finalize(w)) world_destroy(&w);
  return w;
}

struct world *scene_superellipse_on_line(double a, double b, int p, double m, double mu, const double nu0[3])
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->mu = mu;
  int g = world_add_body(w, 1, 0, 0);
  int body = g >= 0 && world_add_halfplane(w, g, 0.0, 1.0, 0.0) >= 0 ? world_add_body(w, 0, m, 1.0) : -1;
  int s = body >= 0 ? world_add_superellipse(w, body, 0.0, 0.0, 0.0, a, b, p, NULL, 0) : -1;
  if (s < 0) {
    world_destroy(&w);
    return NULL;
  }
  w->bodies[body].inertia = world_superellipse_inertia(&w->shapes[s], m);
  return start(w, body, b, nu0);
}

struct world *scene_superellipse_ngon(int n, double a, double b, int p, double m, double mu,
                                      const double nu0[3])
{
  struct world *w = world_create(2);
  double *xy = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *xy);
  if (!w || !xy || n < 3 || p < 2) {
    free(xy);
    world_destroy(&w);
    return NULL;
  }
  w->mu = mu;
  for (int i = 0; i < n; i++) {
    double t = -M_PI / 2 + 2.0 * M_PI * i / n, c = cos(t), s = sin(t);
    xy[2 * i] = a * copysign(pow(fabs(c), 2.0 / p), c);
    xy[2 * i + 1] = b * copysign(pow(fabs(s), 2.0 / p), s);
  }
  /* the body origin is the centre of mass: shift by the polygon's centroid (on the y axis by symmetry;
   * nonzero only for an odd n with p > 2, the polygon then not symmetric about the x axis) */
  double A = 0.0, cy = 0.0;
  for (int i = 0; i < n; i++) {
    const double *u = xy + 2 * i, *v = xy + 2 * ((i + 1) % n);
    double cr = u[0] * v[1] - v[0] * u[1];
    A += cr;
    cy += (u[1] + v[1]) * cr;
  }
  cy /= 3.0 * A;
  for (int i = 0; i < n; i++)
    xy[2 * i + 1] -= cy;
  int g = world_add_body(w, 1, 0, 0);
  int body = g >= 0 && world_add_halfplane(w, g, 0.0, 1.0, 0.0) >= 0 ? world_add_body(w, 0, m, 1.0) : -1;
  int ok = body >= 0 && world_add_polygon(w, body, n, xy) >= 0;
  free(xy);
  if (!ok) {
    world_destroy(&w);
    return NULL;
  }
  w->bodies[body].inertia = polygon_inertia(w->shapes[w->bodies[body].shape_begin].polygon, m);
  return start(w, body, b + cy, nu0);
}
