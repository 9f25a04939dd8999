/* problem_class.c — see problem_class.h. The contact classes are the Stewart-Trinkle LCP of Egan et al.
 * eqs. 5-7 (cp_test_box_contact: 4 corner contacts per box, k = 4 friction directions, so 24 unknowns per
 * box); the Egan classes are Fig. 3 (eqs. 13-22 and 25-28); Murty (1978); the nonlinear classes are the
 * mixed NCPs of testncp.h (the disc on a plane, Chakraborty et al. eqs. 41-47). */
#include "problem_class.h"

#include "boxed_class.h"
#include "cp_io.h"
#include "sparse_mlcp.h"
#include "testncp.h"
#include "testproblems.h"

#include <glob.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Unknowns per box of the contact classes: 4 contacts x (1 normal + k friction + 1 slack), k = 4. */
#define CP_CLASS_BOX_UNKNOWNS 24
/* The generated classes are dense (an N x N matrix of doubles): N at most 16384, a 2.1 GB matrix, so that a
 * misspelt size asks for no more (100000 would be 80 GB). */
#define CP_CLASS_MAX_N 16384
/* Contact classes: step h and corner gaps below gap_max = 1e-6 < h^2 g, so that every corner is in contact
 * (cp_test_box_contact's 1e-4 leaves most corners of a single box open: z = 0 solves 2 in 3 one-box LCPs). */
static const double cp_class_h = 1e-3, cp_class_gap_max = 1e-6;

static const char *const cp_class_builtin =
    "spd10,spd100,spd1000,resting24,sliding24,resting120,sliding120,resting600,sliding600,murty10,murty16,"
    "egan_max_a,egan_max_b,egan_sum_1,egan_sum_2,ncp_disc_roll,ncp_disc_slide,ncp_disc_rand,ncp_mixed30,"
    "ncp_mixed300,ncp_kojima_shindo,mcp_siconos10";

static const char cp_class_file_prefix[] = "siconos:";
/* "file:PATH": a problem file as given (relative to the working directory), in any format cp_io reads —
 * the plain files -cp_dump_failed writes (the failed steps of a driver's run) among them. */
static const char cp_class_path_prefix[] = "file:";

/* "prefixN" with N a positive integer in range: N, else 0. */
static int cp_class_sized(const char *name, const char *prefix)
{
  size_t k = strlen(prefix);
  if (strncmp(name, prefix, k) != 0 || name[k] < '1' || name[k] > '9') return 0;
  char *end;
  long v = strtol(name + k, &end, 10);
  return (*end == '\0' && v >= 1 && v <= CP_CLASS_MAX_N) ? (int)v : 0;
}

/* A sized class's name whose size is above CP_CLASS_MAX_N (its size, else 0): for the message. */
static long cp_class_oversized(const char *name)
{
  static const char *const prefix[] = {"spd", "resting", "sliding", "murty", "ncp_mixed", "sparse_mlcp"};
  for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++) {
    size_t k = strlen(prefix[i]);
    if (strncmp(name, prefix[i], k) != 0 || name[k] < '1' || name[k] > '9') continue;
    char *end;
    long v = strtol(name + k, &end, 10);
    if (*end == '\0' && v > CP_CLASS_MAX_N) return v;
  }
  return 0;
}

static int cp_class_boxes(const char *name, int *sliding)
{
  int n = cp_class_sized(name, "resting");
  *sliding = 0;
  if (!n) {
    n = cp_class_sized(name, "sliding");
    *sliding = 1;
  }
  return n % CP_CLASS_BOX_UNKNOWNS == 0 ? n / CP_CLASS_BOX_UNKNOWNS : 0;
}

/* The file of a file class: "siconos:PATH" (*in_data = 1: under the data folder) or "file:PATH"
 * (*in_data = 0); NULL for the other classes. */
static const char *cp_class_file_in(const char *name, int *in_data)
{
  size_t k = sizeof cp_class_file_prefix - 1, kp = sizeof cp_class_path_prefix - 1;
  *in_data = 1;
  if (strncmp(name, cp_class_file_prefix, k) == 0 && name[k] != '\0') return name + k;
  *in_data = 0;
  if (strncmp(name, cp_class_path_prefix, kp) == 0 && name[kp] != '\0') return name + kp;
  return NULL;
}

/* The file of a file class as opened: under data_dir for siconos:, as given for file:. Nonzero when it
 * does not fit. */
static int cp_class_path(const char *name, const char *data_dir, char *path, size_t n)
{
  int in_data;
  const char *file = cp_class_file_in(name, &in_data);
  int len =
      in_data ? snprintf(path, n, "%s/%s", data_dir ? data_dir : ".", file) : snprintf(path, n, "%s", file);
  return len < 0 || (size_t)len >= n;
}

static const char *cp_class_file(const char *name)
{
  int in_data;
  return cp_class_file_in(name, &in_data);
}

