/* polytope.c — convex polygons and polyhedra of shape parts (see polytope.h). */
#include "polytope.h"

#include "geom2d.h"

#include <math.h>
#include <stdlib.h>

struct polygon *polygon_create(int n, const double *xy)
{
  if (n < 3) return NULL;
  struct polygon *p = calloc(1, sizeof *p);
  double *hull = malloc((size_t)n * 2 * sizeof *hull);
  if (!p || !hull) goto fail;
  int m = geom2d_hull(n, xy, hull);
  if (m < 3) goto fail;
  p->n = m;
  p->v = hull;
  hull = NULL;
  p->en = malloc((size_t)m * 2 * sizeof *p->en);
  p->ed = malloc((size_t)m * sizeof *p->ed);
  if (!p->en || !p->ed) goto fail;
  double a = 0.0, cx = 0.0, cy = 0.0, j0 = 0.0;
  for (int i = 0; i < m; i++) {
    const double *u = p->v + 2 * i, *v = p->v + 2 * ((i + 1) % m);
    double ex = v[0] - u[0], ey = v[1] - u[1], len = hypot(ex, ey);
    /* counter-clockwise: the outward normal is the edge direction turned clockwise */
    p->en[2 * i] = ey / len;
    p->en[2 * i + 1] = -ex / len;
    p->ed[i] = p->en[2 * i] * u[0] + p->en[2 * i + 1] * u[1];
    double c = u[0] * v[1] - v[0] * u[1];
    a += c;
    cx += (u[0] + v[0]) * c;
    cy += (u[1] + v[1]) * c;
    j0 += c * (u[0] * u[0] + u[0] * v[0] + v[0] * v[0] + u[1] * u[1] + u[1] * v[1] + v[1] * v[1]);
  }
  p->area = 0.5 * a;
  p->centroid[0] = cx / (3.0 * a);
  p->centroid[1] = cy / (3.0 * a);
  p->second_moment = j0 / 12.0;
  return p;
fail:
  free(hull);
  polygon_free(p);
  return NULL;
}

void polygon_free(struct polygon *p)
{
  if (!p) return;
  free(p->v);
  free(p->en);
  free(p->ed);
  free(p);
}

double polygon_inertia(const struct polygon *p, double mass) { return mass * p->second_moment / p->area; }

void polyhedron_free(struct polyhedron *p)
{
  if (!p) return;
  free(p->v);
  free(p->face_start);
  free(p->face_vert);
  free(p->fn);
  free(p->fd);
  free(p->edge_vert);
  free(p->edge_face);
  free(p);
}
