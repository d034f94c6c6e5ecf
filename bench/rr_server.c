/* rr_server <bind-to> <message-size> <request-count> [<warmup-count>]: ROUTER binds and sends each of
 * max(warmup-count, 1) + request-count requests back to its sender (routing id + payload), then closes once the last
 * reply is written. Prints nothing on stdout, as local_lat; as `zmtp rr_server`. */
#include "perf_common.h"

/* Once traffic has started, a client quiet for this long on loopback is gone; also the LINGER bound. */
#define STALL_MS 30000

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: rr_server <bind-to> <message-size> <request-count> [<warmup-count>]\n");
        return 1;
    }
    const char *bind_to = argv[1];
    size_t message_size = (size_t) atol(argv[2]);
    long long request_count = atoll(argv[3]);
    long long warmup_count = argc == 5 ? atoll(argv[4]) : 0;
    if (request_count < 1 || warmup_count < 0) {
        fprintf(stderr, "rr_server: request-count >= 1, warmup-count >= 0 expected\n");
        return 1;
    }
    long long total = (warmup_count > 1 ? warmup_count : 1) + request_count;
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, ZMQ_ROUTER);
    if (!s)
        die("zmq_socket");
    apply_security(s);
    /* A ROUTER silently drops a reply for a peer at SNDHWM, and the client would wait forever for it: no HWM, and
     * ROUTER_MANDATORY so an unroutable reply fails (EHOSTUNREACH) instead of vanishing. LINGER: close must write the
     * last replies, not discard them, but not wait forever for a client that has gone away. */
    int zero = 0, one = 1, linger = STALL_MS;
    if (zmq_setsockopt(s, ZMQ_SNDHWM, &zero, sizeof zero) != 0 || zmq_setsockopt(s, ZMQ_RCVHWM, &zero, sizeof zero) != 0
        || zmq_setsockopt(s, ZMQ_ROUTER_MANDATORY, &one, sizeof one) != 0
        || zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger) != 0)
        die("zmq_setsockopt");
    if (zmq_bind(s, bind_to) != 0)
        die("zmq_bind");
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    struct progress progress;
    progress_init(&progress);
    for (long long i = 0; i < total; i++) {
        if (zmq_msg_recv(&id, s, 0) < 0 || (zmq_msg_more(&id) && zmq_msg_recv(&body, s, 0) < 0)) {
            if (zmq_errno() == EAGAIN) {
                fprintf(stderr, "rr_server: no request for %d s: %lld of %lld echoed\n", STALL_MS / 1000, i, total);
                return 1;
            }
            die("zmq_msg_recv");
        }
        if (!zmq_msg_more(&id) || zmq_msg_size(&body) != message_size || zmq_msg_more(&body)) {
            fprintf(stderr, "rr_server: request of incorrect size received: %d B (expected: %d B in 1 frame)\n",
                    zmq_msg_more(&id) ? (int) zmq_msg_size(&body) : 0, (int) message_size);
            return 1;
        }
        if (zmq_msg_send(&id, s, ZMQ_SNDMORE) < 0 || zmq_msg_send(&body, s, 0) < 0)
            die("zmq_msg_send");
        progress_tick(&progress, i + 1);
        if (i == 0) {
            /* The first request may take as long as the client takes to start; after that, silence means the
             * client is gone. */
            int stall = STALL_MS;
            if (zmq_setsockopt(s, ZMQ_RCVTIMEO, &stall, sizeof stall) != 0)
                die("zmq_setsockopt");
        }
    }
    zmq_msg_close(&id);
    zmq_msg_close(&body);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}
