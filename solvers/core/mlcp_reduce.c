/* mlcp_reduce.c — see mlcp_reduce.h: W = A^-1 [C a] by LU, then M' = B - D W_C, q' = b - D w_a, and
 * u = -(W_C v + w_a). */
#include "mlcp_reduce.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mlcp_reduction {
  int n_eq, m;
  double *W; /* n_eq x (m + 1) row-major: A^-1 [C a] */
};

void mlcp_reduction_destroy(struct mlcp_reduction **red)
{
  if (!red || !*red) return;
  free((*red)->W);
  free(*red);
  *red = NULL;
}

int mlcp_reduce(const struct cp_problem *p, struct cp_problem **lcp, struct mlcp_reduction **red, char *msg,
                size_t msg_len)
{
  *lcp = NULL;
  *red = NULL;
  if (msg && msg_len) msg[0] = '\0';
  if (!p || !p->M || !p->q || (p->kind != CP_MLCP && p->kind != CP_LCP)) return 2;
  int n = p->n, ne = p->kind == CP_MLCP ? p->n_eq : 0, m = n - ne, status = 2;
  if (ne < 0 || m < 0) return 2;
  size_t nn = (size_t)n, sne = (size_t)ne, sm = (size_t)m, w1 = sm + 1;
  struct mlcp_reduction *r = calloc(1, sizeof *r);
  struct cp_problem *out = cp_lcp_create(m);
  double *A = malloc((sne ? sne * sne : 1) * sizeof *A);
  int *ipiv = malloc((sne ? sne : 1) * sizeof *ipiv);
  if (!r || !out || !A || !ipiv) goto cleanup;
  r->n_eq = ne;
  r->m = m;
  r->W = malloc((sne ? sne * w1 : 1) * sizeof *r->W);
  if (!r->W) goto cleanup;
  for (size_t i = 0; i < sm; i++) {
    memcpy(out->M + i * sm, p->M + (sne + i) * nn + sne, sm * sizeof *out->M);
    out->q[i] = p->q[sne + i];
  }
  if (ne > 0) {
    for (size_t i = 0; i < sne; i++) {
      memcpy(A + i * sne, p->M + i * nn, sne * sizeof *A);
      memcpy(r->W + i * w1, p->M + i * nn + sne, sm * sizeof *r->W);
      r->W[i * w1 + sm] = p->q[i];
    }
    double anorm = LAPACKE_dlange(LAPACK_ROW_MAJOR, '1', ne, ne, A, ne), rcond = 0.0;
    int info = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, ne, ne, A, ne, ipiv);
    if (info == 0) info = LAPACKE_dgecon(LAPACK_ROW_MAJOR, '1', ne, A, ne, anorm, &rcond);
    if (info != 0 || !(rcond > 1e3 * DBL_EPSILON)) {
      if (msg && msg_len)
        snprintf(msg, msg_len, "equality block A (%d x %d) is singular (rcond %.2g)", ne, ne,
                 info ? 0.0 : rcond);
      status = 1;
      goto cleanup;
    }
    if (LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', ne, m + 1, A, ne, ipiv, r->W, m + 1) != 0) goto cleanup;
    /* [M' | q'] -= D W, with D the n_eq leading columns of the complementary rows. */
    double *Mq = malloc((sm ? sm * w1 : 1) * sizeof *Mq);
    if (!Mq) goto cleanup;
    for (size_t i = 0; i < sm; i++) {
      memcpy(Mq + i * w1, out->M + i * sm, sm * sizeof *Mq);
      Mq[i * w1 + sm] = out->q[i];
    }
    if (m > 0)
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m + 1, ne, -1.0, p->M + sne * nn, n, r->W,
                  m + 1, 1.0, Mq, m + 1);
    for (size_t i = 0; i < sm; i++) {
      memcpy(out->M + i * sm, Mq + i * w1, sm * sizeof *Mq);
      out->q[i] = Mq[i * w1 + sm];
    }
    free(Mq);
  }
  snprintf(out->name, sizeof out->name, "%.100s_reduced", p->name);
  *lcp = out;
  *red = r;
  out = NULL;
  r = NULL;
  status = 0;
cleanup:
  cp_destroy(&out);
  mlcp_reduction_destroy(&r);
  free(A);
  free(ipiv);
  return status;
}

void mlcp_recover(const struct mlcp_reduction *red, const double *v, double *z)
{
  int ne = red->n_eq, m = red->m;
  size_t w1 = (size_t)m + 1;
  for (int i = 0; i < ne; i++) {
    const double *wi = red->W + (size_t)i * w1;
    double s = wi[m];
    for (int j = 0; j < m; j++)
      s += wi[j] * v[j];
    z[i] = -s;
  }
  memmove(z + ne, v, (size_t)m * sizeof *z);
}
