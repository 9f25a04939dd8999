/* corpus_stream.c — captured problems as records on a pipe (corpus_stream.h). A record: struct head (its
 * total length first), struct corpus_meta, the doubles (linear: q, lo, hi, M row-major, kind fc's mu;
 * callback: lo, hi, z0, F(z0), the carried state), a boxed problem's friction indices (int32), then the world
 * and option texts, padded to 8 bytes so the next record's doubles stay aligned. Records are gathered in a
 * buffer and written a buffer at a time. */
#include "corpus_stream.h"

#include "corpus_layout.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

enum { REC_NONE = 0, REC_LINEAR = 1, REC_CALLBACK = 2 };
_Static_assert(sizeof(int) == sizeof(int32_t), "a boxed problem's findex (int) is sent as int32");

struct head {
  uint64_t total; /* bytes of the whole record, padding included */
  int32_t kind, n, n_eq, type, carry_n, warm, fc_dim, fc_relaxed;
  uint64_t world_len, options_len;
};

static size_t n_doubles(const struct head *h)
{
  const size_t n = (size_t)h->n;
  if (h->type == REC_LINEAR) return (size_t)corpus_linear_extra(h->n, h->fc_dim) + n * n;
  if (h->type == REC_CALLBACK) return 4 * n + (size_t)h->carry_n;
  return 0;
}

/* A boxed linear problem's friction indices. */
static size_t n_findex(const struct head *h)
{
  return h->type == REC_LINEAR && h->kind == CP_BOXED ? (size_t)h->n : 0;
}

static size_t record_bytes(const struct head *h)
{
  size_t b = sizeof *h + sizeof(struct corpus_meta) + n_doubles(h) * sizeof(double) +
             n_findex(h) * sizeof(int32_t) + h->world_len + h->options_len;
  return (b + 7) & ~(size_t)7;
}

/* writev until every byte is out (a pipe takes a large record in pieces). */
static int write_iov(int fd, struct iovec *iov, int cnt)
{
  while (cnt > 0) {
    ssize_t w = writev(fd, iov, cnt);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return 1;
    size_t done = (size_t)w;
    while (cnt > 0 && done >= iov->iov_len) {
      done -= iov->iov_len;
      iov++;
      cnt--;
    }
    if (cnt > 0) {
      iov->iov_base = (char *)iov->iov_base + done;
      iov->iov_len -= done;
    }
  }
  return 0;
}

int corpus_stream_flush(struct corpus_stream_out *o)
{
  struct iovec iov = {o->buf, o->len};
  int rc = o->len ? write_iov(o->fd, &iov, 1) : 0;
  o->len = 0;
  return rc;
}

/* Gathers the record's pieces into o's buffer when it fits, else writes what is gathered and then it. */
static int put_iov(struct corpus_stream_out *o, struct iovec *iov, int cnt, size_t total)
{
  if (!o->buf && !(o->buf = malloc(CORPUS_STREAM_BUFFER))) return 1;
  if (o->len + total > CORPUS_STREAM_BUFFER && corpus_stream_flush(o)) return 1;
  if (total > CORPUS_STREAM_BUFFER) return write_iov(o->fd, iov, cnt);
  for (int i = 0; i < cnt; i++) {
    if (iov[i].iov_len) memcpy(o->buf + o->len, iov[i].iov_base, iov[i].iov_len);
    o->len += iov[i].iov_len;
  }
  return 0;
}

int corpus_stream_put(struct corpus_stream_out *o, const struct cp_problem *p, const struct corpus_meta *m,
                      const struct corpus_callback *cb)
{
  const int linear = cp_is_linear(p);
  struct head h = {.kind = (int32_t)p->kind,
                   .n = p->n,
                   .n_eq = p->n_eq,
                   .fc_dim = linear ? p->fc_dim : 0,
                   .fc_relaxed = linear ? p->fc_relaxed : 0,
                   .type = linear ? REC_LINEAR
                           : cb   ? REC_CALLBACK
                                  : REC_NONE,
                   .carry_n = !linear && cb ? cb->carry_n : 0,
                   .warm = !linear && cb ? cb->warm : 0,
                   .world_len = !linear && cb ? cb->world_len : 0,
                   .options_len = !linear && cb ? cb->options_len : 0};
  h.total = record_bytes(&h);
  const size_t n = (size_t)p->n, nb = n * sizeof(double);
  static const char pad[8];
  struct iovec iov[10];
  int c = 0;
  iov[c++] = (struct iovec){&h, sizeof h};
  iov[c++] = (struct iovec){(void *)m, sizeof *m};
  if (h.type == REC_LINEAR) {
    iov[c++] = (struct iovec){p->q, nb};
    iov[c++] = (struct iovec){p->lo, nb};
    iov[c++] = (struct iovec){p->hi, nb};
    iov[c++] = (struct iovec){p->M, n * nb};
    if (p->fc_dim) iov[c++] = (struct iovec){p->mu, n / (size_t)p->fc_dim * sizeof(double)};
    if (p->kind == CP_BOXED) iov[c++] = (struct iovec){p->findex, n * sizeof(int32_t)};
  } else if (h.type == REC_CALLBACK) {
    iov[c++] = (struct iovec){cb->lo, nb};
    iov[c++] = (struct iovec){cb->hi, nb};
    iov[c++] = (struct iovec){cb->z0, nb};
    iov[c++] = (struct iovec){cb->Fz0, nb};
    iov[c++] = (struct iovec){cb->carry, (size_t)cb->carry_n * sizeof(double)};
    iov[c++] = (struct iovec){cb->world, cb->world_len};
    iov[c++] = (struct iovec){cb->options, cb->options_len};
  }
  size_t used = 0;
  for (int i = 0; i < c; i++)
    used += iov[i].iov_len;
  iov[c++] = (struct iovec){(void *)pad, (size_t)h.total - used};
  return put_iov(o, iov, c, (size_t)h.total);
}

