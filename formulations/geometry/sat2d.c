/* sat2d.c — separating-axis overlap of convex polygons (see sat2d.h). On the axis u of each edge normal
 * of either polygon the overlap of the projections is min(max_a, max_b) - max(min_a, min_b); the least
 * one is the depth, and the axis is oriented from b towards a (towards a's side of the projections). */
#include "sat2d.h"

#include "geom2d.h"
#include "overlap2d.h"

#include <math.h>
#include <stdlib.h>

static void project(int n, const double *v, double ux, double uy, double *lo, double *hi)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int i = 0; i < n; i++) {
    double d = ux * v[2 * i] + uy * v[2 * i + 1];
    if (d < *lo) *lo = d;
    if (d > *hi) *hi = d;
  }
}

int sat2d_polygons(int na, const double *a, int nb, const double *b, struct sat2d_result *r)
{
  r->depth = INFINITY;
  for (int side = 0; side < 2; side++) {
    int n = side == 0 ? na : nb;
    const double *v = side == 0 ? a : b;
    for (int i = 0; i < n; i++) {
      const double *p = v + 2 * i, *q = v + 2 * ((i + 1) % n);
      double ex = q[0] - p[0], ey = q[1] - p[1], len = hypot(ex, ey);
      if (!(len > 0.0)) continue;
      double ux = ey / len, uy = -ex / len; /* outward for counter-clockwise vertices */
      double alo, ahi, blo, bhi;
      project(na, a, ux, uy, &alo, &ahi);
      project(nb, b, ux, uy, &blo, &bhi);
      double ov = fmin(ahi, bhi) - fmax(alo, blo);
      if (ov < r->depth) {
        double s = alo + ahi >= blo + bhi ? 1.0 : -1.0;
        r->depth = ov;
        r->n[0] = s * ux;
        r->n[1] = s * uy;
        r->edge_of_a = side == 0;
        r->edge = i;
      }
    }
  }
  if (!(r->depth > 0.0)) return 0;
  size_t m = (size_t)na + (size_t)nb;
  double *buf = malloc(10 * m * sizeof *buf);
  if (!buf) return -1;
  int k = geom2d_clip(na, a, nb, b, buf, buf + 2 * m);
  r->point[0] = r->point[1] = 0.0;
  for (int i = 0; i < k; i++) {
    r->point[0] += buf[2 * i] / k;
    r->point[1] += buf[2 * i + 1] / k;
  }
  free(buf);
  if (k == 0) { /* touching within round-off: no area; the midpoint of the centres stands in */
    double ca[2] = {0.0, 0.0}, cb[2] = {0.0, 0.0};
    for (int i = 0; i < na; i++)
      ca[0] += a[2 * i] / na, ca[1] += a[2 * i + 1] / na;
    for (int i = 0; i < nb; i++)
      cb[0] += b[2 * i] / nb, cb[1] += b[2 * i + 1] / nb;
    r->point[0] = 0.5 * (ca[0] + cb[0]);
    r->point[1] = 0.5 * (ca[1] + cb[1]);
  }
  return 1;
}

double world_max_penetration_2d(const struct world *w)
{
  double worst = 0.0;
  int cap = 0;
  double *buf = NULL;
  for (int i = 0; i < w->ns; i++)
    for (int j = i + 1; j < w->ns; j++) {
      const struct shape *A = &w->shapes[i], *B = &w->shapes[j];
      if (A->kind != SHAPE_POLYGON || B->kind != SHAPE_POLYGON || A->body == B->body) continue;
      const struct body *ba = &w->bodies[A->body], *bb = &w->bodies[B->body];
      if ((ba->is_static && bb->is_static) || (ba->group != 0 && ba->group == bb->group)) continue;
      if (hypot(ba->x[0] - bb->x[0], ba->x[1] - bb->x[1]) > A->radius + B->radius) continue;
      int na = A->polygon->n, nb = B->polygon->n;
      if (!buf || 2 * (na + nb) > cap) {
        cap = 2 * (na + nb);
        double *nbuf = realloc(buf, (size_t)cap * sizeof *nbuf);
        if (!nbuf) {
          free(buf);
          return -1.0;
        }
        buf = nbuf;
      }
      geom2d_world_polygon(w, A, buf);
      geom2d_world_polygon(w, B, buf + 2 * na);
      struct sat2d_result r;
      int rc = sat2d_polygons(na, buf, nb, buf + 2 * na, &r);
      if (rc < 0) {
        free(buf);
        return -1.0;
      }
      if (rc == 1 && r.depth > worst) worst = r.depth;
    }
  free(buf);
  return worst;
}
