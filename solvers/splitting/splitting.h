/* splitting.h — the splitting methods (Cottle-Pang-Stone, The LCP, Sec. 5.2): projected Gauss-Seidel and SOR
 *   z_i <- mid(lo_i, hi_i, z_i - omega F_i(z) / M_ii),  F(z) = M z + q,
 * on dense rows or on compressed rows (CSR) of M's off-diagonal nonzeros, whose structure is found once per
 * problem: a sweep then costs O(nnz) instead of O(n^2) (Bullet's PGS walks each row's nonzeros the same way).
 * The compressed rows are filled from the dense M inside the solve, so the scan is timed with it; setup only
 * counts the nonzeros to size them. */
#ifndef CB_SPLITTING_H
#define CB_SPLITTING_H

struct pgs_csr {
  int n, nnz, cap;
  int *start;   /* n + 1 row starts */
  int *col;     /* off-diagonal column indices, row by row */
  double *val;  /* their values */
  double *diag; /* M_ii (divided by in the sweep: 1 / M_ii overflows for a subnormal M_ii) */
};

/* The nonzeros of M (n x n row-major) off its diagonal. */
long pgs_offdiag_nonzeros(const double *M, int n);
/* Sizes c for n rows and nnz off-diagonal entries (reusing its arrays when they are large enough): 0, or 1
 * when out of memory. */
int pgs_csr_reserve(struct pgs_csr *c, int n, long nnz);
void pgs_csr_free(struct pgs_csr *c);
/* Fills c (reserved for M's nonzeros) from M. */
void pgs_csr_fill(struct pgs_csr *c, const double *M, int n);

#endif
