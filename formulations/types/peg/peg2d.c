/* peg2d.c — PEG's 2D potential contacts, relaxed applicability (eq. 29) and the standard-model trap count
 * (see peg2d.h). Every polygon part is placed once per call at the current and at the predicted
 * configuration; bodies are paired by a sort-and-sweep on x and part pairs culled by bounding circles, both
 * inflated by delta plus the distance the parts can travel in one step at their current velocities (so no
 * pair the predicted or swept test could accept is lost). Cost: n log n plus vertices x edges of the pairs
 * that pass. */
#include "peg2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void peg2d_params_default(struct peg2d_params *p)
{
  p->distance_factor = 0.5;
  p->distance_min = 0.0008;
  p->predict = 1;
  p->swept = 1;
}

double peg2d_delta(const struct peg2d_params *p, double h)
{
  return fmax(p->distance_factor * h, p->distance_min);
}

/* World placements of every polygon part: vertices and outward edge normals, now and predicted. */
struct placements {
  int *off;     /* per shape: offset (in points) into the arrays, -1 for non-polygons */
  double *v0;   /* vertices now */
  double *n0;   /* edge normals now */
  double *v1;   /* vertices at q + h nu */
  double *circ; /* per shape: a bounding circle of the part now (centre x, y, radius) */
};

static void place(const struct polygon *pg, double x, double y, double th, double *v, double *en)
{
  double c = cos(th), s = sin(th);
  for (int i = 0; i < pg->n; i++) {
    double px = pg->v[2 * i], py = pg->v[2 * i + 1];
    v[2 * i] = x + c * px - s * py;
    v[2 * i + 1] = y + s * px + c * py;
    if (en) {
      double nx = pg->en[2 * i], ny = pg->en[2 * i + 1];
      en[2 * i] = c * nx - s * ny;
      en[2 * i + 1] = s * nx + c * ny;
    }
  }
}

static void placements_free(struct placements *pl)
{
  free(pl->off);
  free(pl->v0);
  free(pl->circ);
  pl->off = NULL;
  pl->v0 = NULL;
  pl->circ = NULL;
}

static int placements_make(const struct world *w, double h, int predict, struct placements *pl)
{
  int total = 0;
  memset(pl, 0, sizeof *pl);
  pl->off = malloc(((size_t)w->ns + 1) * sizeof *pl->off);
  pl->circ = malloc((3 * (size_t)w->ns + 1) * sizeof *pl->circ);
  if (!pl->off || !pl->circ) {
    placements_free(pl);
    return 1;
  }
  for (int i = 0; i < w->ns; i++) {
    pl->off[i] = -1;
    if (w->shapes[i].kind != SHAPE_POLYGON) continue;
    pl->off[i] = total;
    total += w->shapes[i].polygon->n;
  }
  pl->v0 = malloc(((size_t)total * 6 + 1) * sizeof *pl->v0);
  if (!pl->v0) {
    placements_free(pl);
    return 1;
  }
  pl->n0 = pl->v0 + 2 * total;
  pl->v1 = pl->v0 + 4 * total;
  for (int i = 0; i < w->ns; i++) {
    if (pl->off[i] < 0) continue;
    const struct shape *s = &w->shapes[i];
    const struct body *b = &w->bodies[s->body];
    int o = 2 * pl->off[i];
    place(s->polygon, b->x[0], b->x[1], b->theta, pl->v0 + o, pl->n0 + o);
    double t = predict && !b->is_static ? h : 0.0;
    place(s->polygon, b->x[0] + t * b->v[0], b->x[1] + t * b->v[1], b->theta + t * b->w[2], pl->v1 + o, NULL);
    /* a part's own circle (about its vertex mean): far tighter than the body-origin one for the parts of a
     * union such as the open box */
    double *c = pl->circ + 3 * i, *v = pl->v0 + o;
    int n = s->polygon->n;
    c[0] = c[1] = c[2] = 0.0;
    for (int k = 0; k < n; k++)
      c[0] += v[2 * k] / n, c[1] += v[2 * k + 1] / n;
    for (int k = 0; k < n; k++)
      c[2] = fmax(c[2], hypot(v[2 * k] - c[0], v[2 * k + 1] - c[1]));
  }
  return 0;
}

