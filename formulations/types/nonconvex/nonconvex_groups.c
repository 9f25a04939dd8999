/* nonconvex_groups.c — which potential contacts form nonconvex groups (Egan, Berard & Trinkle Secs. III,
 * V (Fig. 5), VI, VII (Fig. 8); rules in nonconvex_groups.h): a point (polygon vertex or disc centre) near
 * corners of a polygon part gets, per corner, the sides that bound the local Minkowski difference there;
 * two or more sides are a group (the union of their half-planes), one side is a convex constraint.
 * Invariants: sides ordered groups first (contiguous), then convex; every side has a source contact; a
 * vertex pair contributes its sides once. */
#include "nonconvex_groups.h"

#include "geom2d.h"
#include "overlap2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Relative offset of the seam probe (fraction of the edge length). */
static const double nc_probe = 1e-6;
/* Angular slack (radians) of the normal-cone tests: a side whose normal lies this close to the cone still
 * counts, so a block tilted by less than this still gets the face it lies on (the cones of a flush block
 * meet in one ray; a tiny tilt would otherwise leave them disjoint). Parallel sides within it are one. */
static const double nc_angle = 0.02;
/* A side is passive when the point lies behind its line by more than this fraction of the threshold below
 * the group's largest gap (so a touching point, G ~ 0, may be dragged at most 1e-3 thr / h by a side). */
static const double nc_passive = 1e-3;

/* A polygon part placed in the world (views into a scratch buffer). */
struct wpoly {
  int shape, n;
  double *v, *en, *ed;
};

/* One point facing one polygon part. */
struct nc_item {
  int point_shape;           /* shape carrying the point (polygon or disc) */
  int point_id;              /* polygon vertex index, -1 for a disc centre */
  int part;                  /* the polygon part it faces */
  int source;                /* detected contact */
  enum feature_kind feature; /* the contact's feature on the part: vertex or edge */
  int feature_id;
  double p[2], radius;
};

/* A candidate side before the seam test: point (shape, vertex id or -1) against edge e of a part. */
struct nc_cand {
  const struct wpoly *pt_poly, *edge_poly; /* pt_poly NULL for a disc */
  int pt_id, edge;
  double p[2], radius;
  int pt_shape;
};

static int grow(void **buf, int *cap, int need, size_t size)
{
  if (need <= *cap) return 0;
  int nc = *cap ? *cap : 16;
  while (nc < need)
    nc *= 2;
  void *q = realloc(*buf, (size_t)nc * size);
  if (!q) return 1;
  *buf = q;
  *cap = nc;
  return 0;
}

static double cross(const double *a, const double *b) { return a[0] * b[1] - a[1] * b[0]; }

/* World-frame vertices, outward normals and offsets of polygon part `shape` into buf (5 n doubles). */
static void place_polygon(const struct world *w, int shape, double *buf, struct wpoly *P)
{
  const struct shape *s = &w->shapes[shape];
  const struct polygon *pg = s->polygon;
  P->shape = shape;
  P->n = pg->n;
  P->v = buf;
  P->en = buf + 2 * pg->n;
  P->ed = buf + 4 * pg->n;
  geom2d_world_polygon(w, s, P->v);
  double th = w->bodies[s->body].theta, c = cos(th), sn = sin(th);
  for (int i = 0; i < pg->n; i++) {
    double nx = pg->en[2 * i], ny = pg->en[2 * i + 1];
    P->en[2 * i] = c * nx - sn * ny;
    P->en[2 * i + 1] = sn * nx + c * ny;
    P->ed[i] = P->en[2 * i] * P->v[2 * i] + P->en[2 * i + 1] * P->v[2 * i + 1];
  }
}

/* Is x within angle `slack` of the cone spanned counter-clockwise from u to v (angle below pi)? */
static int in_cone(const double *u, const double *v, const double *x, double slack)
{
  double s = sin(slack);
  return cross(u, x) >= -s && cross(x, v) >= -s && (x[0] * (u[0] + v[0]) + x[1] * (u[1] + v[1]) > 0.0);
}

/* Is the world point x inside (or on) a part of `body` other than `skip`? */
static int covered(const struct world *w, int body, int skip, const double x[2])
{
  const struct body *b = &w->bodies[body];
  double c = cos(b->theta), s = sin(b->theta);
  double dx = x[0] - b->x[0], dy = x[1] - b->x[1], lx = c * dx + s * dy, ly = -s * dx + c * dy;
  for (int k = b->shape_begin; k < b->shape_begin + b->shape_count; k++) {
    if (k == skip) continue;
    const struct shape *sh = &w->shapes[k];
    if (sh->kind == SHAPE_HALFPLANE) {
      if (sh->n[0] * lx + sh->n[1] * ly <= sh->d) return 1;
    } else if (sh->kind == SHAPE_DISC) {
      if (hypot(lx - sh->c[0], ly - sh->c[1]) <= sh->radius) return 1;
    } else if (sh->kind == SHAPE_POLYGON) {
      const struct polygon *pg = sh->polygon;
      int in = 1;
      for (int i = 0; i < pg->n && in; i++)
        in = pg->en[2 * i] * lx + pg->en[2 * i + 1] * ly <= pg->ed[i];
      if (in) return 1;
    }
  }
  return 0;
}

