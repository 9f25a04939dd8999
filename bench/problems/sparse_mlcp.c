/* sparse_mlcp.c — see sparse_mlcp.h: a synthetic contact-structured sparse mixed LCP (Anitescu-Hart eq. 6
 * with a compliance eps I in the contact block). */
#include "sparse_mlcp.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

struct cp_problem *cp_test_sparse_mlcp(int n, unsigned long seed)
{
  if (n < 5) return NULL;
  const int nb = n / 5, nf = 3 * nb, nc = n - nf;
  const double eps = 1e-2;
  struct cp_problem *p = cp_mlcp_create(nf, nc);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!p || !rng) {
    cp_destroy(&p);
    if (rng) gsl_rng_free(rng);
    return NULL;
  }
  gsl_rng_set(rng, seed);
  int w = (int)ceil(sqrt((double)nb)); /* grid width: contacts to the right and the upper neighbour */
  double *M = p->M;
  for (int i = 0; i < nb; i++) {
    double m = 1.0 + gsl_rng_uniform(rng), v[3];
    for (int k = 0; k < 3; k++) {
      double mk = k == 2 ? 0.5 * m : m;
      v[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
      M[(size_t)(3 * i + k) * n + 3 * i + k] = mk;
      p->q[3 * i + k] = -mk * v[k];
    }
  }
  for (int c = 0; c < nc; c++) {
    int a = (c / 2) % nb, b = (a + (c % 2 ? w : 1)) % nb, row = nf + c;
    int bodies[2] = {a, b}, nbody = b == a ? 1 : 2;
    for (int t = 0; t < nbody; t++)
      for (int k = 0; k < 3; k++) {
        int dof = 3 * bodies[t] + k;
        double jv = 2.0 * gsl_rng_uniform(rng) - 1.0;
        M[(size_t)row * n + dof] = jv;  /* D = J */
        M[(size_t)dof * n + row] = -jv; /* C = -J^T */
      }
    M[(size_t)row * n + row] = eps;
    p->q[row] = gsl_rng_uniform(rng) - 0.5;
  }
  snprintf(p->name, sizeof p->name, "sparse_mlcp_n%d_s%lu", n, seed);
  gsl_rng_free(rng);
  return p;
}