/* Egan classes: the free gap rates (a1, a2) of Fig. 3, cases (a) and (b). */
static int cp_class_egan(const char *name, int *max_form, double *a2)
{
  static const struct {
    const char *name;
    int max_form;
    double a2;
  } egan[4] = {
      {"egan_max_a", 1, 0.5}, {"egan_max_b", 1, -0.5}, {"egan_sum_1", 0, -0.5}, {"egan_sum_2", 0, 0.5}};
  for (int i = 0; i < 4; i++)
    if (strcmp(name, egan[i].name) == 0) {
      *max_form = egan[i].max_form;
      *a2 = egan[i].a2;
      return 1;
    }
  return 0;
}

/* The nonlinear (callback) classes of fixed size: their n, else 0. */
static int cp_class_ncp_fixed(const char *name)
{
  if (strcmp(name, "ncp_disc_roll") == 0 || strcmp(name, "ncp_disc_slide") == 0 ||
      strcmp(name, "ncp_disc_rand") == 0)
    return 11;
  if (strcmp(name, "ncp_kojima_shindo") == 0) return 4;
  if (strcmp(name, "mcp_siconos10") == 0) return 10;
  return 0;
}

/* The disc on a plane (Chakraborty et al. Sec. 6.1) at h = 0.01: the paper's rolling state, sliding without
 * spin at 2 m/s, or (random) resting on the plane at x in [-1, 1] with v_x, omega uniform in [-3, 3]. */
static struct cp_problem *cp_class_disc(const char *name, unsigned long seed)
{
  struct cp_test_disc d = cp_test_disc_rolling(0.01);
  if (strcmp(name, "ncp_disc_slide") == 0) {
    d.vx = 2.0;
    d.omega = 0.0;
  } else if (strcmp(name, "ncp_disc_rand") == 0) {
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) return NULL;
    gsl_rng_set(rng, seed);
    d.qx = 2.0 * gsl_rng_uniform(rng) - 1.0;
    d.vx = 6.0 * gsl_rng_uniform(rng) - 3.0;
    d.omega = 6.0 * gsl_rng_uniform(rng) - 3.0;
    gsl_rng_free(rng);
  }
  return cp_test_disc_step(&d);
}

int cp_class_random(const char *name)
{
  int sliding;
  return cp_class_sized(name, "spd") > 0 || cp_class_boxes(name, &sliding) > 0 ||
         cp_class_sized(name, "ncp_mixed") > 0 || strcmp(name, "ncp_disc_rand") == 0 ||
         cp_class_sized(name, "sparse_mlcp") >= 5;
}

int cp_class_valid(const char *name)
{
  int max_form;
  double a2;
  return cp_class_random(name) || cp_class_sized(name, "murty") > 0 || cp_class_egan(name, &max_form, &a2) ||
         cp_class_ncp_fixed(name) > 0 || cp_class_file(name) != NULL || cp_boxed_class_valid(name);
}

int cp_class_check(const char *name, const char *data_dir, char *err, size_t errlen)
{
  int in_data;
  char path[4096];
  struct stat st;
  if (!cp_class_valid(name)) {
    struct cp_problem *p = NULL; /* its message lists the classes */
    cp_class_create(name, 0, data_dir, &p, err, errlen);
    cp_destroy(&p);
    return 1;
  }
  if (!cp_class_file_in(name, &in_data)) return 0;
  if (cp_class_path(name, data_dir, path, sizeof path)) {
    snprintf(err, errlen, "%s: path too long", name);
    return 1;
  }
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0) return 0;
  /* without the data folder every siconos: problem is not_applicable (a machine without the data) */
  if (in_data && (stat(data_dir ? data_dir : ".", &st) != 0 || !S_ISDIR(st.st_mode))) return 0;
  snprintf(err, errlen, "%s: %s is not a readable file%s", name, path,
           in_data ? " of the data folder (a misspelt name?)" : "");
  return 1;
}