static double seg_dist2(const double *p, const double *a, const double *b)
{
  double ex = b[0] - a[0], ey = b[1] - a[1], len2 = ex * ex + ey * ey;
  double t = len2 > 0.0 ? ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / len2 : 0.0;
  t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
  double dx = p[0] - a[0] - t * ex, dy = p[1] - a[1] - t * ey;
  return dx * dx + dy * dy;
}

/* The swept test: vertex v0 -> v1 goes from outside the edge's line (a0 b0 -> a1 b1, counter-clockwise
 * polygon: outside = right of a -> b) to inside during the step, and, interpolating linearly, meets the
 * line within delta of the segment. Catches vertices that jump over the 2 delta band in one step. */
static int crosses(const double *v0, const double *a0, const double *b0, const double *v1, const double *a1,
                   const double *b1, double delta)
{
  double e0x = b0[0] - a0[0], e0y = b0[1] - a0[1], e1x = b1[0] - a1[0], e1y = b1[1] - a1[1];
  /* signed distances times the edge lengths: the sign test needs no square root */
  double s0 = e0y * (v0[0] - a0[0]) - e0x * (v0[1] - a0[1]);
  double s1 = e1y * (v1[0] - a1[0]) - e1x * (v1[1] - a1[1]);
  if (!(s0 > 0.0 && s1 < 0.0)) return 0;
  double l0 = hypot(e0x, e0y), l1 = hypot(e1x, e1y), psi0 = s0 / l0, psi1 = s1 / l1;
  double t = psi0 / (psi0 - psi1);
  double p0 = ((v0[0] - a0[0]) * e0x + (v0[1] - a0[1]) * e0y) / l0; /* arc length along the edge */
  double p1 = ((v1[0] - a1[0]) * e1x + (v1[1] - a1[1]) * e1y) / l1;
  double pos = p0 + t * (p1 - p0), len = l0 + t * (l1 - l0);
  return pos >= -delta && pos <= len + delta;
}

/* Vertices of part sp against the edges of part sq. */
static int vertices_edges(const struct world *w, const struct placements *pl, int sp, int sq, double delta,
                          int predict, int swept, struct contact_set *out)
{
  const struct polygon *P = w->shapes[sp].polygon, *Q = w->shapes[sq].polygon;
  const double *pv0 = pl->v0 + 2 * pl->off[sp], *pv1 = pl->v1 + 2 * pl->off[sp];
  const double *qv0 = pl->v0 + 2 * pl->off[sq], *qv1 = pl->v1 + 2 * pl->off[sq];
  const double *qn0 = pl->n0 + 2 * pl->off[sq];
  double d2 = delta * delta;
  for (int i = 0; i < P->n; i++) {
    const double *v = pv0 + 2 * i;
    for (int e = 0; e < Q->n; e++) {
      int f = (e + 1) % Q->n;
      int near = seg_dist2(v, qv0 + 2 * e, qv0 + 2 * f) <= d2;
      if (!near && predict) near = seg_dist2(pv1 + 2 * i, qv1 + 2 * e, qv1 + 2 * f) <= d2;
      if (!near && swept)
        near = crosses(v, qv0 + 2 * e, qv0 + 2 * f, pv1 + 2 * i, qv1 + 2 * e, qv1 + 2 * f, delta);
      if (!near) continue;
      struct contact c;
      memset(&c, 0, sizeof c);
      c.sa = sp;
      c.sb = sq;
      c.a = w->shapes[sp].body;
      c.b = w->shapes[sq].body;
      c.fa = FEATURE_VERTEX;
      c.ida = i;
      c.fb = FEATURE_EDGE;
      c.idb = e;
      c.n[0] = qn0[2 * e];
      c.n[1] = qn0[2 * e + 1];
      c.gap = c.n[0] * (v[0] - qv0[2 * e]) + c.n[1] * (v[1] - qv0[2 * e + 1]);
      c.pa[0] = v[0];
      c.pa[1] = v[1];
      c.pb[0] = v[0] - c.gap * c.n[0];
      c.pb[1] = v[1] - c.gap * c.n[1];
      c.mu = w->mu;
      if (contact_set_push(out, &c)) return 1;
    }
  }
  return 0;
}

