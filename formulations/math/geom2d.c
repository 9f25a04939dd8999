/* geom2d.c — 2D convex geometry on point arrays (see geom2d.h): Andrew's monotone-chain hull, signed area,
 * Sutherland-Hodgman clipping of a convex polygon by a convex polygon (exact for convex inputs) and the
 * intersection area the 2D accuracy metric is made of. */
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
