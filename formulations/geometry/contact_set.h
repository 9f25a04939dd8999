/* contact_set.h — a potential contact and the growable set detection fills (design.md contract 5): the
 * features involved (vertex/edge/face ids) are kept, since PEG and the nonconvex formulations need them.
 * Apart from detection so that the narrow phases, the formulations and the stepper share the types
 * without including the detector. */
#ifndef CB_CONTACT_SET_H
#define CB_CONTACT_SET_H

#include "world.h"

/* A potential contact between shape sa (body a) and shape sb (body b). pa, pb: world-frame points on each
 * body (the closest points, or for penetration the deepest point of one feature and its projection);
 * n: unit world normal from b towards a; gap = n . (pa - pb). */
struct contact {
  int a, b;
  int sa, sb;
  double gap;
  double n[3];
  double pa[3], pb[3];
  enum feature_kind fa, fb;
  int ida, idb;
  double mu;
};

struct contact_set {
  int n, cap;
  struct contact *c;
};

int world_detect(const struct world *w, double threshold, struct contact_set *out);
int contact_set_push(struct contact_set *s, const struct contact *c); /* 0 on success */
void contact_set_clear(struct contact_set *s);
void contact_set_free(struct contact_set *s);
/* Largest penetration (max over contacts of -gap, at least 0). */
double contact_set_max_penetration(const struct contact_set *s);
/* "vertex-edge", "edge-edge", ... */
const char *contact_feature_name(const struct contact *c);

#endif
