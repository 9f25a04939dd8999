/* pgs_csr.c — the compressed rows of the splitting methods (splitting.h): M's off-diagonal nonzeros by row
 * and its diagonal, found from the dense matrix by one scan. */
#include "splitting.h"

#include <stdlib.h>
#include <string.h>

long pgs_offdiag_nonzeros(const double *M, int n)
{
  long nnz = 0;
  for (int i = 0; i < n; i++) {
    const double *row = M + (size_t)i * n;
    for (int j = 0; j < n; j++)
      nnz += j != i && row[j] != 0.0;
  }
  return nnz;
}

int pgs_csr_reserve(struct pgs_csr *c, int n, long nnz)
{
  if (n + 1 > c->n + 1 || !c->start) {
    size_t rows = (size_t)n > 0 ? (size_t)n : 1;
    int *start = realloc(c->start, ((size_t)n + 1) * sizeof *start);
    double *diag = start ? realloc(c->diag, rows * sizeof *diag) : NULL;
    if (start) c->start = start;
    if (diag) c->diag = diag;
    if (!start || !diag) return 1;
    c->n = n;
  }
  if (nnz > c->cap || !c->col) {
    size_t want = nnz > 0 ? (size_t)nnz : 1;
    int *col = realloc(c->col, want * sizeof *col);
    double *val = col ? realloc(c->val, want * sizeof *val) : NULL;
    if (col) c->col = col;
    if (val) c->val = val;
    if (!col || !val) return 1;
    c->cap = (int)want;
  }
  return 0;
}

void pgs_csr_free(struct pgs_csr *c)
{
  free(c->start);
  free(c->col);
  free(c->val);
  free(c->diag);
  memset(c, 0, sizeof *c);
}

void pgs_csr_fill(struct pgs_csr *c, const double *M, int n)
{
  int k = 0;
  for (int i = 0; i < n; i++) {
    const double *row = M + (size_t)i * n;
    c->start[i] = k;
    c->diag[i] = row[i];
    for (int j = 0; j < n; j++)
      if (j != i && row[j] != 0.0) {
        c->col[k] = j;
        c->val[k++] = row[j];
      }
  }
  c->start[n] = k;
  c->nnz = k;
}