/* Segment parameter of the projection of p on edge e (unclamped). */
static double edge_param(const struct wpoly *Q, int e, const double p[2])
{
  const double *u = Q->v + 2 * e, *v = Q->v + 2 * ((e + 1) % Q->n);
  double ex = v[0] - u[0], ey = v[1] - u[1], len2 = ex * ex + ey * ey;
  return len2 > 0.0 ? ((p[0] - u[0]) * ex + (p[1] - u[1]) * ey) / len2 : 0.0;
}

/* Edge e of Q lies against another part of the same body (a seam), next to where p projects on it. */
static int is_seam(const struct world *w, const struct wpoly *Q, int e, const double p[2])
{
  const double *u = Q->v + 2 * e, *v = Q->v + 2 * ((e + 1) % Q->n);
  double t = edge_param(Q, e, p), len = hypot(v[0] - u[0], v[1] - u[1]), d = nc_probe * len;
  t = t < nc_probe ? nc_probe : (t > 1.0 - nc_probe ? 1.0 - nc_probe : t);
  double probe[2] = {u[0] + t * (v[0] - u[0]) + d * Q->en[2 * e],
                     u[1] + t * (v[1] - u[1]) + d * Q->en[2 * e + 1]};
  return covered(w, w->shapes[Q->shape].body, Q->shape, probe);
}

static int push_side(struct nc_side **buf, int *n, int *cap, const struct nc_side *s)
{
  if (grow((void **)buf, cap, *n + 1, sizeof **buf)) return 1;
  (*buf)[(*n)++] = *s;
  return 0;
}

/* The side of a candidate as a contact (see struct nc_side). */
static void cand_side(const struct world *w, const struct nc_cand *cd, const struct contact *src, int group,
                      int source, struct nc_side *sd)
{
  const struct wpoly *Q = cd->edge_poly;
  int e = cd->edge;
  double nx = Q->en[2 * e], ny = Q->en[2 * e + 1], s = nx * cd->p[0] + ny * cd->p[1] - Q->ed[e];
  memset(sd, 0, sizeof *sd);
  struct contact *c = &sd->c;
  c->a = w->shapes[cd->pt_shape].body;
  c->b = w->shapes[Q->shape].body;
  c->sa = cd->pt_shape;
  c->sb = Q->shape;
  c->n[0] = nx, c->n[1] = ny;
  c->gap = s - cd->radius;
  c->pa[0] = cd->p[0] - cd->radius * nx, c->pa[1] = cd->p[1] - cd->radius * ny;
  c->pb[0] = cd->p[0] - s * nx, c->pb[1] = cd->p[1] - s * ny;
  c->fa = cd->pt_poly ? FEATURE_VERTEX : FEATURE_SURFACE;
  c->ida = cd->pt_poly ? cd->pt_id : 0;
  c->fb = FEATURE_EDGE;
  c->idb = e;
  c->mu = src->mu;
  sd->group = group;
  sd->source = source;
  sd->passive = 0;
}

/* Has the unordered vertex pair (sa, ia)-(sb, ib) been processed? Records it if not. */
static int pair_seen(struct nc_groups *g, int sa, int ia, int sb, int ib, int *fail)
{
  if (sa > sb || (sa == sb && ia > ib)) {
    int t = sa;
    sa = sb, sb = t;
    t = ia, ia = ib, ib = t;
  }
  for (int k = 0; k < g->npairs; k++) {
    const int *q = g->pairs + 4 * k;
    if (q[0] == sa && q[1] == ia && q[2] == sb && q[3] == ib) return 1;
  }
  if (grow((void **)&g->pairs, &g->cap_pairs, 4 * (g->npairs + 1), sizeof *g->pairs)) {
    *fail = 1;
    return 1;
  }
  int *q = g->pairs + 4 * g->npairs++;
  q[0] = sa, q[1] = ia, q[2] = sb, q[3] = ib;
  return 0;
}

/* The candidate's constraint direction seen from the item's point body: the edge normal, reversed when the
 * point is the part's vertex (then the normal points from the item's body to the part's). */
static void cand_dir(const struct nc_cand *cd, int item_shape, double out[2])
{
  double sgn = cd->pt_shape == item_shape ? 1.0 : -1.0;
  out[0] = sgn * cd->edge_poly->en[2 * cd->edge];
  out[1] = sgn * cd->edge_poly->en[2 * cd->edge + 1];
}

