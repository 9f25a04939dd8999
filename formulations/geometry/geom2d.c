/* geom2d.c — 2D convex geometry (see geom2d.h): Andrew's monotone-chain hull, polygon mass properties,
 * Sutherland-Hodgman clipping of a convex polygon by a convex polygon (exact for convex inputs), and the
 * intersection area used as the 2D accuracy metric (PEG box-of-polygons: summed pairwise overlap). */
#include "geom2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double cross2(const double *o, const double *a, const double *b)
{
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int cmp_xy(const void *pa, const void *pb)
{
  const double *a = pa, *b = pb;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] != b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

int geom2d_hull(int n, const double *xy, double *hull)
{
  if (n < 3) return 0;
  double *pts = malloc((size_t)n * 2 * sizeof *pts);
  double *h = malloc((size_t)(2 * n + 1) * 2 * sizeof *h);
  if (!pts || !h) {
    free(pts);
    free(h);
    return 0;
  }
  memcpy(pts, xy, (size_t)n * 2 * sizeof *pts);
  qsort(pts, (size_t)n, 2 * sizeof *pts, cmp_xy);
  int k = 0;
  for (int i = 0; i < n; i++) {
    while (k >= 2 && cross2(h + 2 * (k - 2), h + 2 * (k - 1), pts + 2 * i) <= 0.0)
      k--;
    memcpy(h + 2 * k++, pts + 2 * i, 2 * sizeof *h);
  }
  for (int i = n - 2, lower = k + 1; i >= 0; i--) {
    while (k >= lower && cross2(h + 2 * (k - 2), h + 2 * (k - 1), pts + 2 * i) <= 0.0)
      k--;
    memcpy(h + 2 * k++, pts + 2 * i, 2 * sizeof *h);
  }
  k--; /* the last point repeats the first */
  if (k > n) k = n;
  memcpy(hull, h, (size_t)k * 2 * sizeof *h);
  free(pts);
  free(h);
  return k;
}

double geom2d_area(int n, const double *xy)
{
  double a = 0.0;
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    a += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
  }
  return 0.5 * a;
}

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

double geom2d_polygon_inertia(const struct polygon *p, double mass)
{
  return mass * p->second_moment / p->area;
}

/* Clip the polygon in (n points) by the half-plane left of the directed line a->b; returns the count. */
static int clip_half(int n, const double *in, const double *a, const double *b, double *out)
{
  int m = 0;
  for (int i = 0; i < n; i++) {
    const double *p = in + 2 * i, *q = in + 2 * ((i + 1) % n);
    double sp = cross2(a, b, p), sq = cross2(a, b, q);
    if (sp >= 0.0) {
      out[2 * m] = p[0];
      out[2 * m + 1] = p[1];
      m++;
    }
    if ((sp >= 0.0) != (sq >= 0.0)) {
      double t = sp / (sp - sq);
      out[2 * m] = p[0] + t * (q[0] - p[0]);
      out[2 * m + 1] = p[1] + t * (q[1] - p[1]);
      m++;
    }
  }
  return m;
}

int geom2d_clip(int na, const double *a, int nb, const double *b, double *out, double *work)
{
  /* Each half-plane clip of a convex polygon adds at most one vertex, so na + nb bounds the result; the
   * buffers hold twice that so that round-off near collinear vertices can never write out of bounds. */
  double *cur = work, *next = work + 4 * (na + nb);
  memcpy(cur, a, (size_t)na * 2 * sizeof *a);
  int n = na;
  for (int i = 0; i < nb && n > 0; i++) {
    n = clip_half(n, cur, b + 2 * i, b + 2 * ((i + 1) % nb), next);
    if (n > na + nb) n = na + nb;
    double *t = cur;
    cur = next;
    next = t;
  }
  if (n < 3) return 0;
  memcpy(out, cur, (size_t)n * 2 * sizeof *out);
  return n;
}

double geom2d_overlap_area(int na, const double *a, int nb, const double *b)
{
  size_t m = (size_t)na + (size_t)nb;
  double *buf = malloc(10 * m * sizeof *buf);
  if (!buf) return -1.0;
  int n = geom2d_clip(na, a, nb, b, buf, buf + 2 * m);
  double area = n > 0 ? geom2d_area(n, buf) : 0.0;
  free(buf);
  return area > 0.0 ? area : 0.0;
}

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
