/* corpus_export.c — linear problems as Siconos numerics .dat files (corpus.h; the formats cp_io.c reads: LCP,
 * MLCP, and FrictionContactProblem as frictionContact_printInFile writes it), and
 * a whole corpus exported to a folder all or nothing: the files are written into a fresh folder beside the
 * target (mkdtemp: nothing in it to follow, each file created with O_EXCL | O_NOFOLLOW), which is renamed to
 * the target only when every file is written; a failure removes it and names the file. A problem's name
 * becomes a file name, so the reader refuses names with characters other than letters, digits, '_', '-',
 * '.' (corpus_name_bad, '/' among them): such a problem is corrupt and left out with the reason. */
#include "corpus_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A dense NumericsMatrix (storage 0: rows cols, rows cols again, then column by column). */
static void dense_text(FILE *fp, const double *M, int n)
{
  fprintf(fp, "0\n%d %d\n%d %d\n", n, n, n, n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      fprintf(fp, "%.17g%c", M[(size_t)i * n + j], i + 1 == n ? '\n' : ' ');
}

/* Problem p's .dat text into fp: 0, or 1 when p is not a linear LCP / MLCP / frictional-contact problem (err
 * says why). */
static int siconos_text(FILE *fp, const struct cp_problem *p, char *err, size_t len)
{
  if (!cp_is_linear(p)) return corpus_fail(err, len, "%s: a callback problem", p->name);
  if (p->kind == CP_BOXED) /* left out with a note, as the kinds Siconos has no file for */
    return corpus_fail(
        err, len, "%s: a boxed LCP (Siconos' LCP and MLCP files have no bounds or friction index)", p->name);
  const int n = p->n, ne = p->n_eq, m = n - ne;
  if (p->kind == CP_FC && p->fc_relaxed)
    return corpus_fail(err, len,
                       "%s: the cone complementarity relaxation (Siconos' FrictionContactProblem is "
                       "Coulomb's law)",
                       p->name);
  if (p->kind == CP_FC) { /* d, nc, W, q, mu (Siconos' frictionContact_printInFile) */
    fprintf(fp, "%d\n%d\n", p->fc_dim, n / p->fc_dim);
    dense_text(fp, p->M, n);
    for (int i = 0; i < n; i++)
      fprintf(fp, "%.17g\n", p->q[i]);
    for (int c = 0; c < n / p->fc_dim; c++)
      fprintf(fp, "%.17g\n", p->mu[c]);
    return 0;
  }
  for (int i = ne; i < n; i++)
    if (p->lo[i] != 0.0 || !isinf(p->hi[i]))
      return corpus_fail(err, len, "%s: row %d has bounds [%g, %g], not an LCP row", p->name, i, p->lo[i],
                         p->hi[i]);
  if (p->kind == CP_LCP || ne == 0) {
    /* n, M, q */
    fprintf(fp, "%d\n", n);
    dense_text(fp, p->M, n);
  } else {
    /* isStorageType1 0, isStorageType2 1, n, m, A, B, C, D row by row, a, b */
    const int r0[4] = {0, ne, 0, ne}, c0[4] = {0, ne, ne, 0}, nr[4] = {ne, m, ne, m}, nc[4] = {ne, m, m, ne};
    fprintf(fp, "0\n1\n%d\n%d\n", ne, m);
    for (int b = 0; b < 4; b++)
      for (int i = 0; i < nr[b]; i++)
        for (int j = 0; j < nc[b]; j++)
          fprintf(fp, "%.17g%c", p->M[(size_t)(r0[b] + i) * n + c0[b] + j], j + 1 == nc[b] ? '\n' : ' ');
  }
  for (int i = 0; i < n; i++)
    fprintf(fp, "%.17g\n", p->q[i]);
  return 0;
}

/* Closes fp, whose file is shown as path: 0, or 1 with err when anything written to it failed. */
static int close_checked(FILE *fp, const char *path, char *err, size_t len)
{
  int bad = fflush(fp) != 0 || ferror(fp), e = errno;
  if (fclose(fp) != 0 && !bad) bad = 1, e = errno;
  return bad ? corpus_fail(err, len, "%s: write failed: %s", path, strerror(e)) : 0;
}

int corpus_write_siconos(const char *path, const struct cp_problem *p, char *err, size_t len)
{
  if (!cp_is_linear(p)) return corpus_fail(err, len, "%s: a callback problem", p->name);
  FILE *fp = fopen(path, "w");
  if (!fp) return corpus_fail(err, len, "%s: cannot write: %s", path, strerror(errno));
  if (siconos_text(fp, p, err, len)) {
    fclose(fp);
    return 1;
  }
  return close_checked(fp, path, err, len);
}

/* Removes the folder tmp and the files in it (the export's own: no subfolders). */
static void remove_folder(const char *tmp)
{
  DIR *d = opendir(tmp);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) unlinkat(dirfd(d), e->d_name, 0);
  if (d) closedir(d);
  rmdir(tmp);
}