/* Adds candidate cd to the list unless it repeats one (same point and edge) or is parallel to one
 * (constraint directions within nc_angle): then the one whose point projects inside its edge stays (the
 * other is an extension beyond a corner). */
static int add_cand(struct nc_cand *list, int *n, const struct nc_cand *cd, int item_shape)
{
  double nc[2], no[2];
  cand_dir(cd, item_shape, nc);
  double tc = edge_param(cd->edge_poly, cd->edge, cd->p);
  int inside = tc >= 0.0 && tc <= 1.0;
  for (int k = 0; k < *n; k++) {
    const struct nc_cand *o = &list[k];
    if (o->edge_poly == cd->edge_poly && o->edge == cd->edge && o->pt_shape == cd->pt_shape &&
        o->pt_id == cd->pt_id)
      return 0;
    cand_dir(o, item_shape, no);
    if (nc[0] * no[0] + nc[1] * no[1] < cos(nc_angle)) continue;
    double to = edge_param(o->edge_poly, o->edge, o->p);
    if (inside && !(to >= 0.0 && to <= 1.0)) list[k] = *cd;
    return 0;
  }
  list[(*n)++] = *cd;
  return 0;
}

/* The sides of one item: for each corner q of the part within the threshold of the point, the sides of the
 * pair (point, q) whose normals lie in both normal cones (the edges of the local Minkowski difference): the
 * point against q's edges with normal in -N_P(point) (any normal for a disc), and q against the point's
 * edges with reversed normal in N_Q(q). No corner near: the contact's own edge, convex. */
static int item_sides(struct nc_groups *g, const struct world *w, const struct contact_set *cs,
                      const struct nc_item *it, double thr)
{
  const struct shape *Qs = &w->shapes[it->part], *Ps = &w->shapes[it->point_shape];
  int nq = Qs->polygon->n, np = it->point_id >= 0 ? Ps->polygon->n : 0;
  if (grow((void **)&g->poly, &g->cap_poly, 5 * (nq + np), sizeof *g->poly) ||
      grow((void **)&g->cand, &g->cap_cand, 4 * nq + 1, sizeof *g->cand))
    return 1;
  struct wpoly Q, P = {0};
  place_polygon(w, it->part, g->poly, &Q);
  if (np) place_polygon(w, it->point_shape, g->poly + 5 * nq, &P);
  struct nc_cand *cand = g->cand;
  int ncand = 0, corners = 0, fail = 0;
  int first = it->feature_id; /* corners in counter-clockwise order from the feature (an edge: its start) */
  for (int step = 0; step < nq; step++) {
    int j = (first + step) % nq, jin = (j + nq - 1) % nq;
    const double *q = Q.v + 2 * j;
    if (hypot(it->p[0] - q[0], it->p[1] - q[1]) - it->radius > thr) continue;
    corners++;
    if (np && pair_seen(g, it->point_shape, it->point_id, it->part, j, &fail)) {
      if (fail) return 1;
      continue;
    }
    const double *nin = Q.en + 2 * jin, *nout = Q.en + 2 * j;
    double mi[2] = {0, 0}, mo[2] = {0, 0};
    int pin = 0, pid = it->point_id;
    if (np) {
      pin = (pid + np - 1) % np;
      mi[0] = -P.en[2 * pin], mi[1] = -P.en[2 * pin + 1];
      mo[0] = -P.en[2 * pid], mo[1] = -P.en[2 * pid + 1];
    }
    /* the point against q's incoming and outgoing edges */
    for (int k = 0; k < 2; k++) {
      int e = k ? j : jin;
      if (np && !in_cone(mi, mo, Q.en + 2 * e, nc_angle)) continue;
      struct nc_cand cd = {np ? &P : NULL, &Q, pid, e, {it->p[0], it->p[1]}, it->radius, it->point_shape};
      add_cand(cand, &ncand, &cd, it->point_shape);
    }
    /* q against the point's edges (normal from the point's body towards q: -m_f) */
    for (int k = 0; k < 2 && np; k++) {
      int f = k ? pid : pin;
      double rev[2] = {-P.en[2 * f], -P.en[2 * f + 1]};
      if (!in_cone(nin, nout, rev, nc_angle)) continue;
      struct nc_cand cd = {&Q, &P, j, f, {q[0], q[1]}, 0.0, it->part};
      add_cand(cand, &ncand, &cd, it->point_shape);
    }
  }
  if (corners == 0 && it->feature == FEATURE_EDGE) {
    struct nc_cand cd = {np ? &P : NULL,       &Q,         it->point_id,   it->feature_id,
                         {it->p[0], it->p[1]}, it->radius, it->point_shape};
    add_cand(cand, &ncand, &cd, it->point_shape);
  }
  const struct contact *src = &cs->c[it->source];
  int start = g->ns, count = 0;
  for (int k = 0; k < ncand; k++) {
    if (is_seam(w, cand[k].edge_poly, cand[k].edge, cand[k].p)) continue;
    struct nc_side sd;
    cand_side(w, &cand[k], src, g->ng, it->source, &sd);
    if (push_side(&g->side, &g->ns, &g->cap_side, &sd)) return 1;
    count++;
  }
  if (count >= 2) {
    if (grow((void **)&g->group_start, &g->cap_group, g->ng + 2, sizeof *g->group_start)) return 1;
    g->group_start[g->ng++] = start;
    g->group_start[g->ng] = g->ns;
    double top = -INFINITY;
    for (int k = start; k < g->ns; k++)
      top = fmax(top, g->side[k].c.gap);
    for (int k = start; k < g->ns; k++)
      g->side[k].passive = g->side[k].c.gap < fmin(0.0, top - nc_passive * thr);
  } else if (count == 1) {
    struct nc_side sd = g->side[start];
    sd.group = -1;
    g->ns = start;
    if (push_side(&g->tmp, &g->nx, &g->cap_tmp, &sd)) return 1;
  }
  return 0;
}