enum cp_class_status cp_class_create(const char *name, unsigned long seed, const char *data_dir,
                                     struct cp_problem **p, char *err, size_t errlen)
{
  *p = NULL;
  if (errlen) err[0] = '\0';
  int n, sliding, max_form;
  double a2;
  int in_data;
  char path[4096];
  if (cp_class_file_in(name, &in_data)) {
    if (cp_class_path(name, data_dir, path, sizeof path)) {
      snprintf(err, errlen, "%s: path too long", name);
      return CP_CLASS_FAILED;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
      if (in_data)
        snprintf(err, errlen, "%s: no such file (data folder %s)", path, data_dir ? data_dir : ".");
      else
        snprintf(err, errlen, "%s: no such file", path);
      return CP_CLASS_MISSING;
    }
    fclose(f);
    return cp_read_file(path, CP_FILE_AUTO, p, err, errlen) == 0 ? CP_CLASS_OK : CP_CLASS_FAILED;
  }
  if ((n = cp_class_sized(name, "spd")) > 0)
    *p = cp_test_spd(n, seed);
  else if ((n = cp_class_boxes(name, &sliding)) > 0)
    *p = cp_test_box_contact_gap(n, 4, 0.5, sliding, cp_class_h, cp_class_gap_max, seed);
  else if ((n = cp_class_sized(name, "murty")) > 0)
    *p = cp_test_murty(n);
  else if (cp_class_egan(name, &max_form, &a2))
    *p = max_form ? cp_test_egan_max(-1.5, a2, 100.0) : cp_test_egan_sum(-1.5, a2, 0.01);
  else if ((n = cp_class_sized(name, "ncp_mixed")) > 0)
    *p = cp_test_ncp_mixed(n / 3, n - n / 3, 1.0, seed, NULL);
  else if ((n = cp_class_sized(name, "sparse_mlcp")) >= 5)
    *p = cp_test_sparse_mlcp(n, seed);
  else if (strncmp(name, "ncp_disc_", 9) == 0 && cp_class_ncp_fixed(name))
    *p = cp_class_disc(name, seed);
  else if (strcmp(name, "ncp_kojima_shindo") == 0)
    *p = cp_test_kojima_shindo();
  else if (strcmp(name, "mcp_siconos10") == 0)
    *p = cp_test_mcp_siconos();
  else if (cp_boxed_class_valid(name))
    return cp_boxed_class_create(name, p, err, errlen) ? CP_CLASS_FAILED : CP_CLASS_OK;
  else if (cp_class_oversized(name)) {
    snprintf(err, errlen,
             "problem class '%s': N = %ld is above %d (the generated classes are dense: an N x N matrix, "
             "%.2g GB at the limit)",
             name, cp_class_oversized(name), CP_CLASS_MAX_N,
             (double)CP_CLASS_MAX_N * CP_CLASS_MAX_N * sizeof(double) / 1e9);
    return CP_CLASS_UNKNOWN;
  } else {
    snprintf(
        err, errlen,
        "unknown problem class '%s' (spdN, restingN, slidingN with N a multiple of 24, murtyN, egan_max_a, "
        "egan_max_b, egan_sum_1, egan_sum_2, ncp_disc_roll, ncp_disc_slide, ncp_disc_rand, ncp_mixedN, "
        "ncp_kojima_shindo, mcp_siconos10, sparse_mlcpN, boxed_incline, boxed_incline_3d, boxed_hex_pyramid, "
        "boxed_box_stack, boxed_cannonball, boxed_polygon_box, siconos:PATH, file:PATH)",
        name);
    return CP_CLASS_UNKNOWN;
  }
  if (!*p) {
    snprintf(err, errlen, "%s: out of memory", name);
    return CP_CLASS_FAILED;
  }
  return CP_CLASS_OK;
}

int cp_class_size(const char *name, const char *data_dir)
{
  int n, sliding, max_form;
  double a2;
  if ((n = cp_class_sized(name, "spd")) > 0 || (n = cp_class_sized(name, "murty")) > 0 ||
      (n = cp_class_sized(name, "ncp_mixed")) > 0 || (n = cp_class_ncp_fixed(name)) > 0 ||
      (n = cp_class_sized(name, "sparse_mlcp")) >= 5)
    return n;
  if ((n = cp_class_boxes(name, &sliding)) > 0) return n * CP_CLASS_BOX_UNKNOWNS;
  if (cp_class_egan(name, &max_form, &a2)) return max_form ? 10 : 4;
  if (!cp_class_file(name) && !cp_boxed_class_valid(name)) return -1;
  struct cp_problem *p = NULL;
  char err[256];
  if (cp_class_create(name, 0, data_dir, &p, err, sizeof err) != CP_CLASS_OK) return -1;
  n = p->n;
  cp_destroy(&p);
  return n;
}

/* Appends ",siconos:SUB/X.dat" for every data_dir/SUB/X.dat (glob sorts them). */
static int cp_class_append_files(char **list, size_t *len, const char *data_dir, const char *sub)
{
  char pattern[4096];
  if (snprintf(pattern, sizeof pattern, "%s/%s/*.dat", data_dir, sub) >= (int)sizeof pattern) return 0;
  glob_t g;
  if (glob(pattern, 0, NULL, &g) != 0) return 0; /* no match or no folder: nothing to add */
  size_t skip = strlen(data_dir) + 1;
  int status = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *rel = g.gl_pathv[i] + skip;
    size_t add = 1 + strlen(cp_class_file_prefix) + strlen(rel);
    char *grown = realloc(*list, *len + add + 1);
    if (!grown) {
      status = 1;
      break;
    }
    *list = grown;
    *len += (size_t)sprintf(*list + *len, ",%s%s", cp_class_file_prefix, rel);
  }
  globfree(&g);
  return status;
}

char *cp_class_default_list(const char *data_dir)
{
  size_t len = strlen(cp_class_builtin);
  char *list = malloc(len + 1);
  if (!list) return NULL;
  memcpy(list, cp_class_builtin, len + 1);
  if (data_dir && (cp_class_append_files(&list, &len, data_dir, "lcp") != 0 ||
                   cp_class_append_files(&list, &len, data_dir, "mlcp") != 0)) {
    free(list);
    return NULL;
  }
  return list;
}
