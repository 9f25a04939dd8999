/* joint_block.c — joint impulses as the free block of an impulse-eliminated LCP (see joint_block.h;
 * Anitescu & Hart eq. 6 rows, Egan et al. eq. 3 elimination). */
#include "joint_block.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void joint_block_free(struct joint_block *jb)
{
  free(jb->col);
  free(jb->phi);
  memset(jb, 0, sizeof *jb);
}

static int reserve(struct joint_block *jb, int nj)
{
  if (nj <= jb->cap) return 0;
  struct jcol *c = realloc(jb->col, (size_t)nj * sizeof *c);
  if (c) jb->col = c;
  double *phi = realloc(jb->phi, (size_t)nj * sizeof *phi);
  if (phi) jb->phi = phi;
  if (!c || !phi) return 1;
  jb->cap = nj;
  return 0;
}

int joint_block_wrap(struct joint_block *jb, const struct world *w, double h, const double *nu_free,
                     const struct jcol *const *rdir, const struct jcol *const *rsub,
                     const struct jcol *const *ucol, struct cp_problem **p)
{
  int nj = jacobian_joint_rows(w);
  jb->nj = nj;
  if (nj == 0) return 0;
  struct cp_problem *lcp = *p;
  int m = lcp->n, n = nj + m;
  struct cp_problem *q = reserve(jb, nj) ? NULL : cp_mlcp_create(nj, m);
  if (!q) {
    cp_destroy(p);
    return 1;
  }
  jacobian_joint_columns(w, jb->col, jb->phi);
  for (int j = 0; j < nj;
       j++) { /* joint rows: nu~_j' (nu_free + M^-1 (nu~ c_nu + sum col_u z_u)) + Phi_j/h */
    const struct jcol *J = &jb->col[j];
    double *row = q->M + (size_t)j * n;
    for (int k = 0; k < nj; k++)
      row[k] = jcol_dot_minv(J, &jb->col[k]);
    for (int u = 0; u < m; u++)
      row[nj + u] = ucol[u] ? jcol_dot_minv(J, ucol[u]) : 0.0;
    q->q[j] = jcol_dot(J, nu_free) + jb->phi[j] / h;
  }
  for (int r = 0; r < m; r++) { /* the formulation's rows, shifted, plus what nu~ c_nu adds to their nu+ */
    double *row = q->M + (size_t)(nj + r) * n;
    memcpy(row + nj, lcp->M + (size_t)r * m, (size_t)m * sizeof *row);
    q->q[nj + r] = lcp->q[r];
    for (int k = 0; k < nj && rdir[r]; k++)
      row[k] =
          jcol_dot_minv(rdir[r], &jb->col[k]) - (rsub && rsub[r] ? jcol_dot_minv(rsub[r], &jb->col[k]) : 0.0);
  }
  snprintf(q->name, sizeof q->name, "%.100s joints=%d", lcp->name, nj);
  cp_destroy(p);
  *p = q;
  return 0;
}

void joint_block_recover(const struct joint_block *jb, const double *z, double *nu)
{
  for (int j = 0; j < jb->nj; j++)
    jcol_axpy_minv(&jb->col[j], z[j], nu);
}
