/* bounded_block.c — support friction and motors as bounded-impulse groups (see bounded_block.h). */
#include "bounded_block.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bounded_block_free(struct bounded_block *bb)
{
  free(bb->col);
  free(bb->offset);
  free(bb->group);
  free(bb->bound);
  memset(bb, 0, sizeof *bb);
}

static int reserve(struct bounded_block *bb, int ncol, int ngroup)
{
  if (ncol > bb->cap_col) {
    struct jcol *c = realloc(bb->col, (size_t)ncol * sizeof *c);
    if (c) bb->col = c;
    double *o = realloc(bb->offset, (size_t)ncol * sizeof *o);
    if (o) bb->offset = o;
    int *g = realloc(bb->group, (size_t)ncol * sizeof *g);
    if (g) bb->group = g;
    if (!c || !o || !g) return 1;
    bb->cap_col = ncol;
  }
  if (ngroup > bb->cap_group) {
    double *b = realloc(bb->bound, (size_t)ngroup * sizeof *b);
    if (!b) return 1;
    bb->bound = b;
    bb->cap_group = ngroup;
  }
  return 0;
}

static void add_direction(struct bounded_block *bb, const struct world *w, int body, const double p[3],
                          const double d[3], double target_along_d)
{
  jcol_make(w, body, p, -1, p, d, &bb->col[bb->ncol]);
  bb->offset[bb->ncol] = -target_along_d;
  bb->group[bb->ncol++] = bb->ngroup;
}

int bounded_block_build(struct bounded_block *bb, const struct world *w, double h)
{
  int ncol = 2 * w->nm, ngroup = w->nm;
  for (int i = 0; i < w->nsup; i++) {
    ncol += w->supports[i].n * w->supports[i].dirs;
    ngroup += w->supports[i].n;
  }
  bb->ncol = bb->ngroup = 0;
  if (ncol == 0) return 0;
  if (reserve(bb, ncol, ngroup)) return 1;
  for (int i = 0; i < w->nsup; i++) {
    const struct support_friction *sp = &w->supports[i];
    const struct body *b = &w->bodies[sp->body];
    for (int k = 0; k < sp->n; k++) {
      const double local[3] = {sp->p[k][0], sp->p[k][1], 0.0};
      double p[3];
      world_point(w, b, local, p);
      for (int l = 0; l < sp->dirs; l++) {
        const double d[3] = {cos(2.0 * M_PI * l / sp->dirs), sin(2.0 * M_PI * l / sp->dirs), 0.0};
        add_direction(bb, w, sp->body, p, d, 0.0);
      }
      bb->bound[bb->ngroup++] = sp->mu * sp->normal[k] * h;
    }
  }
  for (int i = 0; i < w->nm; i++) {
    const struct motor *m = &w->motors[i];
    const double *x = w->bodies[m->body].x, minus[3] = {-m->axis[0], -m->axis[1], -m->axis[2]};
    add_direction(bb, w, m->body, x, m->axis, m->speed);
    add_direction(bb, w, m->body, x, minus, -m->speed);
    bb->bound[bb->ngroup++] = m->max_force * h;
  }
  return 0;
}