static int may_collide(const struct body *a, const struct body *b)
{
  if (a->is_static && b->is_static) return 0;
  return !(a->group != 0 && a->group == b->group);
}

/* How far any point of a part of b (radius r about the origin) can move in one step. */
static double travel(const struct body *b, double r, double h, int predict)
{
  if (!predict || b->is_static) return 0.0;
  return h * (hypot(b->v[0], b->v[1]) + fabs(b->w[2]) * r);
}

struct sweep_item {
  double lo, hi;
  int body;
};

static int cmp_item(const void *pa, const void *pb)
{
  const struct sweep_item *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return (a->body > b->body) - (a->body < b->body);
}

/* The polygon parts of bodies i < j. */
static int detect_pair(const struct world *w, const struct placements *pl, const struct peg2d_params *p,
                       double h, double delta, int i, int j, struct contact_set *out)
{
  const struct body *A = &w->bodies[i], *B = &w->bodies[j];
  int swept = p->predict && p->swept;
  for (int sa = A->shape_begin; sa < A->shape_begin + A->shape_count; sa++)
    for (int sb = B->shape_begin; sb < B->shape_begin + B->shape_count; sb++) {
      if (pl->off[sa] < 0 || pl->off[sb] < 0) continue;
      const double *ca = pl->circ + 3 * sa, *cb = pl->circ + 3 * sb;
      double reach = ca[2] + cb[2] + delta + travel(A, w->shapes[sa].radius, h, p->predict) +
                     travel(B, w->shapes[sb].radius, h, p->predict);
      if (hypot(ca[0] - cb[0], ca[1] - cb[1]) > reach) continue;
      if (vertices_edges(w, pl, sa, sb, delta, p->predict, swept, out) ||
          vertices_edges(w, pl, sb, sa, delta, p->predict, swept, out))
        return 1;
    }
  return 0;
}

int peg2d_detect(const struct world *w, const struct peg2d_params *p, double h, struct contact_set *out)
{
  struct placements pl;
  double delta = peg2d_delta(p, h);
  if (w->dim != 2) return 0;
  struct sweep_item *items = malloc(((size_t)w->nb + 1) * sizeof *items);
  if (!items || placements_make(w, h, p->predict, &pl)) {
    free(items);
    return 1;
  }
  /* sort-and-sweep on x over bodies with polygon parts: reach = largest part radius + travel + delta / 2 */
  int m = 0, rc = 0;
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    double r = -1.0;
    for (int k = b->shape_begin; k < b->shape_begin + b->shape_count; k++)
      if (pl.off[k] >= 0) r = fmax(r, w->shapes[k].radius);
    if (r < 0.0) continue;
    r += travel(b, r, h, p->predict) + 0.5 * delta;
    items[m++] = (struct sweep_item){b->x[0] - r, b->x[0] + r, i};
  }
  qsort(items, (size_t)m, sizeof *items, cmp_item);
  for (int a = 0; a < m && !rc; a++)
    for (int c = a + 1; c < m && !rc && items[c].lo <= items[a].hi; c++) {
      int i = items[a].body, j = items[c].body;
      if (!may_collide(&w->bodies[i], &w->bodies[j])) continue;
      rc = i < j ? detect_pair(w, &pl, p, h, delta, i, j, out) : detect_pair(w, &pl, p, h, delta, j, i, out);
    }
  placements_free(&pl);
  free(items);
  return rc;
}