static int is_polygon(const struct world *w, int s) { return w->shapes[s].kind == SHAPE_POLYGON; }

/* The point of contact k on side `which` (0: a, 1: b) facing a polygon part, if it has one. */
static int make_item(const struct world *w, const struct contact_set *cs, int k, int which,
                     struct nc_item *it)
{
  const struct contact *c = &cs->c[k];
  int ps = which ? c->sb : c->sa, qs = which ? c->sa : c->sb;
  enum feature_kind pf = which ? c->fb : c->fa, qf = which ? c->fa : c->fb;
  if (!is_polygon(w, qs) || (qf != FEATURE_VERTEX && qf != FEATURE_EDGE)) return 0;
  memset(it, 0, sizeof *it);
  if (pf == FEATURE_VERTEX && is_polygon(w, ps)) {
    const double *pt = which ? c->pb : c->pa;
    it->point_id = which ? c->idb : c->ida;
    it->p[0] = pt[0], it->p[1] = pt[1];
  } else if (pf == FEATURE_SURFACE && w->shapes[ps].kind == SHAPE_DISC) {
    const struct shape *D = &w->shapes[ps];
    double cw[3];
    world_point(w, &w->bodies[D->body], D->c, cw);
    it->point_id = -1;
    it->p[0] = cw[0], it->p[1] = cw[1];
    it->radius = D->radius;
  } else {
    return 0;
  }
  it->point_shape = ps;
  it->part = qs;
  it->source = k;
  it->feature = qf;
  it->feature_id = which ? c->ida : c->idb;
  return 1;
}

int nc_groups_build(const struct world *w, const struct contact_set *cs, double thr, struct nc_groups *g)
{
  struct nc_item *items = NULL;
  int ni = 0, cap = 0, rc = 1;
  g->ns = g->ny = g->nx = g->ng = g->npairs = 0;
  if (grow((void **)&g->group_start, &g->cap_group, 1, sizeof *g->group_start)) return 1;
  g->group_start[0] = 0;
  for (int k = 0; k < cs->n; k++) {
    int made = 0;
    for (int which = 0; which < 2; which++) {
      struct nc_item it;
      if (!make_item(w, cs, k, which, &it)) continue;
      made = 1;
      int dup = 0;
      for (int j = 0; j < ni && !dup; j++)
        dup = items[j].point_shape == it.point_shape && items[j].point_id == it.point_id &&
              items[j].part == it.part;
      if (dup) continue;
      if (grow((void **)&items, &cap, ni + 1, sizeof *items)) goto cleanup;
      items[ni++] = it;
    }
    if (!made) {
      /* smooth or unbounded features (disc-disc, half-planes): the detected contact is the constraint */
      struct nc_side sd = {.c = cs->c[k], .group = -1, .source = k};
      if (push_side(&g->tmp, &g->nx, &g->cap_tmp, &sd)) goto cleanup;
    }
  }
  for (int j = 0; j < ni; j++)
    if (item_sides(g, w, cs, &items[j], thr)) goto cleanup;
  g->ny = g->ns;
  for (int j = 0; j < g->nx; j++)
    if (push_side(&g->side, &g->ns, &g->cap_side, &g->tmp[j])) goto cleanup;
  rc = 0;
cleanup:
  free(items);
  return rc;
}

void nc_groups_free(struct nc_groups *g)
{
  free(g->side);
  free(g->group_start);
  free(g->tmp);
  free(g->poly);
  free(g->cand);
  free(g->pairs);
  memset(g, 0, sizeof *g);
}
