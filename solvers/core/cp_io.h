/* cp_io.h — reading and writing complementarity problems from files.
 * Formats: plain text (ours; see cp_io.c), Siconos numerics LCP .dat (dense and sparse-block storage),
 * Siconos numerics MLCP .dat, Siconos' FrictionContactProblem .dat (dense, sparse-block or sparse W). Errors
 * are reported in err as "FILE:LINE: what is wrong" and the function returns nonzero; no partial problem is
 * returned. */
#ifndef CB_CP_IO_H
#define CB_CP_IO_H

#include "cp.h"

#include <stddef.h>

enum cp_file_format {
  CP_FILE_AUTO,
  CP_FILE_PLAIN,
  CP_FILE_SICONOS_LCP,
  CP_FILE_SICONOS_MLCP,
  CP_FILE_SICONOS_FC /* FrictionContactProblem: d, nc, W (dense, sparse block or sparse), q, mu */
};

/* auto: a name ending in ".dat" is Siconos: frictional contact under a folder fc3d/ or fc2d/ or with fc3d or
 * fc2d in its name, MLCP if the base name contains "mlcp", else LCP; anything else plain. */
enum cp_file_format cp_file_format_guess(const char *path);

/* The largest file cp_read_file reads (1 GiB: a dense n = 5000 problem written with 17 digits is 0.6 GB). */
#define CP_IO_MAX_FILE_BYTES ((size_t)1 << 30)

/* A directory, a file with NUL bytes (e.g. /dev/zero) or one larger than the limit is refused with a
 * message; a UTF-8 byte order mark at the start is skipped; bytes from the file appear in messages escaped
 * (\xNN). Numbers are read whole, whatever their length; subnormals are accepted. */
int cp_read_file(const char *path, enum cp_file_format format, struct cp_problem **p, char *err,
                 size_t errlen);
/* Same with the size limit given (tests use a small one). */
int cp_read_file_limited(const char *path, enum cp_file_format format, size_t max_bytes,
                         struct cp_problem **p, char *err, size_t errlen);
/* Same, from text in memory; name is used in messages. */
int cp_read_text(const char *text, const char *name, enum cp_file_format format, struct cp_problem **p,
                 char *err, size_t errlen);
/* Writes the plain format (17 significant digits: reading it back gives the same doubles). */
int cp_write_plain(const char *path, const struct cp_problem *p, char *err, size_t errlen);

#endif
