/* remote_lat <connect-to> <message-size> <roundtrip-count> [<warmup-count>]: REQ connects, makes <warmup-count>
 * untimed round trips (ours, as in `zmtp remote_lat`; default 0, libzmq's tool), then the timed ones; prints libzmq's
 * lines (average latency = elapsed / (count * 2)) and percentiles of half a round trip, as `zmtp remote_lat`. */
#include "perf_common.h"

static int cmp_ull(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *) a, y = *(const unsigned long long *) b;
    return x < y ? -1 : x > y;
}

static double pct(const unsigned long long *sorted, long long n, double p)
{
    long long i = (long long) (p / 100.0 * (double) n + 0.999999) - 1;
    if (i < 0)
        i = 0;
    if (i >= n)
        i = n - 1;
    return (double) sorted[i] / 2000.0;
}

static void round_trip(void *s, zmq_msg_t *msg, size_t message_size)
{
    if (zmq_msg_send(msg, s, 0) < 0)
        die("zmq_msg_send");
    if (zmq_msg_recv(msg, s, 0) < 0)
        die("zmq_msg_recv");
    if (zmq_msg_size(msg) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        exit(1);
    }
}

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: remote_lat <connect-to> <message-size> <roundtrip-count> [<warmup-count>]\n");
        return 1;
    }
    const char *connect_to = argv[1];
    size_t message_size = (size_t) atol(argv[2]);
    long long roundtrip_count = atoll(argv[3]);
    long long warmup_count = argc == 5 ? atoll(argv[4]) : 0;
    unsigned long long *rtt = malloc(sizeof *rtt * (size_t) roundtrip_count);
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, ZMQ_REQ);
    if (!s || !rtt)
        die("zmq_socket");
    apply_security(s);
    if (zmq_connect(s, connect_to) != 0)
        die("zmq_connect");
    zmq_msg_t msg;
    if (zmq_msg_init_size(&msg, message_size) != 0)
        die("zmq_msg_init_size");
    memset(zmq_msg_data(&msg), 0, message_size);
    struct progress progress;
    progress_init(&progress);
    for (long long i = 0; i != warmup_count; i++) {
        round_trip(s, &msg, message_size);
        progress_tick(&progress, i + 1);
    }
    unsigned long long start = now_ns(), last = start;
    for (long long i = 0; i != roundtrip_count; i++) {
        round_trip(s, &msg, message_size);
        unsigned long long t = now_ns();
        rtt[i] = t - last;
        last = t;
        progress_tick(&progress, warmup_count + i + 1);
    }
    double elapsed = (double) ((last - start) / 1000);
    zmq_msg_close(&msg);
    qsort(rtt, (size_t) roundtrip_count, sizeof *rtt, cmp_ull);
    printf("message size: %d [B]\n", (int) message_size);
    printf("roundtrip count: %d\n", (int) roundtrip_count);
    printf("average latency: %.3f [us]\n", elapsed / (roundtrip_count * 2));
    printf("latency p50: %.3f [us]\n", pct(rtt, roundtrip_count, 50));
    printf("latency p90: %.3f [us]\n", pct(rtt, roundtrip_count, 90));
    printf("latency p99: %.3f [us]\n", pct(rtt, roundtrip_count, 99));
    printf("latency p99.9: %.3f [us]\n", pct(rtt, roundtrip_count, 99.9));
    printf("latency max: %.3f [us]\n", (double) rtt[roundtrip_count - 1] / 2000.0);
    free(rtt);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}
