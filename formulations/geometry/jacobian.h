/* jacobian.h — sparse generalised constraint directions shared by the formulations. A column of W_n, W_f
 * (Egan et al. eq. 3) or of the joint matrix nu~ (Anitescu-Hart eq. 6) touches at most two bodies, so it is
 * stored as two dof blocks; W^T M^-1 W entries are dot products over the blocks the columns share. */
#ifndef CB_JACOBIAN_H
#define CB_JACOBIAN_H

#include "contact_set.h"

struct jcol {
  int dof[2];     /* dof offset of each block, -1 when that body is static / absent */
  int bs;         /* block size: 3 (2D) or 6 (3D) */
  double v[2][6]; /* the column */
  double m[2][6]; /* M^-1 times the column */
};

/* The direction dir applied at world point pa on body a and -dir at pb on body b (b = -1: the world). */
void jcol_make(const struct world *w, int a, const double pa[3], int b, const double pb[3],
               const double dir[3], struct jcol *c);
void jcol_contact(const struct world *w, const struct contact *ct, const double dir[3], struct jcol *c);
double jcol_dot_minv(const struct jcol *x, const struct jcol *y); /* x^T M^-1 y */
double jcol_dot(const struct jcol *x, const double *nu);
void jcol_axpy_minv(const struct jcol *x, double s, double *nu); /* nu += s M^-1 x */
void jcol_axpy(const struct jcol *x, double s, double *g);       /* g += s x (a generalised impulse) */

/* Bilateral joints (Anitescu-Hart eq. 6, nu~): rows per joint (2D revolute 2, 3D ball 3), one column per
 * pinned world axis, and each row's violation phi = (pa - pb) along that axis. col, phi: joint_rows(w). */
int jacobian_joint_rows(const struct world *w);
void jacobian_joint_columns(const struct world *w, struct jcol *col, double *phi);

/* Free-flight velocity nu + h M^-1 k (k: gravity, applied and gyroscopic forces); work: ndof doubles. */
void jacobian_free_velocity(const struct world *w, double h, double *nu_free, double *work);

#endif
