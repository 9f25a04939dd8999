/* overlap2d.c — exact overlap of a 2D world's polygon parts (see overlap2d.h). */
#include "overlap2d.h"

#include "geom2d.h"

#include <math.h>
#include <stdlib.h>

void geom2d_world_polygon(const struct world *w, const struct shape *s, double *out)
{
  const struct body *b = &w->bodies[s->body];
  double c = cos(b->theta), sn = sin(b->theta);
  (void)w;
  for (int i = 0; i < s->polygon->n; i++) {
    double x = s->polygon->v[2 * i], y = s->polygon->v[2 * i + 1];
    out[2 * i] = b->x[0] + c * x - sn * y;
    out[2 * i + 1] = b->x[1] + sn * x + c * y;
  }
}

double world_polygon_overlap(const struct world *w, int sa, int sb)
{
  const struct shape *a = &w->shapes[sa], *b = &w->shapes[sb];
  if (a->kind != SHAPE_POLYGON || b->kind != SHAPE_POLYGON) return 0.0;
  int na = a->polygon->n, nb = b->polygon->n;
  double *buf = malloc((size_t)(na + nb) * 2 * sizeof *buf);
  if (!buf) return -1.0;
  geom2d_world_polygon(w, a, buf);
  geom2d_world_polygon(w, b, buf + 2 * na);
  double area = geom2d_overlap_area(na, buf, nb, buf + 2 * na);
  free(buf);
  return area;
}

double world_total_overlap_2d(const struct world *w)
{
  double total = 0.0;
  for (int i = 0; i < w->ns; i++)
    for (int j = i + 1; j < w->ns; j++) {
      const struct shape *a = &w->shapes[i], *b = &w->shapes[j];
      if (a->body == b->body || a->kind != SHAPE_POLYGON || b->kind != SHAPE_POLYGON) continue;
      if (w->bodies[a->body].is_static && w->bodies[b->body].is_static) continue;
      total += world_polygon_overlap(w, i, j);
    }
  return total;
}
