/* quasi_rigid3d.h — the 3D half of the quasi_rigid formulation (quasi_rigid3d.c: Chakraborty, Berard, Akella
 * & Trinkle Sec. 5.1, eqs. (33)-(38) with 3-vectors; spheres, superellipsoids, planes, a polyhedron as the
 * rigid body), called by quasi_rigid.c when the world is 3D, as geometric_implicit3d.h is by
 * geometric_implicit.c. kcd: the stiffness k, damping c and maximum deflection delta_max of the compliant
 * layer; e: e_t, e_o, e_r of the friction ellipsoid (eqs. (21)-(22), used in a world with mu > 0). */
#ifndef CB_QUASI_RIGID3D_H
#define CB_QUASI_RIGID3D_H

#include "formulation.h"

struct qr3_data;

int qr3_assemble(struct formulation *f, struct qr3_data **d, const double kcd[3], const double e[3],
                 const struct world *w, const struct contact_set *cs, double h, struct cp_problem **out);
int qr3_recover(struct formulation *f, struct qr3_data *d, const struct world *w, const double *z, double *nu,
                double *pn);
/* The carried state: [nprev; per pair sc, sr, its answers] (formulation.h carry_get / carry_set). */
int qr3_carry_get(const struct qr3_data *d, double *buf, int cap);
int qr3_carry_set(struct formulation *f, struct qr3_data **d, const double *buf, int n);
void qr3_free(struct qr3_data **d);

#endif