double peg2d_applicability(const struct world *w, const struct contact *c)
{
  if (c->fa != FEATURE_VERTEX || c->fb != FEATURE_EDGE) return -2.0;
  const struct shape *sa = &w->shapes[c->sa], *sb = &w->shapes[c->sb];
  if (sa->kind != SHAPE_POLYGON || sb->kind != SHAPE_POLYGON) return -2.0;
  const struct polygon *P = sa->polygon;
  /* the edge normal in a's frame: rotate by theta_b - theta_a */
  double dth = w->bodies[sb->body].theta - w->bodies[sa->body].theta, cs = cos(dth), sn = sin(dth);
  double ex = sb->polygon->en[2 * c->idb], ey = sb->polygon->en[2 * c->idb + 1];
  double nx = cs * ex - sn * ey, ny = sn * ex + cs * ey;
  const double *va = P->v + 2 * c->ida;
  double appl = INFINITY;
  for (int s = -1; s <= 1; s += 2) {
    const double *vk = P->v + 2 * ((c->ida + s + P->n) % P->n);
    double dx = vk[0] - va[0], dy = vk[1] - va[1], len = hypot(dx, dy);
    double d = (nx * dx + ny * dy) / len;
    if (d < appl) appl = d;
  }
  return appl;
}

int peg2d_key_compare(const void *pa, const void *pb)
{
  const struct peg2d_key *a = pa, *b = pb;
  if (a->sa != b->sa) return a->sa < b->sa ? -1 : 1;
  if (a->sb != b->sb) return a->sb < b->sb ? -1 : 1;
  if (a->ida != b->ida) return a->ida < b->ida ? -1 : 1;
  if (a->idb != b->idb) return a->idb < b->idb ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

void peg2d_sort_keys(const struct contact_set *cs, struct peg2d_key *keys)
{
  for (int i = 0; i < cs->n; i++)
    keys[i] = (struct peg2d_key){cs->c[i].sa, cs->c[i].sb, cs->c[i].ida, cs->c[i].idb, i};
  qsort(keys, (size_t)cs->n, sizeof *keys, peg2d_key_compare);
}

int peg2d_find(const struct peg2d_key *keys, int n, int sa, int sb, int ida, int idb)
{
  int lo = 0, hi = n - 1;
  struct peg2d_key k = {sa, sb, ida, idb, -1};
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, c = peg2d_key_compare(&keys[mid], &k);
    /* index -1 sorts before every real index: compare the four ids only */
    if (keys[mid].sa == sa && keys[mid].sb == sb && keys[mid].ida == ida && keys[mid].idb == idb)
      return keys[mid].index;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

int peg2d_count_corner_sets(const struct world *w, const struct contact_set *cs)
{
  if (cs->n == 0) return 0;
  struct peg2d_key *keys = malloc((size_t)cs->n * sizeof *keys);
  if (!keys) return -1;
  peg2d_sort_keys(cs, keys);
  int count = 0;
  for (int k = 0; k < cs->n; k++) {
    const struct contact *c = &cs->c[keys[k].index];
    if (c->fa != FEATURE_VERTEX || c->fb != FEATURE_EDGE || w->shapes[c->sb].kind != SHAPE_POLYGON) continue;
    int ne = w->shapes[c->sb].polygon->n;
    if (peg2d_find(keys, cs->n, c->sa, c->sb, c->ida, (c->idb + 1) % ne) >= 0) count++;
  }
  free(keys);
  return count;
}

int peg2d_count_traps(const struct world *w, double h, struct contact_set *scratch)
{
  struct peg2d_params p;
  peg2d_params_default(&p);
  contact_set_clear(scratch);
  if (peg2d_detect(w, &p, h, scratch)) return -1;
  return peg2d_count_corner_sets(w, scratch);
}