/* Hands the record at r (whole, 8-aligned) to sink; 2 when its sizes do not add up. */
static int deliver(const char *r, corpus_stream_sink sink, void *ctx)
{
  struct head h;
  memcpy(&h, r, sizeof h);
  if (h.n < 0 || h.n_eq < 0 || h.n_eq > h.n || h.carry_n < 0 || h.type < REC_NONE || h.type > REC_CALLBACK ||
      (h.fc_dim && (h.fc_dim < 2 || h.fc_dim > 3 || h.n % h.fc_dim || h.type != REC_LINEAR)) ||
      record_bytes(&h) != h.total)
    return 2;
  const struct corpus_meta *m = (const void *)(r + sizeof h);
  double *d = (double *)(void *)(r + sizeof h + sizeof *m);
  const size_t n = (size_t)h.n;
  struct cp_problem p = {.kind = (enum cp_kind)h.kind, .n = h.n, .n_eq = h.n_eq, .scale = 1.0};
  if (h.type == REC_LINEAR) {
    p.q = d, p.lo = d + n, p.hi = d + 2 * n, p.M = d + 3 * n;
    if (h.fc_dim) p.fc_dim = h.fc_dim, p.fc_relaxed = h.fc_relaxed != 0, p.mu = d + 3 * n + n * n;
    if (h.kind == CP_BOXED) p.findex = (int *)(void *)(d + 3 * n + n * n);
    return sink(ctx, &p, m, NULL) ? 2 : 0;
  }
  if (h.type == REC_NONE) return sink(ctx, &p, m, NULL) ? 2 : 0;
  char *text = (char *)(d + 4 * n + (size_t)h.carry_n);
  struct corpus_callback cb = {.world = text,
                               .options = text + h.world_len,
                               .world_len = h.world_len,
                               .options_len = h.options_len,
                               .lo = d,
                               .hi = d + n,
                               .z0 = d + 2 * n,
                               .Fz0 = d + 3 * n,
                               .carry = d + 4 * n,
                               .carry_n = h.carry_n,
                               .warm = h.warm};
  p.lo = cb.lo, p.hi = cb.hi;
  return sink(ctx, &p, m, &cb) ? 2 : 0;
}

int corpus_stream_take(struct corpus_stream *s, int fd, corpus_stream_sink sink, void *ctx)
{
  for (;;) {
    /* every whole record in the buffer first */
    size_t off = 0;
    int rc = 0;
    while (!rc && s->len - off >= sizeof(struct head)) {
      uint64_t total;
      memcpy(&total, s->buf + off, sizeof total);
      if (total < sizeof(struct head) + sizeof(struct corpus_meta) || total % 8) rc = 2;
      if (rc || s->len - off < total) break;
      rc = deliver(s->buf + off, sink, ctx);
      off += total;
    }
    if (off) memmove(s->buf, s->buf + off, s->len - off), s->len -= off;
    if (rc) return rc;
    uint64_t want = 65536;
    if (s->len >= sizeof want) memcpy(&want, s->buf, sizeof want);
    if (want < s->len + 65536) want = s->len + 65536;
    if (s->cap < want) {
      char *b = realloc(s->buf, want);
      if (!b) return 2;
      s->buf = b;
      s->cap = want;
    }
    ssize_t got = read(fd, s->buf + s->len, s->cap - s->len);
    if (got > 0) {
      s->len += (size_t)got;
      continue;
    }
    if (got == 0) return 1;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
  }
}

void corpus_stream_free(struct corpus_stream *s)
{
  free(s->buf);
  *s = (struct corpus_stream){0};
}
