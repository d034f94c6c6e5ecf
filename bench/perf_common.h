/* Shared helpers for the libzmq side of the benchmarks: same arguments and result lines as `zmtp local_thr` etc.
 * (and as libzmq's own perf/ tools). */
#ifndef PERF_COMMON_H
#define PERF_COMMON_H

#include <zmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long) ts.tv_sec * 1000000000ull + (unsigned long long) ts.tv_nsec;
}

static inline void die(const char *what)
{
    fprintf(stderr, "%s: %s\n", what, zmq_strerror(zmq_errno()));
    exit(1);
}

/* CURVE, as the zmtp tools take it: --curve-server-key Z85 makes a client (with --curve-secret-key, or a new key
 * pair); --curve-secret-key alone makes a server (any client key: no ZAP handler). Removed from argv, so the
 * positional arguments are where they always were. */
static const char *curve_server_key;
static const char *curve_secret_key;

static inline int strip_security(int argc, char *argv[])
{
    int out = 1;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "--curve-server-key") == 0 || strcmp(argv[i], "--curve-secret-key") == 0)
            && i + 1 < argc) {
            if (argv[i][8] == 's' && argv[i][9] == 'e' && argv[i][10] == 'r')
                curve_server_key = argv[i + 1];
            else
                curve_secret_key = argv[i + 1];
            i++;
        } else {
            argv[out++] = argv[i];
        }
    }
    return out;
}

static inline void apply_security(void *s)
{
    if (curve_server_key) {
        char public_key[41], secret_key[41];
        if (curve_secret_key) {
            strncpy(secret_key, curve_secret_key, sizeof secret_key - 1);
            secret_key[40] = 0;
            if (zmq_curve_public(public_key, secret_key) != 0)
                die("zmq_curve_public");
        } else if (zmq_curve_keypair(public_key, secret_key) != 0) {
            die("zmq_curve_keypair");
        }
        if (zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, curve_server_key, 40) != 0
            || zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, public_key, 40) != 0
            || zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, secret_key, 40) != 0)
            die("zmq_setsockopt CURVE client");
    } else if (curve_secret_key) {
        int one = 1;
        if (zmq_setsockopt(s, ZMQ_CURVE_SERVER, &one, sizeof one) != 0
            || zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, curve_secret_key, 40) != 0)
            die("zmq_setsockopt CURVE server");
    }
}

/* The throughput pair's arguments after the three positional ones: an optional <warmup-count> (untimed messages
 * before the counted ones; both tools take the same), then an optional --pubsub (SUB binds, PUB connects). */
static inline int parse_thr_options(int argc, char *argv[], const char *usage, long long *warmup)
{
    int pubsub = argc > 4 && strcmp(argv[argc - 1], "--pubsub") == 0;
    int positional = pubsub ? argc - 1 : argc;
    if (positional != 4 && positional != 5) {
        fprintf(stderr, "%s\n", usage);
        exit(1);
    }
    *warmup = positional == 5 ? atoll(argv[4]) : 0;
    if (*warmup < 0) {
        fprintf(stderr, "%s\n", usage);
        exit(1);
    }
    return pubsub;
}

/* A line on stderr each second, in the zmtp tools' form, so stdout stays as libzmq's. */
struct progress {
    unsigned long long start, last;
    long long last_count;
    int second;
};

static inline void progress_init(struct progress *p)
{
    p->start = p->last = now_ns();
    p->last_count = 0;
    p->second = 0;
}

static inline void progress_tick(struct progress *p, long long count)
{
    if ((count & 1023) != 0)
        return;
    unsigned long long t = now_ns();
    if (t - p->start < (unsigned long long) (p->second + 1) * 1000000000ull)
        return;
    p->second++;
    fprintf(stderr, "%ds: %12.0f messages/s.    (total: %12lld)\n", p->second,
            (double) (count - p->last_count) * 1e9 / (double) (t - p->last), count);
    p->last = t;
    p->last_count = count;
}

#endif