/* Problem i of c into the folder dfd (shown as dir) as NAME_lcp.dat / NAME_mlcp.dat / NAME_fc3d.dat /
 * NAME_fc2d.dat: 0 written, 3 left out (a note says why), 1 a write failed (err names the file). */
static int export_one(const struct corpus *c, int i, int dfd, const char *dir, char *err, size_t len)
{
  const struct corpus_meta *m = corpus_meta_at(c, i);
  char file[CORPUS_NAME_MAX + 16], shown[1300], why[512];
  struct cp_problem *p = NULL;
  if (corpus_corrupt(c, i)) {
    fprintf(stderr, "note: problem %d left out: corrupt: %s\n", i, corpus_corrupt(c, i));
    return 3;
  }
  /* cp_io guesses the Siconos flavour from the name: "mlcp" in it means an MLCP, "fc3d" / "fc2d" frictional
   * contact */
  const int fc = strcmp(m->kind, "fc") == 0;
  snprintf(file, sizeof file, "%s_%s.dat", m->name,
           fc                             ? (m->fc_dim == 2 ? "fc2d" : "fc3d")
           : strcmp(m->kind, "mlcp") == 0 ? "mlcp"
                                          : "lcp");
  snprintf(shown, sizeof shown, "%s/%s", dir, file);
  if (corpus_read(c, i, &p, why, sizeof why)) {
    fprintf(stderr, "note: %s left out: %s\n", m->name, why);
    return 3;
  }
  int fd = openat(dfd, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
  int rc = 0;
  if (!fp) {
    rc = corpus_fail(err, len, "%s: cannot create: %s", shown, strerror(errno));
    if (fd >= 0) close(fd);
  } else if (siconos_text(fp, p, why, sizeof why)) {
    fclose(fp);
    unlinkat(dfd, file, 0);
    fprintf(stderr, "note: %s left out: %s\n", m->name, why);
    rc = 3;
  } else {
    rc = close_checked(fp, shown, err, len);
  }
  cp_destroy(&p);
  return rc;
}

/* dir may become the export: absent, or an empty folder (not a symbolic link). 0, or 2 with err. */
static int target_ok(const char *dir, char *err, size_t len)
{
  struct stat st;
  if (lstat(dir, &st) != 0)
    return errno == ENOENT ? 0 : (corpus_fail(err, len, "%s: %s", dir, strerror(errno)), 2);
  if (S_ISLNK(st.st_mode))
    return corpus_fail(err, len, "%s is a symbolic link: give the folder itself", dir), 2;
  if (!S_ISDIR(st.st_mode)) return corpus_fail(err, len, "%s exists and is not a folder", dir), 2;
  DIR *d = opendir(dir);
  struct dirent *e;
  int empty = d != NULL;
  while (d && empty && (e = readdir(d)))
    empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
  if (d) closedir(d);
  if (!empty)
    return corpus_fail(err, len,
                       "%s is not empty: the export writes a folder of its own (a new or empty one)", dir),
           2;
  return 0;
}

int corpus_export_siconos(const struct corpus *c, const char *dir, int *written, int *left_out, char *err,
                          size_t len)
{
  char tmp[1100];
  *written = *left_out = 0;
  int rc = target_ok(dir, err, len);
  if (rc) return rc;
  char *copy = strdup(dir), *copy2 = strdup(dir);
  if (!copy || !copy2 ||
      snprintf(tmp, sizeof tmp, "%s/.%s.export-XXXXXX", dirname(copy), basename(copy2)) >= (int)sizeof tmp)
    rc = corpus_fail(err, len, "%s: path too long", dir);
  free(copy);
  free(copy2);
  if (rc || !mkdtemp(tmp))
    return rc ? 1 : corpus_fail(err, len, "%s: cannot make a folder beside it: %s", dir, strerror(errno));
  int dfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  const mode_t mask = umask(0);
  umask(mask);
  if (dfd < 0 || fchmod(dfd, 0777 & ~mask) != 0) /* mkdtemp's 0700 would be the export's */
    rc = corpus_fail(err, len, "%s: cannot open it: %s", tmp, strerror(errno));
  for (int i = 0; i < corpus_count(c) && !rc; i++) {
    int one = export_one(c, i, dfd, dir, err, len);
    *written += one == 0, *left_out += one == 3;
    rc = one == 1;
  }
  if (dfd >= 0 && fsync(dfd) != 0 && !rc) rc = corpus_fail(err, len, "%s: %s", tmp, strerror(errno));
  if (dfd >= 0) close(dfd);
  if (!rc && rename(tmp, dir) != 0)
    rc = corpus_fail(err, len, "%s: cannot rename %s to it: %s", dir, tmp, strerror(errno));
  if (rc) remove_folder(tmp);
  return rc;
}
